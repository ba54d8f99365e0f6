"""The label placer's promise, whatever is in the way: each label lands where its box meets
nothing taken before it (pieces, earlier labels), never left of or above the picture, and
the same boxes always give the same places."""

from __future__ import annotations

import random

from arbiter.pictures.boxes import Box
from arbiter.pictures.placing import Label, Placer


def crowd(seed: int) -> tuple[list[Box], list[Label]]:
    """Pieces scattered over a 300 px square, thick in its middle, and labels whose every
    spot lies on one."""
    rng = random.Random(seed)
    pieces = [Box(x, y, x + rng.uniform(4, 30), y + rng.uniform(4, 30))
              for x, y in ((rng.uniform(0, 300), rng.uniform(0, 300)) for _ in range(150))]
    pieces += [Box(120, 120, 180, 180)]
    labels = [Label(Box(-rng.uniform(3, 20), -8, rng.uniform(3, 20), 4),
                    [((p.left + p.right) / 2, (p.top + p.bottom) / 2)
                     for p in rng.sample(pieces, 3)]) for _ in range(120)]
    return pieces, labels


def test_every_label_lands_clear_of_what_was_taken_before_it() -> None:
    for seed in range(5):
        pieces, labels = crowd(seed)
        placer = Placer(pieces)
        taken = list(pieces)
        for label in labels:
            x, y = placer.place(label)
            box = label.box.moved(x, y)
            assert box.left >= 0 and box.top >= 0
            assert not [other for other in taken if box.meets(other)], (seed, box)
            taken.append(box)
        assert placer.right >= max(b.right for b in taken)
        assert placer.bottom >= max(b.bottom for b in taken)


def test_a_label_whose_spot_is_free_takes_it() -> None:
    placer = Placer([Box(0, 0, 10, 10)])
    assert placer.place(Label(Box(-2, -2, 2, 2), [(5, 5), (20, 20)])) == (20, 20)
    assert placer.place(Label(Box(-2, -2, 2, 2), [(40, 40)])) == (40, 40)


def test_the_same_boxes_give_the_same_places() -> None:
    pieces, labels = crowd(7)
    first, again = Placer(pieces), Placer(pieces)
    assert [first.place(lb) for lb in labels] == [again.place(lb) for lb in labels]
