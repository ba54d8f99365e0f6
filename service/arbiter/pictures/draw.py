"""A ``Scene`` as an SVG document, the same way for every ruleset.

Layers, bottom to top: the board (hex cells coloured by terrain, or the area graph's
edges and nodes), the overlay's shades (each covering its whole place, so a click
anywhere inside it lands on it), arrows, pieces, labels (step numbers, costs and notes),
violation marks, and the legend on the right, which explains every colour, glyph and line
style the picture uses.

No label lies under or over a piece, however crowded a place: the pieces of a place are
laid out within its frame (the middle of a hex, the part of an area's disc under its
name), smaller when many, leaving its rim to the labels; then each label (an area's name,
a cost, a step's number, a note, a violation's number) takes the first of its spots where
its box meets no piece's box and no label's placed before it, else the nearest free point
round it (``placing``), the board growing when a label lands past its edge.

The picture and every piece carry ``<title>`` and ``<desc>`` (the picture is
``role="img"`` labelled by them); cells, nodes, shades and marks carry a ``<title>`` as
their tooltip. ``data-*`` attributes name what a frontend can click:
``data-hex``/``data-node`` on places, ``data-piece`` and ``data-select`` (the overlay to
ask for) on pieces, ``data-action`` (the action going there) on shades; pieces, shades,
labels and marks name their place in ``data-at``, so a click on anything drawn in a
shaded place can propose its action.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.pictures import hexes, layout, palette
from arbiter.pictures.boxes import Box, disc, text_box
from arbiter.pictures.placing import Label, Placer, Point
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
BADGE = 8.0            # a cost's disc on an area, a violation's number
LABEL_HALO = 2.5       # the white outline round a cost or a note written on the board
NAME_FONT = 11.0
# Where a place's pieces go, in units of its radius: the frame's centre below the place's
# centre, its half width and half height. In a hex, the middle band, leaving the top to a
# note and the bottom to the cost; on an area, under its name.
HEX_FRAME = (0.0, 0.85, 0.45)
NODE_FRAME = (0.2, 0.7, 0.5)
PIECE_GAP = 2.0        # px between two pieces of one place
MIN_PIECE = 4.0        # px: smaller than this, a crowd of pieces overflows its frame
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
    spots = _spots(scene, geometry)
    written = _written(scene, geometry)
    placer = Placer(spot.box for spot in spots)
    # Placed in the order ``_written`` gives them, each drawn where it lands.
    drawn = {kind: [w.draw(*placer.place(w.label)) for w in group]
             for kind, group in written.items()}
    # A label (or a crowd of pieces) past the board's edge widens the board.
    board_width = max(geometry.width, placer.right + MARGIN / 2)
    board_height = max(geometry.height, placer.bottom + MARGIN / 2)
    legend, legend_height = _legend(scene, board_width)
    width = board_width + LEGEND_WIDTH
    height = max(board_height, legend_height + 2 * MARGIN)
    root = el("svg", xmlns=SVG_NS, viewBox=f"0 0 {width:.0f} {height:.0f}",
              width=f"{width:.0f}", height=f"{height:.0f}", role="img",
              aria_labelledby="arbiter-title arbiter-desc", class_="arbiter-board")
    root.add(el("title", scene.title, id="arbiter-title"),
             el("desc", scene.desc, id="arbiter-desc"),
             el("style", STYLE), _markers(scene),
             el("rect", x=0, y=0, width=f"{width:.0f}", height=f"{height:.0f}", fill="#ffffff"))
    root.add(_board(scene, geometry, drawn["names"]), _shades(scene, geometry),
             _arrows(scene, geometry), _pieces(scene, spots),
             el("g", class_="labels").extend([*drawn["costs"], *drawn["steps"]]).add(
                 el("g", class_="notes").extend(drawn["notes"])),
             _marks(scene, geometry, drawn["marks"]), legend)
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

def _board(scene: Scene, g: Geometry, names: list[El]) -> El:
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
    for node, name in zip(scene.nodes, names, strict=True):
        x, y = g.at[node.id]
        group.add(el("g", class_=f"node {node.kind}", data_node=node.id).add(
            el("title", node.title),
            el("circle", cx=x, cy=y, r=g.radius, fill=palette.kind_colour(node.kind),
               stroke="#7a7a6a", stroke_width=1.5), name))
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


# -- labels -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Written:
    """A label to place on the board (``placing``) and its drawing once placed."""

    label: Label
    draw: Callable[[float, float], El]


def _written(scene: Scene, g: Geometry) -> dict[str, list[Written]]:
    """Every label of the picture, by kind, in the order they are placed: areas' names
    first (the board), then notes (wide, and few), steps' numbers, costs, and violations'
    numbers."""
    return {"names": [_name(node, g) for node in scene.nodes],
            "notes": [_note(scene, note.at, note.text, note.title, g) for note in scene.notes
                      if note.at in g.at],
            "steps": [_step(scene, arrow, g) for arrow in scene.arrows
                      if arrow.step is not None and any(p in g.at for p in arrow.path)],
            "costs": [_cost(scene, shade.at, shade.cost, shade.label, g)
                      for shade in scene.shades if shade.at in g.at],
            "marks": _mark_badges(scene, g)}


def _centred(box: Box, x: float, y: float) -> Point:
    """The anchor that puts the centre of ``box`` (drawn round its anchor) at (x, y)."""
    return x - (box.left + box.right) / 2, y - (box.top + box.bottom) / 2


def _frame(scene: Scene, g: Geometry) -> tuple[float, float, float]:
    dy, half_width, half_height = HEX_FRAME if scene.cells else NODE_FRAME
    return dy * g.radius, half_width * g.radius, half_height * g.radius


def _name(node: Node, g: Geometry) -> Written:
    """An area's name, at the top of its disc, above its pieces."""
    x, y = g.at[node.id]
    text = _cut(node.label, 14)
    box = text_box(text, 0, 0, NAME_FONT)
    spots = [(x, y - g.radius * 0.45), _centred(box, x, y - g.radius - box.height / 2)]
    return Written(Label(box, spots), lambda tx, ty: el(
        "text", text, x=tx, y=ty, font_size=NAME_FONT, text_anchor="middle", fill="#333333"))


