from hypothesis import given
from hypothesis import strategies as st

from arbiter.engine.hexgrid import (
    DIRECTIONS,
    distance,
    neighbours,
    ring,
    rotate,
    spiral,
)

coord = st.integers(-50, 50)
hexes = st.tuples(coord, coord)


def test_neighbours_are_listed_e_ne_nw_w_sw_se() -> None:
    assert neighbours((0, 0)) == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


@given(hexes, hexes)
def test_distance_is_symmetric(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: tuple[int, int], b: tuple[int, int],
                                                c: tuple[int, int]) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbours_lie_at_distance_one(h: tuple[int, int]) -> None:
    assert all(distance(h, n) == 1 for n in neighbours(h))
    assert len(set(neighbours(h))) == 6


@given(hexes, hexes)
def test_six_rotations_are_the_identity(h: tuple[int, int], center: tuple[int, int]) -> None:
    assert rotate(h, center, 6) == h
    assert rotate(rotate(h, center, 2), center, 4) == h


@given(hexes, hexes, st.integers(0, 5))
def test_rotation_keeps_distance_to_the_centre(h: tuple[int, int], center: tuple[int, int],
                                              k: int) -> None:
    assert distance(rotate(h, center, k), center) == distance(h, center)


def test_rotation_turns_east_to_north_east() -> None:
    assert rotate((1, 0), (0, 0), 1) == DIRECTIONS[1]
    assert [rotate((1, 0), (0, 0), k) for k in range(6)] == list(DIRECTIONS)


@given(hexes, st.integers(0, 6))
def test_ring_holds_the_hexes_at_exactly_radius(center: tuple[int, int], radius: int) -> None:
    found = ring(center, radius)
    assert len(found) == max(1, 6 * radius)
    assert len(set(found)) == len(found)
    assert all(distance(center, h) == radius for h in found)


@given(hexes, st.integers(0, 5))
def test_spiral_is_every_hex_within_radius(center: tuple[int, int], radius: int) -> None:
    within = {(center[0] + dq, center[1] + dr) for dq in range(-radius, radius + 1)
              for dr in range(-radius, radius + 1) if distance((0, 0), (dq, dr)) <= radius}
    assert set(spiral(center, radius)) == within
    assert len(spiral(center, radius)) == 3 * radius * (radius + 1) + 1
