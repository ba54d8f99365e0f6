from hypothesis import given
from hypothesis import strategies as st

from arbiter.engine.rng import SeededRng


@given(st.integers(0, 2**64 - 1))
def test_same_seed_same_draws(seed: int) -> None:
    a, b = SeededRng(seed), SeededRng(seed)
    assert [a.below(6) for _ in range(20)] == [b.below(6) for _ in range(20)]
    assert a.state == b.state != seed


@given(st.integers(0, 2**64 - 1), st.integers(1, 1000))
def test_draws_stay_in_range(seed: int, n: int) -> None:
    rng = SeededRng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(10))


def test_resuming_from_the_stored_state_continues_the_sequence() -> None:
    rng = SeededRng(42)
    rng.below(10)
    resumed = SeededRng(rng.state)
    assert [rng.below(100) for _ in range(5)] == [resumed.below(100) for _ in range(5)]


def test_faces_are_all_reachable() -> None:
    rng = SeededRng(7)
    assert {rng.roll((0, 0, 0, 1, 2, 3)) for _ in range(200)} == {0, 1, 2, 3}