def _note(scene: Scene, at: Place, text: str, title: str, g: Geometry) -> Written:
    """A note: under an area; in a hex, above its pieces (under them is the cost), and
    smaller, since it may run over the neighbours. Haloed in white."""
    x, y = g.at[at]
    size = 9.0 if scene.cells else 11.0
    box = text_box(text, 0, 0, size, halo=LABEL_HALO)
    dy, _, half = _frame(scene, g)
    if scene.cells:
        spots = [(x, y - g.radius * 0.42), _centred(box, x, y + dy - half - box.height / 2),
                 _centred(box, x, y + dy + half + box.height / 2)]
    else:
        spots = [_centred(box, x, y + g.radius + 1 + box.height / 2)]

    def draw(tx: float, ty: float) -> El:
        note = el("text", text, x=tx, y=ty, font_size=size, text_anchor="middle",
                  fill="#5a2a00", font_weight="bold", stroke="#ffffff",
                  stroke_width=LABEL_HALO, paint_order="stroke", class_="note",
                  data_at=_place_key(at))
        return note.add(el("title", title)) if title else note
    return Written(Label(box, spots), draw)


def _cost(scene: Scene, at: Place, cost: int, label: str, g: Geometry) -> Written:
    """A shade's cost: in a hex under its pieces, in blue; on an area's rim in a white
    disc."""
    x, y = g.at[at]
    text = str(cost)
    title = f"{_place_name(at)}: {label}"
    if scene.cells:
        box = text_box(text, 0, 0, 10, halo=LABEL_HALO)
        dy, half_width, half = _frame(scene, g)
        spots = [(x, y + g.radius * 0.62), _centred(box, x, y + dy + half + box.height / 2),
                 _centred(box, x, y + dy - half - box.height / 2),
                 _centred(box, x + half_width - box.width / 2, y + dy + half + box.height / 2),
                 _centred(box, x - half_width + box.width / 2, y + dy + half + box.height / 2)]

        def in_hex(tx: float, ty: float) -> El:
            return el("g", class_="cost", data_at=_place_key(at)).add(
                el("title", title),
                el("text", text, x=tx, y=ty, font_size=10, text_anchor="middle",
                   fill="#0b2f6b", font_weight="bold", stroke="#ffffff",
                   stroke_width=LABEL_HALO, paint_order="stroke"))
        return Written(Label(box, spots), in_hex)
    box = disc(0, -3.5, BADGE + 0.5).union(text_box(text, 0, 0, 10))
    r = g.radius * 0.75
    spots = [(x + r, y + r), (x - r, y + r), (x + r, y - r), (x - r, y - r)]

    def on_rim(tx: float, ty: float) -> El:
        return el("g", class_="cost", data_at=_place_key(at)).add(
            el("title", title),
            el("circle", cx=tx, cy=ty - 3.5, r=BADGE, fill="#ffffff", stroke=SHADE),
            el("text", text, x=tx, y=ty, font_size=10, text_anchor="middle",
               fill="#0b2f6b", font_weight="bold"))
    return Written(Label(box, spots), on_rim)


