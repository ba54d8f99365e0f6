"""A ``Scene`` as an SVG document, the same way for every ruleset.

Layers, bottom to top: the board (hex cells coloured by terrain, or the area graph's
edges and nodes), the overlay's shades (each covering its whole place, so a click
anywhere inside it lands on it), arrows, pieces, labels (step numbers, costs and notes,
over the pieces so that none is hidden), violation marks, and the legend on the right,
which explains every colour, glyph and line style the picture uses. The picture and every
piece carry ``<title>`` and ``<desc>`` (the picture is ``role="img"`` labelled by them);
cells, nodes, shades and marks carry a ``<title>`` as their tooltip. ``data-*``
attributes name what a frontend can click: ``data-hex``/``data-node`` on places,
``data-piece`` and ``data-select`` (the overlay to ask for) on pieces, ``data-action``
(the action going there) on shades; pieces, shades, labels and marks name their place in
``data-at``, so a click on anything drawn in a shaded place can propose its action.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.pictures import hexes, layout, palette
from arbiter.pictures.scene import Arrow, Mark, Node, Piece, Place, Scene
from arbiter.pictures.svg import El, el, write

HEX_SIZE = 24.0        # centre to corner, px
NODE_SPACING = 130.0   # px per unit of the layout's ideal edge length
NODE_RADIUS = 34.0
MARGIN = 28.0
LEGEND_WIDTH = 300.0
LEGEND_LINE = 18.0
LEGEND_TEXT = 42       # characters on one legend line; longer texts wrap
SHADE = "#1f5fbf"
STEP_DISC = 8.0
PIECE_INK = "#333333"  # a glyph in the legend stands for any player's piece
STYLE = (".arbiter-board text{font-family:DejaVu Sans,Verdana,sans-serif}"
         ".piece,.shade[data-action]{cursor:pointer}"
         ".legend .piece{cursor:default}"
         ".piece:focus,.shade:focus{outline:none}.piece:focus>.body{stroke:#000;stroke-width:3}"
         ".shade:focus>.area{stroke:#000;stroke-opacity:1}")
SVG_NS = "http://www.w3.org/2000/svg"


@dataclass(frozen=True, slots=True)
class Drawing:
    svg: str
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where each place is, in px, and how big a place is drawn."""

    at: Mapping[Place, tuple[float, float]]
    radius: float      # a place's radius: hex size or node radius
    width: float       # of the board, margins included
    height: float


def draw(scene: Scene) -> Drawing:
    geometry = place(scene)
    legend, legend_height = _legend(scene, geometry.width)
    width = geometry.width + LEGEND_WIDTH
    height = max(geometry.height, legend_height + 2 * MARGIN)
    root = el("svg", xmlns=SVG_NS, viewBox=f"0 0 {width:.0f} {height:.0f}",
              width=f"{width:.0f}", height=f"{height:.0f}", role="img",
              aria_labelledby="arbiter-title arbiter-desc", class_="arbiter-board")
    root.add(el("title", scene.title, id="arbiter-title"),
             el("desc", scene.desc, id="arbiter-desc"),
             el("style", STYLE), _markers(scene),
             el("rect", x=0, y=0, width=f"{width:.0f}", height=f"{height:.0f}", fill="#ffffff"))
    root.add(_board(scene, geometry), _shades(scene, geometry), _arrows(scene, geometry),
             _pieces(scene, geometry), _labels(scene, geometry), _marks(scene, geometry),
             legend)
    return Drawing(write(root), round(width), round(height))


# -- geometry ---------------------------------------------------------------------------

def place(scene: Scene) -> Geometry:
    if scene.cells:
        return _hex_geometry(scene)
    return _graph_geometry(scene.nodes, tuple((e.a, e.b) for e in scene.edges))


