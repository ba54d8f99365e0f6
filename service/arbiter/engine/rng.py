"""Seeded, reproducible random draws whose whole state fits in one integer.

Digital mode needs draws that the same request always repeats and that a client can
carry in the game state between requests. The generator is SplitMix64: its state is a
single 64-bit integer, every draw advances it, and the advanced value goes back into
the returned game state. Never the process-global ``random`` module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


class SeededRng:
    """A SplitMix64 generator. ``state`` is the value to store back into the game state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def roll(self, faces: Sequence[T]) -> T:
        return faces[self.below(len(faces))]