def _step(scene: Scene, arrow: Arrow, g: Geometry) -> Written:
    """A step's number in a disc ringed in its player's colour: along its first leg
    (halfway first), or, for an action at one place, on the place's rim (upper left
    first), clear of the pieces in its middle."""
    points = [g.at[p] for p in arrow.path if p in g.at]
    text = str(arrow.step)
    box = disc(0, 0, STEP_DISC + 0.75).union(text_box(text, 0, 3.5, 10))
    if len(points) == 1:
        x, y = points[0]
        r = g.radius * 0.62
        spots = [(x - r, y - r), (x + r, y - r), (x - r, y + r), (x + r, y + r)]
    else:
        (x1, y1), (x2, y2) = points[0], points[1]
        spots = [(x1 + (x2 - x1) * f, y1 + (y2 - y1) * f)
                 for f in (0.5, 0.35, 0.65, 0.25, 0.75)]
    colour = palette.owner_colour(arrow.owner, scene.players)

    def draw(x: float, y: float) -> El:
        return el("g", class_="step", data_step=arrow.step,
                  data_at=_place_key(arrow.path[-1])).add(
            el("title", arrow.label or f"step {arrow.step}"),
            el("circle", cx=x, cy=y, r=STEP_DISC, fill="#ffffff", stroke=colour,
               stroke_width=1.5),
            el("text", text, x=x, y=y + 3.5, font_size=10, text_anchor="middle",
               fill="#000000"))
    return Written(Label(box, spots), draw)


def _mark_badges(scene: Scene, g: Geometry) -> list[Written]:
    """Each violation's number, on its place's ring: several at one place go round it."""
    badges = []
    seen: dict[Place, int] = {}
    for number, mark in enumerate(scene.marks, start=1):
        if mark.at is None or mark.at not in g.at:
            continue
        x, y = g.at[mark.at]
        k = seen.get(mark.at, 0)
        seen[mark.at] = k + 1
        angles = [math.radians(-45 + 50 * (k + i)) for i in range(8)]
        spots = [(x + g.radius * 0.9 * math.cos(a), y + g.radius * 0.9 * math.sin(a))
                 for a in angles]
        text = str(number)
        box = disc(0, 0, BADGE).union(text_box(text, 0, 3.5, 10))
        badges.append(Written(Label(box, spots), _badge(text)))
    return badges


def _badge(text: str) -> Callable[[float, float], El]:
    def draw(x: float, y: float) -> El:
        return el("g", class_="badge").add(
            el("circle", cx=x, cy=y, r=BADGE, fill=palette.MARK),
            el("text", text, x=x, y=y + 3.5, font_size=10, text_anchor="middle",
               fill="#ffffff", font_weight="bold"))
    return draw


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

