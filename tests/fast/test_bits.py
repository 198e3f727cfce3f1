"""The bit intrinsics of :mod:`goat.fast.bits` against Python's own integer
operations, for the signed and unsigned 64-bit masks the kernels use."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from goat.fast.bits import highest_bit_index, lowest_bit_index, popcount


@njit(cache=False)
def _signed(x: np.int64) -> tuple:
    return popcount(x), lowest_bit_index(x), highest_bit_index(x)


@njit(cache=False)
def _unsigned(x: np.uint64) -> tuple:
    return popcount(x), lowest_bit_index(x), highest_bit_index(x)


@settings(deadline=None)
@given(st.integers(1, 2**63 - 1))
def test_signed_masks(x: int) -> None:
    assert _signed(np.int64(x)) == (x.bit_count(), (x & -x).bit_length() - 1, x.bit_length() - 1)


@settings(deadline=None)
@given(st.integers(1, 2**64 - 1))
def test_unsigned_masks(x: int) -> None:
    assert _unsigned(np.uint64(x)) == (x.bit_count(), (x & -x).bit_length() - 1, x.bit_length() - 1)


def test_zero_has_no_bits() -> None:
    # defined (not undefined behaviour) for 0: the count is 0, the "lowest" index is the width
    assert _signed(np.int64(0))[0] == 0 and _signed(np.int64(0))[1] == 64
    assert _unsigned(np.uint64(0))[0] == 0


def test_the_result_keeps_the_argument_type() -> None:
    @njit(cache=False)
    def kinds(a: np.int64, b: np.uint64) -> tuple:
        return popcount(a) - 1, popcount(b)

    minus, count = kinds(np.int64(0), np.uint64(3))
    assert minus == -1 and count == 2   # signed stays signed, unsigned stays unsigned