def _hex_geometry(scene: Scene) -> Geometry:
    raw = {c.hex: hexes.centre(c.hex, HEX_SIZE) for c in scene.cells}
    xs = [x for x, _ in raw.values()]
    ys = [y for _, y in raw.values()]
    half_w = HEX_SIZE * hexes.SQRT3 / 2
    left, top = min(xs) - half_w - MARGIN, min(ys) - HEX_SIZE - MARGIN
    at: dict[Place, tuple[float, float]] = {h: (x - left, y - top) for h, (x, y) in raw.items()}
    return Geometry(at, HEX_SIZE, max(xs) + half_w + MARGIN - left,
                    max(ys) + HEX_SIZE + MARGIN - top)


def _graph_geometry(nodes: tuple[Node, ...], edges: tuple[tuple[str, str], ...]) -> Geometry:
    if nodes and all(n.x is not None and n.y is not None for n in nodes):
        points = [(float(n.x or 0), float(n.y or 0)) for n in nodes]
        left, top = min(p[0] for p in points), min(p[1] for p in points)
        points = [(x - left, y - top) for x, y in points]
    else:
        points = list(layout.cached(tuple(n.id for n in nodes), tuple(edges)))
    pad = MARGIN + NODE_RADIUS + 12
    at: dict[Place, tuple[float, float]] = {
        n.id: (pad + x * NODE_SPACING, pad + y * NODE_SPACING)
        for n, (x, y) in zip(nodes, points, strict=True)}
    right = max((x for x, _ in at.values()), default=0.0)
    bottom = max((y for _, y in at.values()), default=0.0)
    return Geometry(at, NODE_RADIUS, right + pad, bottom + pad)


# -- the board --------------------------------------------------------------------------

def _board(scene: Scene, g: Geometry) -> El:
    group = el("g", class_="board")
    for edge in scene.edges:
        if edge.a in g.at and edge.b in g.at:
            (x1, y1), (x2, y2) = g.at[edge.a], g.at[edge.b]
            group.add(el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#8a8a8a",
                         stroke_width=2, stroke_dasharray="6 5" if edge.kind == "water"
                         else None, class_=f"edge {edge.kind}"))
    for cell in scene.cells:
        x, y = g.at[cell.hex]
        group.add(el("polygon", points=_points(hexes.corners(x, y, g.radius - 0.5)),
                     fill=palette.kind_colour(cell.terrain), stroke="#9a9a8a", stroke_width=1,
                     class_=f"cell {cell.terrain}", data_hex=f"{cell.hex[0]},{cell.hex[1]}")
                  .add(el("title", cell.title)))
    for node in scene.nodes:
        x, y = g.at[node.id]
        group.add(el("g", class_=f"node {node.kind}", data_node=node.id).add(
            el("title", node.title),
            el("circle", cx=x, cy=y, r=g.radius, fill=palette.kind_colour(node.kind),
               stroke="#7a7a6a", stroke_width=1.5),
            el("text", _cut(node.label, 14), x=x, y=y - g.radius * 0.45, font_size=11,
               text_anchor="middle", fill="#333333")))
    return group


def _points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


# -- overlays ---------------------------------------------------------------------------

def _shades(scene: Scene, g: Geometry) -> El:
    """Each shade covers its whole place (a hex, or a node's disc and a ring round it):
    a click anywhere inside the place lands on the shade, not only on a thin ring."""
    group = el("g", class_="shades")
    highest = max((s.cost for s in scene.shades), default=0)
    for shade in scene.shades:
        if shade.at not in g.at:
            continue
        x, y = g.at[shade.at]
        opacity = palette.shade_opacity(shade.cost, highest)
        shape = (el("polygon", points=_points(hexes.corners(x, y, g.radius - 3)),
                    fill=SHADE, fill_opacity=opacity, class_="area") if scene.cells
                 else el("circle", cx=x, cy=y, r=g.radius + 5, fill=SHADE,
                         fill_opacity=round(opacity * 0.45, 3), stroke=SHADE, stroke_width=8,
                         stroke_opacity=opacity, class_="area"))
        clickable = shade.action is not None
        group.add(el("g", class_="shade", data_at=_place_key(shade.at), data_cost=shade.cost,
                     data_action=_json(shade.action), tabindex=0 if clickable else None,
                     role="button" if clickable else None).add(
            el("title", f"{_place_name(shade.at)}: {shade.label}"), shape))
    return group


