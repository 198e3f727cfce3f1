"""Bit intrinsics shared by the numba kernels (simulator and solver).

Card sets are bitmasks, and the hot loops ask three questions of them: how many
cards (:func:`popcount`), the lowest card (:func:`lowest_bit_index`) and the
highest (:func:`highest_bit_index`). Numba has no portable built-in for them, so
these emit LLVM's ``ctpop`` / ``cttz`` / ``ctlz`` directly: one instruction each
(``popcnt``, ``tzcnt``, ``lzcnt``) on the x86-64 CPUs numba compiles for, where a
hand-written version costs a dozen operations, a table load or a ladder of
data-dependent branches. Each works on any integer type and returns that type.

>>> from numba import njit
>>> @njit
... def f(x):
...     return popcount(x), lowest_bit_index(x), highest_bit_index(x)
>>> f(0b101100)
(3, 2, 5)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_NOT_POISON = ir.Constant(ir.IntType(1), 0)  # defined for 0 as well (= the width)


def _integer(x: types.Type) -> types.Integer | None:
    ty = types.unliteral(x)
    return ty if isinstance(ty, types.Integer) else None


def _bit_intrinsic(name: str, doc: str, emit: Callable[[ir.IRBuilder, ir.Value, types.Integer], ir.Value]) -> Any:
    """A numba intrinsic ``name(x)`` for any integer ``x``, returning its type;
    ``emit(builder, value, type)`` writes the LLVM instruction(s)."""
    def typer(typingctx, x):  # type: ignore[no-untyped-def]
        ty = _integer(x)
        if ty is None:
            return None

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return emit(builder, context.cast(builder, args[0], signature.args[0], ty), ty)

        return ty(ty), codegen

    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


popcount = _bit_intrinsic(
    "popcount", "Number of set bits of ``x`` (LLVM ``ctpop``).",
    lambda builder, value, ty: builder.ctpop(value))

lowest_bit_index = _bit_intrinsic(
    "lowest_bit_index", "Index of the lowest set bit of a non-zero ``x`` (LLVM ``cttz``).",
    lambda builder, value, ty: builder.cttz(value, _NOT_POISON))

highest_bit_index = _bit_intrinsic(
    "highest_bit_index", "Index of the highest set bit of a non-zero ``x`` (``width - 1 - ctlz``).",
    lambda builder, value, ty: builder.sub(ir.Constant(value.type, ty.bitwidth - 1),
                                           builder.ctlz(value, _NOT_POISON)))
