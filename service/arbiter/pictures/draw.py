"""A ``Scene`` as an SVG document, the same way for every ruleset.

Layers, bottom to top: the board (hex cells coloured by terrain, or the area graph's
edges and nodes), the overlay's shades, arrows, notes (over the arrows, so that they stay
readable), pieces, violation marks, and the legend on the right. The picture and every
piece carry ``<title>`` and ``<desc>`` (the picture is ``role="img"`` labelled by them);
cells, nodes, shades and marks carry a ``<title>`` as their tooltip. ``data-*``
attributes name what a frontend can click: ``data-hex``/``data-node`` on places,
``data-piece`` and ``data-select`` (the overlay to ask for) on pieces, ``data-action``
(the action going there) on shades.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
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
LEGEND_WRAP = 3        # lines at most per legend entry (its tooltip has all of it)
SHADE = "#1f5fbf"
STYLE = (".arbiter-board text{font-family:DejaVu Sans,Verdana,sans-serif}"
         ".piece,.shade[data-action]{cursor:pointer}"
         ".piece:focus{outline:none}.piece:focus>.body{stroke:#000;stroke-width:3}")
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
             _notes(scene, geometry), _pieces(scene, geometry), _marks(scene, geometry),
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
    group = el("g", class_="shades")
    highest = max((s.cost for s in scene.shades), default=0)
    for shade in scene.shades:
        if shade.at not in g.at:
            continue
        x, y = g.at[shade.at]
        opacity = palette.shade_opacity(shade.cost, highest)
        shape = (el("polygon", points=_points(hexes.corners(x, y, g.radius - 3)),
                    fill=SHADE, fill_opacity=opacity) if scene.cells
                 else el("circle", cx=x, cy=y, r=g.radius + 5, fill="none", stroke=SHADE,
                         stroke_width=8, stroke_opacity=opacity))
        # The cost: inside a hex under its pieces; on a node's rim, clear of its pieces.
        tx, ty = (x, y + g.radius * 0.62) if scene.cells else (x + g.radius * 0.75,
                                                                y + g.radius * 0.75)
        item = el("g", class_="shade", data_at=_place_key(shade.at), data_cost=shade.cost,
                  data_action=_json(shade.action)).add(
            el("title", f"{_place_name(shade.at)}: {shade.label}"), shape)
        if not scene.cells:
            item.add(el("circle", cx=tx, cy=ty - 3.5, r=8, fill="#ffffff", stroke=SHADE))
        group.add(item.add(el("text", str(shade.cost), x=tx, y=ty, font_size=10,
                              text_anchor="middle", fill="#0b2f6b", font_weight="bold")))
    return group


def _notes(scene: Scene, g: Geometry) -> El:
    group = el("g", class_="notes")
    for note in scene.notes:
        if note.at not in g.at:
            continue
        x, y = g.at[note.at]
        # Under a node; inside a hex, above its pieces (under it is the next row's hex) and
        # smaller, since it may run over the neighbours. Haloed in white over the arrows.
        text = el("text", note.text, x=x,
                  y=y - g.radius * 0.42 if scene.cells else y + g.radius + 14,
                  font_size=9 if scene.cells else 11, text_anchor="middle", fill="#5a2a00",
                  font_weight="bold", stroke="#ffffff", stroke_width=2.5,
                  paint_order="stroke", class_="note")
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
        if arrow.step is not None:
            x, y = _midpoint(points)
            item.add(el("circle", cx=x, cy=y, r=8, fill="#ffffff", stroke=colour,
                        stroke_width=1.5),
                     el("text", str(arrow.step), x=x, y=y + 3.5, font_size=10,
                        text_anchor="middle", fill="#000000"))
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
    defs = el("defs")
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
    if piece.kind in ("city", "castle", "structure"):
        body = el("rect", x=x - size, y=y - size, width=2 * size, height=2 * size, rx=2,
                  fill=colour, stroke="#ffffff", stroke_width=1.5, class_="body")
    elif piece.kind in ("ship", "relic"):
        body = el("polygon", points=_points([(x, y - size * 1.2), (x + size * 1.2, y),
                                             (x, y + size * 1.2), (x - size * 1.2, y)]),
                  fill=colour, stroke="#ffffff", stroke_width=1.5, class_="body")
    else:
        body = el("circle", cx=x, cy=y, r=size, fill=colour, stroke="#ffffff",
                  stroke_width=1.5, class_="body")
    font = round(max(7.0, min(10.0, size * 1.1)), 1)
    text_fill = "#000000" if colour in ("#F0E442", "#E69F00", "#56B4E9") else "#ffffff"
    return el("g", class_=f"piece {piece.kind}", role="img", tabindex=0,
              data_piece=piece.id, data_owner=piece.owner, data_select=_json(piece.select)).add(
        el("title", piece.title), el("desc", piece.desc), body,
        el("text", _cut(piece.label, 4), x=x, y=y + font / 3, font_size=font,
           text_anchor="middle",
           fill=text_fill, font_weight="bold"))


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

def _legend(scene: Scene, left: float) -> tuple[El, float]:
    """The legend group and its height: kinds in use, players, pieces off the board, the
    overlay and the violations."""
    lines: list[tuple[str, str | None, str]] = []   # (text, swatch colour, tooltip)
    kinds = list(dict.fromkeys([c.terrain for c in scene.cells]
                               + [n.kind for n in scene.nodes]))
    lines.append(("Terrain" if scene.cells else "Areas", None, ""))
    lines += [(k.replace("_", " "), palette.kind_colour(k), k) for k in kinds]
    owners = list(scene.players)
    if any(p.owner is None for p in scene.pieces):
        owners.append("neutral")
    lines.append(("Players", None, ""))
    lines += [(o, palette.owner_colour(None if o == "neutral" else o, scene.players), o)
              for o in owners]
    group = el("g", class_="legend", transform=f"translate({left:.0f},{MARGIN:.0f})")
    rows = _rows(lines)
    off_board = [p for p in scene.pieces if p.at is None]
    if off_board:
        rows += _rows([("Off the board", None, "")])
        for piece in off_board:
            group.add(_piece(piece, 6, len(rows) * LEGEND_LINE + 6, 7, scene.players))
            rows += _rows([(piece.title, "", piece.desc)])
    rows += _rows(_overlay_lines(scene))
    for k, (text, swatch, tooltip) in enumerate(rows):
        group.add(_legend_line(k * LEGEND_LINE, text, swatch, tooltip))
    return group, len(rows) * LEGEND_LINE


def _rows(lines: list[tuple[str, str | None, str]]) -> list[tuple[str, str | None, str]]:
    """Legend entries wrapped into rows; a continued entry's rows are indented."""
    return [(part, swatch if i == 0 else "", tooltip)
            for text, swatch, tooltip in lines for i, part in enumerate(_wrap(text))]