def _labels(scene: Scene, g: Geometry) -> El:
    """Costs, step numbers and notes, drawn over the pieces so that a piece never hides
    one; each names its place (``data-at``) for a frontend's clicks."""
    group = el("g", class_="labels")
    for shade in scene.shades:
        if shade.at not in g.at:
            continue
        x, y = g.at[shade.at]
        # Inside a hex below its pieces; on a node's rim, clear of its pieces.
        tx, ty = (x, y + g.radius * 0.62) if scene.cells else (x + g.radius * 0.75,
                                                                y + g.radius * 0.75)
        badge = el("g", class_="cost", data_at=_place_key(shade.at)).add(
            el("title", f"{_place_name(shade.at)}: {shade.label}"))
        if not scene.cells:
            badge.add(el("circle", cx=tx, cy=ty - 3.5, r=8, fill="#ffffff", stroke=SHADE))
        group.add(badge.add(el("text", str(shade.cost), x=tx, y=ty, font_size=10,
                               text_anchor="middle", fill="#0b2f6b", font_weight="bold",
                               stroke="#ffffff" if scene.cells else None,
                               stroke_width=2.5 if scene.cells else None,
                               paint_order="stroke" if scene.cells else None)))
    taken: dict[tuple[float, float], int] = {}
    for arrow in scene.arrows:
        points = [g.at[p] for p in arrow.path if p in g.at]
        if arrow.step is None or not points:
            continue
        x, y = _step_spot(points, g.radius)
        # Steps at one spot (two orders of one place) go side by side.
        k = taken.get((x, y), 0)
        taken[(x, y)] = k + 1
        x += k * (2 * STEP_DISC + 2)
        colour = palette.owner_colour(arrow.owner, scene.players)
        group.add(el("g", class_="step", data_step=arrow.step,
                     data_at=_place_key(arrow.path[-1])).add(
            el("title", arrow.label or f"step {arrow.step}"),
            el("circle", cx=x, cy=y, r=STEP_DISC, fill="#ffffff", stroke=colour,
               stroke_width=1.5),
            el("text", str(arrow.step), x=x, y=y + 3.5, font_size=10, text_anchor="middle",
               fill="#000000")))
    group.add(_notes(scene, g))
    return group


def _step_spot(points: list[tuple[float, float]], radius: float) -> tuple[float, float]:
    """Where a step's number goes: halfway along its first leg, or, for an action at one
    place, on the place's upper-left rim, clear of the pieces at its centre."""
    if len(points) == 1:
        x, y = points[0]
        return x - radius * 0.62, y - radius * 0.62
    return _midpoint(points)


def _notes(scene: Scene, g: Geometry) -> El:
    group = el("g", class_="notes")
    for note in scene.notes:
        if note.at not in g.at:
            continue
        x, y = g.at[note.at]
        # Under a node; inside a hex, above its pieces (under it is the next row's hex) and
        # smaller, since it may run over the neighbours. Haloed in white.
        text = el("text", note.text, x=x,
                  y=y - g.radius * 0.42 if scene.cells else y + g.radius + 14,
                  font_size=9 if scene.cells else 11, text_anchor="middle", fill="#5a2a00",
                  font_weight="bold", stroke="#ffffff", stroke_width=2.5,
                  paint_order="stroke", class_="note", data_at=_place_key(note.at))
        if note.title:
            text.add(el("title", note.title))
        group.add(text)
    return group


def _arrows(scene: Scene, g: Geometry) -> El:
    group = el("g", class_="arrows")
    for arrow in scene.arrows:
        points = [g.at[p] for p in arrow.path if p in g.at]
        if not points:
            continue
        colour = palette.owner_colour(arrow.owner, scene.players)
        title = arrow.label or f"{arrow.kind} along {', '.join(map(_place_name, arrow.path))}"
        item = el("g", class_=f"arrow {arrow.kind}",
                  data_step=arrow.step).add(el("title", title))
        if len(points) == 1:
            x, y = points[0]
            item.add(el("circle", cx=x, cy=y, r=g.radius * 0.8, fill="none", stroke=colour,
                        stroke_width=3, stroke_dasharray="5 4"))
        else:
            item.add(el("polyline", points=_points(_trimmed(points, g.radius * 0.45)),
                        fill="none", stroke=colour, stroke_width=3.5 if arrow.kind != "path"
                        else 2.5, stroke_dasharray="7 4" if arrow.kind == "path" else None,
                        stroke_linejoin="round", marker_end=f"url(#{_marker_id(colour)})"))
        group.add(item)
    return group


