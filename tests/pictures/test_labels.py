"""No label lies under or over a piece: in every picture the tests draw (each ruleset's
render examples, the golden cases of test_render.py and the crowded requests of
crowded.py), the box of every label — an area's name, a cost, a step's number, a note, a
violation's number — meets the box of no piece on the board.

The boxes are read from the SVG alone (a shape's geometry and stroke; a text's box from
the font metrics in ``arbiter.pictures.boxes``, which the browser test checks against
Chromium's own ``getBBox()``), not from the drawing's placement, so a placement that
forgets a piece or a label fails here."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from arbiter.pictures.boxes import Box, disc, text_box
from pictures.crowded import CROWDED
from pictures.test_render import CASES, REGISTRY, pictured_rulesets, render, ruleset

SVG = "{http://www.w3.org/2000/svg}"


def classes(e: ET.Element) -> list[str]:
    return (e.get("class") or "").split()


def number(e: ET.Element, name: str) -> float:
    return float(e.get(name) or 0)


def stroke(e: ET.Element) -> float:
    return number(e, "stroke-width") if e.get("stroke") not in (None, "none") else 0.0


def shape(e: ET.Element) -> Box | None:
    """The box an element covers, its stroke included; None for what draws nothing."""
    tag = e.tag.removeprefix(SVG)
    half = stroke(e) / 2
    if tag == "circle":
        return disc(number(e, "cx"), number(e, "cy"), number(e, "r")).grown(half)
    if tag == "rect":
        x, y = number(e, "x"), number(e, "y")
        return Box(x, y, x + number(e, "width"), y + number(e, "height")).grown(half)
    if tag == "polygon":
        points = [tuple(map(float, p.split(","))) for p in (e.get("points") or "").split()]
        return Box(min(p[0] for p in points), min(p[1] for p in points),
                   max(p[0] for p in points), max(p[1] for p in points)).grown(half)
    if tag == "text":
        halo = stroke(e) if e.get("paint-order") == "stroke" else 0.0
        return text_box(e.text or "", number(e, "x"), number(e, "y"),
                        number(e, "font-size"), e.get("text-anchor") or "start", halo)
    return None


def union(parts: list[Box]) -> Box:
    box = parts[0]
    for part in parts[1:]:
        box = box.union(part)
    return box


def drawn(group: ET.Element, *, rings: bool = True) -> Box:
    """The box of what a group draws (without a mark's ring round its place when
    ``rings`` is False: the ring is no label, its numbered badge is)."""
    parts = [b for e in group.iter() if (b := shape(e)) is not None
             and (rings or not (e.tag == SVG + "circle" and e.get("fill") == "none"))]
    return union(parts)


def layer(root: ET.Element, name: str) -> ET.Element:
    [found] = [e for e in root if e.tag == SVG + "g" and classes(e) == [name]]
    return found


def pieces(root: ET.Element) -> Iterator[tuple[str, Box]]:
    for piece in layer(root, "pieces"):
        yield piece.get("data-piece") or "", drawn(piece)


def labels(root: ET.Element) -> Iterator[tuple[str, Box]]:
    """Every label on the board: areas' names, costs, steps' numbers, notes, violations'
    numbers."""
    for node in layer(root, "board"):
        if "node" in classes(node):
            for text in node.iter(SVG + "text"):
                yield f"name of {node.get('data-node')}", drawn(text)
    labelled = layer(root, "labels")
    for e in labelled.iter():
        kind = classes(e)
        if kind and kind[0] in ("cost", "step", "note"):
            yield f"{kind[0]} at {e.get('data-at')}", drawn(e)
    for mark in layer(root, "marks"):
        yield f"mark {mark.get('data-code')} at {mark.get('data-at')}", drawn(mark, rings=False)


def overlaps(svg: str) -> tuple[list[str], int, int]:
    """What overlaps (label, piece), and how many labels and pieces were checked."""
    root = ET.fromstring(svg)
    placed = list(pieces(root))
    written = list(labels(root))
    found = [f"{label} {lbox} meets piece {piece} {pbox}"
             for label, lbox in written for piece, pbox in placed if lbox.meets(pbox)]
    return found, len(written), len(placed)


def requests() -> list[tuple[str, str, dict[str, Any]]]:
    examples = [(r, f"example-{i}", dict(body)) for r in pictured_rulesets()
                for i, body in enumerate(ruleset(r).queries["render"].examples)]
    golden = [(r, f"golden-{name}", body) for r, name, body, _ in CASES]
    return [*examples, *golden, *CROWDED]


REQUESTS = requests()
COUNTS: dict[str, tuple[int, int]] = {}


@pytest.mark.parametrize(("ruleset_id", "name", "body"), REQUESTS,
                         ids=[f"{r}-{n}" for r, n, _ in REQUESTS])
def test_no_label_meets_a_piece(ruleset_id: str, name: str, body: dict[str, Any]) -> None:
    found, written, placed = overlaps(render(ruleset_id, body))
    COUNTS[f"{ruleset_id}-{name}"] = (written, placed)
    assert not found, "\n".join(found)


def test_every_pictured_ruleset_has_a_crowded_picture() -> None:
    pictured = {r.id for r in REGISTRY if "render" in r.queries}
    assert pictured <= {r for r, _, _ in CROWDED}


def test_the_crowded_pictures_crowd_pieces_and_labels() -> None:
    """Each crowded request puts several pieces on one place, or several labels on a
    place with a piece: otherwise it would prove nothing."""
    for ruleset_id, name, body in CROWDED:
        root = ET.fromstring(render(ruleset_id, body))
        at: dict[str, int] = {}
        for piece in layer(root, "pieces"):
            at[piece.get("data-at") or ""] = at.get(piece.get("data-at") or "", 0) + 1
        labelled: dict[str, int] = {}
        for e in root.iter():
            if classes(e)[:1] in (["cost"], ["step"], ["note"], ["mark"]):
                labelled[e.get("data-at") or ""] = labelled.get(e.get("data-at") or "", 0) + 1
        crowded = [p for p, n in at.items() if n >= 2 and labelled.get(p)]
        busy = [p for p, n in labelled.items() if n >= 2 and at.get(p)]
        assert crowded or busy, (ruleset_id, name, at, labelled)