def _overlay_lines(scene: Scene) -> list[tuple[str, str | None, str]]:
    lines: list[tuple[str, str | None, str]] = []
    if scene.caption:
        lines += [("Overlay", None, ""), (scene.caption, None, scene.caption)]
        if scene.shades:
            lines.append((f"shaded: {scene.shade_unit}, darker is dearer", SHADE, ""))
    if scene.marks:
        lines.append(("Violations", None, ""))
        lines += [(_mark_line(k, m), palette.MARK, _mark_line(k, m))
                  for k, m in enumerate(scene.marks, start=1)]
    return lines


def _legend_line(y: float, text: str, swatch: str | None, tooltip: str) -> El:
    """A heading (no swatch, no tooltip), or an item with its swatch (an empty swatch: a
    piece is drawn there) and its full text as the tooltip."""
    heading = swatch is None and not tooltip
    line = el("g", class_="legend-heading" if heading else "legend-item")
    if tooltip:
        line.add(el("title", tooltip))
    x = 0.0
    if swatch:
        line.add(el("rect", x=0, y=y, width=12, height=12, fill=swatch, stroke="#666666",
                    stroke_width=0.5))
    if swatch is not None:
        x = 18.0
    line.add(el("text", text, x=x, y=y + 10,
                font_size=12 if heading else 11, font_weight="bold" if heading else None,
                fill="#222222"))
    return line


# -- words ------------------------------------------------------------------------------

def _wrap(text: str) -> list[str]:
    """A legend text in lines of at most LEGEND_TEXT characters, broken at spaces, at most
    LEGEND_WRAP lines (the last cut with an ellipsis)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= LEGEND_TEXT:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > LEGEND_WRAP:
        lines = [*lines[:LEGEND_WRAP - 1], _cut(" ".join(lines[LEGEND_WRAP - 1:]), LEGEND_TEXT)]
    return [_cut(line, LEGEND_TEXT) for line in lines] or [""]


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