def _trimmed(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """The last segment shortened so the arrowhead stops short of the place's centre."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    if length <= by * 2:
        return points
    f = (length - by) / length
    return [*points[:-1], (x1 + (x2 - x1) * f, y1 + (y2 - y1) * f)]


def _midpoint(points: list[tuple[float, float]]) -> tuple[float, float]:
    if len(points) == 1:
        return points[0]
    (x1, y1), (x2, y2) = points[0], points[1]
    return (x1 + x2) / 2, (y1 + y2) / 2


def _markers(scene: Scene) -> El:
    defs = el("defs").add(
        el("pattern", id="out-of-play", width=8, height=8, patternUnits="userSpaceOnUse",
           patternTransform="rotate(45)").add(
            el("rect", width=8, height=8, fill="#f2f2f2"),
            el("line", x1=0, y1=0, x2=0, y2=8, stroke="#9a9a9a", stroke_width=3)))
    colours = sorted({palette.owner_colour(a.owner, scene.players) for a in scene.arrows})
    for colour in colours:
        defs.add(el("marker", id=_marker_id(colour), viewBox="0 0 10 10", refX=8, refY=5,
                    markerWidth=5, markerHeight=5, orient="auto-start-reverse").add(
            el("path", d="M0,0 L10,5 L0,10 z", fill=colour)))
    return defs


def _marker_id(colour: str) -> str:
    return "arrowhead-" + colour.lstrip("#").lower()


# -- pieces -----------------------------------------------------------------------------

def _pieces(scene: Scene, g: Geometry) -> El:
    group = el("g", class_="pieces")
    by_place: dict[Place, list[Piece]] = {}
    for piece in scene.pieces:
        if piece.at is not None and piece.at in g.at:
            by_place.setdefault(piece.at, []).append(piece)
    size = g.radius * (0.38 if scene.cells else 0.3)
    for at, pieces in by_place.items():
        cx, cy = g.at[at]
        if not scene.cells:
            cy += g.radius * 0.2
        for piece, (ox, oy) in zip(pieces, _spread(len(pieces), size * 1.45), strict=True):
            group.add(_piece(piece, cx + ox, cy + oy, size, scene.players))
    return group


def _spread(count: int, step: float) -> list[tuple[float, float]]:
    """Offsets for ``count`` pieces sharing a place: side by side, then in two rows."""
    if count == 1:
        return [(0.0, 0.0)]
    per_row = 2 if count <= 4 else 3
    rows = (count + per_row - 1) // per_row
    out = []
    for k in range(count):
        row, col = divmod(k, per_row)
        in_row = min(per_row, count - row * per_row)
        out.append(((col - (in_row - 1) / 2) * step * 1.6, (row - (rows - 1) / 2) * step * 1.6))
    return out


def _piece(piece: Piece, x: float, y: float, size: float, players: tuple[str, ...]) -> El:
    colour = palette.owner_colour(piece.owner, players)
    return el("g", class_=f"piece {piece.kind}", role="img", tabindex=0,
              data_piece=piece.id, data_owner=piece.owner,
              data_at=None if piece.at is None else _place_key(piece.at),
              data_select=_json(piece.select)).add(
        el("title", piece.title), el("desc", piece.desc),
        *_glyph(piece.kind, piece.label, x, y, size, colour))


def _glyph(kind: str, label: str, x: float, y: float, size: float, colour: str,
           ink: str | None = None) -> list[El]:
    """A piece's shape by its kind (a square for a city, castle or structure, a diamond
    for a ship or relic, else a disc) in ``colour``, its label on it."""
    edge = "#333333" if colour in palette.LIGHT else "#ffffff"
    if kind in ("city", "castle", "structure"):
        body = el("rect", x=x - size, y=y - size, width=2 * size, height=2 * size, rx=2,
                  fill=colour, stroke=edge, stroke_width=1.5, class_="body")
    elif kind in ("ship", "relic"):
        body = el("polygon", points=_points([(x, y - size * 1.2), (x + size * 1.2, y),
                                             (x, y + size * 1.2), (x - size * 1.2, y)]),
                  fill=colour, stroke=edge, stroke_width=1.5, class_="body")
    else:
        body = el("circle", cx=x, cy=y, r=size, fill=colour, stroke=edge,
                  stroke_width=1.5, class_="body")
    font = round(max(7.0, min(10.0, size * 1.1)), 1)
    return [body, el("text", _cut(label, 4), x=x, y=y + font / 3, font_size=font,
                     text_anchor="middle", fill=ink or palette.ink(colour),
                     font_weight="bold")]


# -- violations -------------------------------------------------------------------------

def _marks(scene: Scene, g: Geometry) -> El:
    group = el("g", class_="marks")
    seen: dict[Place, int] = {}
    for number, mark in enumerate(scene.marks, start=1):
        if mark.at is None or mark.at not in g.at:
            continue
        x, y = g.at[mark.at]
        k = seen.get(mark.at, 0)
        seen[mark.at] = k + 1
        # Several violations at one place: their numbered badges go round the ring.
        angle = math.radians(-45 + 50 * k)
        bx, by = x + g.radius * 0.9 * math.cos(angle), y + g.radius * 0.9 * math.sin(angle)
        group.add(el("g", class_="mark", data_code=mark.code, data_rule=mark.rule,
                     data_at=_place_key(mark.at)).add(
            el("title", _mark_line(number, mark)),
            el("circle", cx=x, cy=y, r=g.radius * 0.92, fill="none", stroke=palette.MARK,
               stroke_width=3),
            el("circle", cx=bx, cy=by, r=8, fill=palette.MARK),
            el("text", str(number), x=bx, y=by + 3.5, font_size=10, text_anchor="middle",
               fill="#ffffff", font_weight="bold")))
    return group


def _mark_line(number: int, mark: Mark) -> str:
    warning = " (warning)" if mark.severity == "warning" else ""
    return f"{number}. {mark.code}{warning} — {mark.rule}: {mark.message}"


# -- the legend -------------------------------------------------------------------------

Icon = Callable[[float], list[El]]   # the elements of a legend row's icon at height y


@dataclass(frozen=True, slots=True)
class Row:
    """One legend entry: a heading, or an item with its icon (None: none, indented) and
    its full text as the tooltip."""

    text: str
    icon: Icon | None = None
    tooltip: str = ""
    heading: bool = False


def _swatch(fill: str) -> Icon:
    return lambda y: [el("rect", x=0, y=y, width=12, height=12, fill=fill, stroke="#666666",
                         stroke_width=0.5)]


def _line(colour: str, width: float, dash: str | None, arrow: bool = False) -> Icon:
    """A line style, with an arrowhead of its own when it stands for an arrow (the board's
    markers are made only for the owners' colours)."""
    def icon(y: float) -> list[El]:
        line = el("line", x1=0, y1=y + 6, x2=10 if arrow else 13, y2=y + 6, stroke=colour,
                  stroke_width=width, stroke_dasharray=dash)
        if not arrow:
            return [line]
        return [line, el("polygon", points=_points([(9, y + 2), (15, y + 6), (9, y + 10)]),
                         fill=colour)]
    return icon


def _legend(scene: Scene, left: float) -> tuple[El, float]:
    """The legend group and its height: kinds in use, players, the pieces' glyphs, the
    links' line styles, pieces off the board, the overlay's marks and the violations."""
    rows: list[Row] = [Row("Terrain" if scene.cells else "Areas", heading=True)]
    kinds = list(dict.fromkeys([c.terrain for c in scene.cells]
                               + [n.kind for n in scene.nodes]))
    rows += [Row(k.replace("_", " "), _swatch(palette.kind_colour(k)), k) for k in kinds]
    rows.append(Row("Players", heading=True))
    rows += [Row(o, _swatch(palette.owner_colour(o, scene.players)), o)
             for o in scene.players]
    if any(p.owner is None for p in scene.pieces):
        rows.append(Row("neutral (nobody's)", _swatch(palette.NEUTRAL), "neutral"))
    rows += _glyph_rows(scene)
    rows += _link_rows(scene)
    group = el("g", class_="legend", transform=f"translate({left:.0f},{MARGIN:.0f})")
    rows = _wrapped(rows)
    off_board = [p for p in scene.pieces if p.at is None]
    if off_board:
        rows += _wrapped([Row("Off the board", heading=True)])
        for piece in off_board:
            group.add(_piece(piece, 6, len(rows) * LEGEND_LINE + 6, 7, scene.players))
            rows += _wrapped([Row(piece.title, lambda y: [], piece.desc)])
    rows += _wrapped(_overlay_rows(scene))
    for k, row in enumerate(rows):
        group.add(_legend_line(k * LEGEND_LINE, row))
    return group, len(rows) * LEGEND_LINE


def _glyph_rows(scene: Scene) -> list[Row]:
    """What each shape and label on the board means: the ruleset's glyphs whose pieces are
    on the board, and the kind's name for a piece no glyph describes."""
    on_board = {(p.kind, p.owner is None) for p in scene.pieces if p.at is not None}
    rows: list[Row] = []
    described = set()
    for glyph in scene.glyphs:
        if (glyph.kind, glyph.neutral) in on_board:
            described.add((glyph.kind, glyph.neutral))
            colour = palette.NEUTRAL if glyph.neutral else "#ffffff"
            rows.append(Row(glyph.meaning, _glyph_icon(glyph.kind, glyph.label, colour),
                            glyph.meaning))
    for kind, neutral in sorted(on_board - described):
        text = kind.replace("_", " ") + (" (nobody's)" if neutral else "")
        rows.append(Row(text, _glyph_icon(kind, "", palette.NEUTRAL if neutral
                                          else "#ffffff"), text))
    if rows:
        rows.insert(0, Row("Pieces (in their owner's colour)", heading=True))
    return rows


def _glyph_icon(kind: str, label: str, colour: str) -> Icon:
    def icon(y: float) -> list[El]:
        body, text = _glyph(kind, label, 6, y + 6, 7, colour,
                            ink="#000000" if colour == "#ffffff" else None)
        if colour == "#ffffff":
            body.attrs = {**body.attrs, "stroke": PIECE_INK}
        return [body, text]
    return icon


def _link_rows(scene: Scene) -> list[Row]:
    kinds = list(dict.fromkeys(e.kind for e in scene.edges))
    words = {"land": "solid line: neighbours by land",
             "water": "dashed line: neighbours by water (a sea route)"}
    rows = [Row(words.get(k, f"{k} link"), _line("#8a8a8a", 2, "6 5" if k == "water"
                                                 else None), k) for k in kinds]
    return [Row("Links", heading=True), *rows] if rows else []


def _overlay_rows(scene: Scene) -> list[Row]:
    rows: list[Row] = []
    if scene.caption:
        rows += [Row("Overlay", heading=True), Row(scene.caption, None, scene.caption)]
        if scene.shades:
            rows.append(Row(f"shaded: {scene.shade_unit}, darker is dearer; click to go",
                            _swatch(SHADE), "a shaded place"))
            rows.append(Row(f"number in a white disc: its cost ({scene.shade_unit})",
                            _badge_icon("3", SHADE, "#0b2f6b"), "cost") if not scene.cells
                        else Row(f"blue number in a hex: its cost ({scene.shade_unit})",
                                 lambda y: [el("text", "3", x=6, y=y + 10, font_size=10,
                                               text_anchor="middle", fill="#0b2f6b",
                                               font_weight="bold")], "cost"))
    rows += _arrow_rows(scene)
    if scene.notes:
        rows.append(Row("brown text: a note on the place (hover for more)",
                        lambda y: [el("text", "ab", x=0, y=y + 10, font_size=10,
                                      fill="#5a2a00", font_weight="bold")], "note"))
    if scene.marks:
        rows.append(Row("Violations (a red ring where each occurs)", heading=True))
        rows += [Row(_mark_line(k, m), _badge_icon(str(k), palette.MARK, "#ffffff",
                                                   palette.MARK), _mark_line(k, m))
                 for k, m in enumerate(scene.marks, start=1)]
    return rows


def _arrow_rows(scene: Scene) -> list[Row]:
    rows: list[Row] = []
    colour = "#555555"
    kinds = list(dict.fromkeys((a.kind, len(a.path) == 1) for a in scene.arrows))
    for kind, single in kinds:
        if single:
            rows.append(Row(f"dashed ring: {kind} at that place", lambda y: [
                el("circle", cx=6, cy=y + 6, r=5.5, fill="none", stroke=colour,
                   stroke_width=2, stroke_dasharray="3 2")], kind))
        elif kind == "path":
            rows.append(Row("dashed arrow: one path there", _line(colour, 2.5, "7 4", True),
                            kind))
        else:
            rows.append(Row(f"solid arrow: {kind}, in the player's colour",
                            _line(colour, 3.5, None, True), kind))
    if any(a.step is not None for a in scene.arrows):
        rows.append(Row("number in a ringed disc: the action's step",
                        _badge_icon("1", colour, "#000000"), "step"))
    return rows


def _badge_icon(text: str, ring: str, ink: str, fill: str = "#ffffff") -> Icon:
    return lambda y: [el("circle", cx=6, cy=y + 6, r=6, fill=fill, stroke=ring,
                         stroke_width=1.5),
                      el("text", text, x=6, y=y + 9, font_size=8, text_anchor="middle",
                         fill=ink, font_weight="bold")]


def _wrapped(rows: list[Row]) -> list[Row]:
    """Legend entries wrapped into rows; a continued entry's rows are indented."""
    return [Row(part, row.icon if i == 0 else (None if row.icon is None else _no_icon),
                row.tooltip, row.heading)
            for row in rows for i, part in enumerate(_wrap(row.text))]


def _no_icon(y: float) -> list[El]:
    return []


def _legend_line(y: float, row: Row) -> El:
    line = el("g", class_="legend-heading" if row.heading else "legend-item")
    if row.tooltip:
        line.add(el("title", row.tooltip))
    x = 0.0
    if row.icon is not None:
        line.extend(row.icon(y))
        x = 18.0
    line.add(el("text", row.text, x=x, y=y + 10,
                font_size=12 if row.heading else 11,
                font_weight="bold" if row.heading else None, fill="#222222"))
    return line


# -- words ------------------------------------------------------------------------------

def _wrap(text: str) -> list[str]:
    """A legend text in lines of at most LEGEND_TEXT characters, broken at spaces (a longer
    word is broken where it reaches the edge): all of it, never cut."""
    lines: list[str] = []
    for word in text.split(" "):
        while len(word) > LEGEND_TEXT:
            lines.append(word[:LEGEND_TEXT])
            word = word[LEGEND_TEXT:]
        if lines and len(lines[-1]) + 1 + len(word) <= LEGEND_TEXT:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _place_key(at: Place) -> str:
    return f"{at[0]},{at[1]}" if isinstance(at, tuple) else at


def _place_name(at: Place) -> str:
    return f"({at[0]},{at[1]})" if isinstance(at, tuple) else at


def _json(value: Mapping[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def mark_place(scene: Scene, hex: tuple[int, int] | None, region: str | None,
               piece: str | None, step: int | None) -> Place | None:
    """Where a violation is drawn: its hex, else its region or area, else its piece's
    place, else the end of its step's arrow; None when the picture has none of them."""
    if hex is not None and any(c.hex == hex for c in scene.cells):
        return hex
    if region is not None and any(n.id == region for n in scene.nodes):
        return region
    if piece is not None:
        found = next((p.at for p in scene.pieces if p.id == piece), None)
        if found is not None:
            return found
    if step is not None:
        arrow: Arrow | None = next((a for a in scene.arrows if a.step == step), None)
        if arrow is not None and arrow.path:
            return arrow.path[-1]
    return None

