"""Splitting hidden cards between two piles whose point totals are public.

When a street deal ends, its points are public (the deal's result), but the
cards passed face down are not: a world drawn for a seat after the deal must
put the unseen cards into the two teams' piles so that the totals come out as
announced. Rejecting the worlds that miss them is hopeless (measured: about one
world in a thousand fits in some views), so the world sampler draws the split
directly: uniformly among the subsets of the unseen cards of the right size
and point total, counted by point value (a deck has six values).

>>> count_splits((0, 0, 10, 11), 2, 10)      # {a zero, the ten}: two ways
2
>>> import random
>>> chosen = sample_split(random.Random(1), [0, 0, 10, 11], 2, 10)
>>> sorted([0, 0, 10, 11][i] for i in chosen)
[0, 10]
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache


def _groups(values: list[int] | tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(point value, how many cards have it), in a fixed order."""
    return tuple(sorted(Counter(values).items()))


@lru_cache(maxsize=1 << 14)
def _count(groups: tuple[tuple[int, int], ...], size: int, total: int) -> int:
    """Subsets of ``size`` cards worth ``total`` points, cards of one value told apart."""
    if not groups:
        return 1 if size == 0 and total == 0 else 0
    (value, have), rest = groups[0], groups[1:]
    ways = 0
    for take in range(min(have, size) + 1):
        left = total - take * value
        if left < 0:
            break
        ways += math.comb(have, take) * _count(rest, size - take, left)
    return ways


def count_splits(values: list[int] | tuple[int, ...], size: int, total: int) -> int:
    """In how many ways ``size`` of the cards worth ``values`` points make ``total``."""
    if size < 0 or total < 0 or size > len(values):
        return 0
    return _count(_groups(values), size, total)


def sample_split(rng: random.Random, values: list[int], size: int, total: int) -> list[int]:
    """The positions in ``values`` of ``size`` cards worth ``total`` points,
    every such subset equally likely. Raises ``ValueError`` when none exists."""
    groups = _groups(values)
    if count_splits(values, size, total) == 0:
        raise ValueError(f"no {size} of the cards make {total} points")
    chosen: list[int] = []
    for g, (value, have) in enumerate(groups):
        rest = groups[g + 1:]
        options = []
        for take in range(min(have, size) + 1):
            left = total - take * value
            if left < 0:
                break
            ways = math.comb(have, take) * _count(rest, size - take, left)
            if ways:
                options.append((take, ways))
        pick = rng.randrange(sum(w for _, w in options))
        for take, ways in options:
            if pick < ways:
                break
            pick -= ways
        positions = [i for i, v in enumerate(values) if v == value]
        chosen += rng.sample(positions, take)
        size -= take
        total -= take * value
    return chosen