@dataclass(frozen=True, slots=True)
class Spot:
    """A piece where it is drawn: its centre and size (px)."""

    piece: Piece
    x: float
    y: float
    size: float

    @property
    def box(self) -> Box:
        return _glyph_box(self.piece.kind, self.piece.label, self.x, self.y, self.size)


def _spots(scene: Scene, g: Geometry) -> list[Spot]:
    """Each piece on the board where it is drawn: the pieces of a place in rows within
    its frame, as big as they fit (at most their usual size, at least ``MIN_PIECE``)."""
    by_place: dict[Place, list[Piece]] = {}
    for piece in scene.pieces:
        if piece.at is not None and piece.at in g.at:
            by_place.setdefault(piece.at, []).append(piece)
    usual = g.radius * (0.38 if scene.cells else 0.3)
    dy, half_width, half_height = _frame(scene, g)
    spots = []
    for at, pieces in by_place.items():
        cx, cy = g.at[at]
        reach = max(_reach(p.kind) for p in pieces)
        size, columns = _fit(len(pieces), 2 * half_width, 2 * half_height, usual, reach)
        pitch = 2 * size * reach + PIECE_GAP
        rows = math.ceil(len(pieces) / columns)
        for k, piece in enumerate(pieces):
            row, col = divmod(k, columns)
            in_row = min(columns, len(pieces) - row * columns)
            spots.append(Spot(piece, cx + (col - (in_row - 1) / 2) * pitch,
                              cy + dy + (row - (rows - 1) / 2) * pitch, size))
    return spots


def _fit(count: int, width: float, height: float, usual: float, reach: float
         ) -> tuple[float, int]:
    """The size of ``count`` pieces in a ``width`` by ``height`` frame, and how many go
    in a row: the fewest columns that give the largest size."""
    best = (0.0, 1)
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        pitch = min(width / columns, height / rows)
        size = min(usual, (pitch - PIECE_GAP) / (2 * reach))
        if size > best[0] + 1e-9:
            best = (size, columns)
    return max(best[0], MIN_PIECE), best[1]


def _reach(kind: str) -> float:
    """How far a piece's shape reaches from its centre, in units of its size."""
    return 1.2 if kind in ("ship", "relic") else 1.0


def _piece_font(size: float) -> float:
    return round(max(7.0, min(10.0, size * 1.1)), 1)


def _glyph_box(kind: str, label: str, x: float, y: float, size: float) -> Box:
    """The box of a piece's shape (its 1.5 px outline included) and its label."""
    font = _piece_font(size)
    return disc(x, y, size * _reach(kind) + 0.75).union(
        text_box(_cut(label, 4), x, y + font / 3, font))


def _pieces(scene: Scene, spots: list[Spot]) -> El:
    return el("g", class_="pieces").extend(
        _piece(s.piece, s.x, s.y, s.size, scene.players) for s in spots)


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
    font = _piece_font(size)
    return [body, el("text", _cut(label, 4), x=x, y=y + font / 3, font_size=font,
                     text_anchor="middle", fill=ink or palette.ink(colour),
                     font_weight="bold")]


# -- violations -------------------------------------------------------------------------

def _marks(scene: Scene, g: Geometry, badges: list[El]) -> El:
    """Each violation as a red ring round its place with its numbered badge (placed
    like the labels)."""
    group = el("g", class_="marks")
    placed = iter(badges)
    for number, mark in enumerate(scene.marks, start=1):
        if mark.at is None or mark.at not in g.at:
            continue
        x, y = g.at[mark.at]
        group.add(el("g", class_="mark", data_code=mark.code, data_rule=mark.rule,
                     data_at=_place_key(mark.at)).add(
            el("title", _mark_line(number, mark)),
            el("circle", cx=x, cy=y, r=g.radius * 0.92, fill="none", stroke=palette.MARK,
               stroke_width=3), next(placed)))
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

