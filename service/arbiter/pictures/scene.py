"""The neutral picture of one state, as a ruleset describes it: what is where, who owns
it, what an overlay adds. Nothing here knows SVG, pixels or colours; ``draw`` does.

Places are hex cells (an axial ``(q, r)`` tuple) or nodes of an area graph (an id:
a region, an area, a territory, a grid square). A scene has cells or nodes, never both.

- ``Cell``: a hex with its terrain (the legend key) and its tooltip.
- ``Node`` and ``Edge``: an area graph; a node may carry geometry (``x``, ``y``), and a
  graph without any is laid out by ``layout`` (deterministically).
- ``Piece``: an army, a stack of tokens, a ship, a city: its owner (None: neutral), the
  short label drawn on it (a count), an accessible title and description, and the overlay
  a frontend asks for when it is clicked (``select``). A piece off the board (tokens in
  hand, a reserve) has no place and is drawn in the legend.
- ``Shade``: a place an overlay colours by cost (reachable hexes, conquerable regions),
  with its label and the action that would go there (``action``), for a frontend to
  propose on a click.
- ``Arrow``: a move along places (a path, a voyage, a redeployment), numbered by the
  action's ``step`` when the action has several.
- ``Note``: a text written on a place (a conquest cost).
- ``Mark``: a violation drawn where it occurs.
- ``Glyph``: what a piece's shape and label mean in this ruleset ("a disc with a number:
  an army and its units"), for the legend; a glyph is listed when a piece of its kind
  (neutral or a player's) is on the board.

``Picture`` is what a ruleset's ``scene.py`` exports as ``PICTURE``: its overlay model
(every field optional; the action overlay is added for every ruleset by ``render``), the
function from a compiled board, the overlay and the proposed action to a ``Scene``, and
example requests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from arbiter.engine.errors import InvalidInput, Problem, pointer

Hex = tuple[int, int]
Place = Hex | str
B = TypeVar("B")


@dataclass(frozen=True, slots=True)
class Cell:
    hex: Hex
    terrain: str
    title: str


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    kind: str
    label: str
    title: str
    x: float | None = None
    y: float | None = None


@dataclass(frozen=True, slots=True)
class Edge:
    a: str
    b: str
    kind: str = "land"   # land: a solid border line; water: a dashed sea route


@dataclass(frozen=True, slots=True)
class Piece:
    id: str
    at: Place | None     # None: off the board (tokens in hand, a reserve), in the legend
    owner: str | None
    label: str
    title: str
    desc: str
    kind: str = "army"   # army, tokens, ship, city, castle, structure, relic, barbarians
    select: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Shade:
    at: Place
    cost: int
    label: str
    action: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Arrow:
    path: tuple[Place, ...]
    owner: str | None
    step: int | None = None
    label: str = ""
    kind: str = "move"   # move, path (the one path of a reachable overlay), sail


@dataclass(frozen=True, slots=True)
class Note:
    at: Place
    text: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class Mark:
    at: Place | None
    code: str
    rule: str
    message: str
    severity: str = "error"


@dataclass(frozen=True, slots=True)
class Glyph:
    kind: str            # the pieces' kind, which sets the shape (see ``Piece``)
    label: str           # a label as drawn on such a piece ("3", "C", "2d")
    meaning: str
    neutral: bool = False  # a piece nobody owns (barbarians, a Lost Tribe) rather than a player's


@dataclass(frozen=True, slots=True)
class Scene:
    title: str
    desc: str
    players: tuple[str, ...]
    cells: tuple[Cell, ...] = ()
    nodes: tuple[Node, ...] = ()
    edges: tuple[Edge, ...] = ()
    pieces: tuple[Piece, ...] = ()
    shades: tuple[Shade, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    notes: tuple[Note, ...] = ()
    marks: tuple[Mark, ...] = ()
    caption: str = ""       # what the overlay shows, written under the legend
    shade_unit: str = "MP"  # what a shade's cost counts, for the legend
    glyphs: tuple[Glyph, ...] = ()


@dataclass(frozen=True, slots=True)
class Picture(Generic[B]):
    """A ruleset's picture: ``overlay`` is its overlay model (every field optional),
    ``scene(board, overlay, action)`` describes the compiled board with that overlay (None
    when the request has none) and that proposed action (None when none was sent; its
    violations are marked by ``render``), ``examples`` are render requests to paste."""

    overlay: type[BaseModel]
    scene: Callable[[B, Any, Any], Scene]
    examples: Sequence[Mapping[str, Any]] = ()


@contextmanager
def within(*root: str | int) -> Iterator[None]:
    """Problems raised inside the block (an overlay naming an unknown army, say) get their
    pointers moved under ``root`` (``/overlay/reachable``), where the request has them;
    the state's own problems (``/state/...``) keep theirs."""
    try:
        yield
    except InvalidInput as exc:
        prefix = pointer(*root)
        raise InvalidInput(
            p if p.pointer.startswith("/state") else Problem(prefix + p.pointer, p.detail)
            for p in exc.problems) from None
