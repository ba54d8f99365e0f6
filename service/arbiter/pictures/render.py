"""The ``render`` query: a picture of a state, served at
``POST /v1/rulesets/{id}/render`` with ``{state, overlay?}`` and as the ``render`` field
of the ruleset's GraphQL questions, answering ``{svg, width, height}``.

It is an ordinary derived ``Query`` (cached, bounded by the service's limits and compute
budget like the others), built for any ruleset from its ``Picture``: ``pictured(ruleset,
picture)`` returns the ruleset with ``render`` among its queries. The overlay is the
ruleset's own overlay model plus ``action``, present for every ruleset: the proposed
action is drawn by the ruleset's scene, judged by the ruleset's ``validate``, and each
violation marked where it occurs (its hex, region, piece or step).

A picture is bounded (``MAX_CELLS`` hexes, ``MAX_NODES`` areas, ``MAX_PIECES`` pieces):
a state over a bound is a 422 problem at ``/state`` naming the limit, since an SVG of
tens of thousands of hexes helps nobody and costs megabytes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, Field, create_model

from arbiter.engine.errors import InvalidInput, Problem
from arbiter.engine.legal import Seated, action_union, pascal
from arbiter.engine.outcome import Outcome
from arbiter.engine.ruleset import Query, Ruleset
from arbiter.engine.wire import Frozen
from arbiter.pictures.draw import draw, mark_place
from arbiter.pictures.scene import Mark, Picture, Scene, within

MAX_CELLS = 5_000
MAX_NODES = 600
MAX_PIECES = 5_000
LIMITS = (("cells", "hexes", MAX_CELLS), ("nodes", "areas", MAX_NODES),
          ("pieces", "pieces", MAX_PIECES))


class RenderedPicture(Frozen):
    """A picture of a state."""

    svg: str = Field(description="An SVG document (no XML declaration): the board, the "
                     "overlay, a legend, and <title>/<desc> on the picture and each piece.")
    width: int = Field(description="Its width in px (also in its viewBox).")
    height: int = Field(description="Its height in px.")


AnyRuleset = Ruleset[Any, Any, Any]
S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
B = TypeVar("B", bound=Seated)


def pictured(ruleset: Ruleset[S, A, B], picture: Picture[B]) -> Ruleset[S, A, B]:
    """``ruleset`` answering ``render`` with ``picture`` besides its own queries: what a
    ruleset's ``ruleset.py`` serves when it has a ``scene.py``."""
    queries = {**ruleset.queries, "render": render_query(ruleset, picture)}
    return dataclasses.replace(ruleset, queries=queries)


def request_models(ruleset: AnyRuleset, picture: Picture[Any]) -> tuple[type[BaseModel],
                                                                         type[BaseModel]]:
    """The render request model and its overlay model, named after the ruleset."""
    prefix = pascal(ruleset.id)
    action: Any = action_union(ruleset.action_model) | None
    overlay = create_model(
        f"{prefix}RenderOverlay", __base__=picture.overlay,
        action=(action, Field(default=None, description="A proposed action: drawn as "
                              "arrows, judged, and each violation marked where it occurs.")))
    optional_overlay: Any = overlay | None
    request = create_model(
        f"{prefix}RenderRequest", __base__=Frozen,
        state=(ruleset.state_model, ...),
        overlay=(optional_overlay, Field(default=None, description="What to draw over the "
                                         "board; the board alone when omitted.")))
    return request, overlay


@dataclasses.dataclass(frozen=True, slots=True)
class Painter:
    """What answers a render request: the state's scene drawn and a proposed action
    judged by ``outcome_of`` (the ruleset's ``validate`` unless given: a service that
    conceals part of a verdict, as a sealed game's, judges it as it answers validate)."""

    ruleset: AnyRuleset
    picture: Picture[Any]
    outcome_of: Callable[[Any, Any], Outcome] | None = None

    def __call__(self, req: Any) -> RenderedPicture:
        board = self.ruleset.compile(req.state)
        overlay = req.overlay
        action = overlay.action if overlay is not None else None
        with within("overlay"):
            scene = self.picture.scene(board, overlay, action)
        check_size(scene)
        if action is not None:
            with within("overlay"):
                outcome = (self.outcome_of or self.ruleset.validate)(req.state, action)
            scene = judged(scene, outcome)
        drawing = draw(scene)
        return RenderedPicture(svg=drawing.svg, width=drawing.width, height=drawing.height)

    def judging_by(self, outcome_of: Callable[[Any, Any], Outcome]) -> Painter:
        return dataclasses.replace(self, outcome_of=outcome_of)


def render_query(ruleset: AnyRuleset, picture: Picture[Any]) -> Query:
    request, _ = request_models(ruleset, picture)
    run = Painter(ruleset, picture)
    return Query(name="render",
                 summary="A picture of the state as SVG: the board, pieces with owner colours "
                         "and counts, a legend; optionally an overlay (reachable places "
                         "shaded by cost with one path, conquest costs, a resolved turn's "
                         "trace, or a proposed action as arrows with its violations marked "
                         "where they occur), as the ruleset's overlay model offers.",
                 request=request, response=RenderedPicture, run=run,
                 examples=tuple(picture.examples))


def check_size(scene: Scene) -> None:
    for attribute, what, limit in LIMITS:
        count = len(getattr(scene, attribute))
        if count > limit:
            raise InvalidInput([Problem("/state", f"this state makes a picture of {count} "
                                        f"{what}; a picture shows at most {limit} (the "
                                        f"render limit on {what})")])


def judged(scene: Scene, outcome: Outcome) -> Scene:
    """The scene with the action's verdict: each violation marked at its place (after the
    marks the scene's own overlay made, if any), and the verdict in the caption."""
    marks = tuple(
        Mark(at=mark_place(scene, v.at.hex.key if v.at.hex else None, v.at.region,
                           v.at.piece, v.at.step),
             code=v.code, rule=v.rule, message=v.message, severity=v.severity)
        for v in outcome.violations)
    verdict = ("the action is legal" if outcome.legal
               else f"the action is illegal: {len(marks)} violation(s)")
    caption = f"{scene.caption}; {verdict}" if scene.caption else verdict
    return dataclasses.replace(scene, marks=(*scene.marks, *marks), caption=caption)
