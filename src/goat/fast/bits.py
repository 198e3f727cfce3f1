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

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_NOT_POISON = ir.Constant(ir.IntType(1), 0)  # defined for 0 as well (= the width)


def _integer(x: types.Type) -> types.Integer | None:
    ty = types.unliteral(x)
    return ty if isinstance(ty, types.Integer) else None


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of ``x`` (LLVM ``ctpop``)."""
    ty = _integer(x)
    if ty is None:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(context.cast(builder, args[0], signature.args[0], ty))

    return ty(ty), codegen


@intrinsic
def lowest_bit_index(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero ``x`` (LLVM ``cttz``)."""
    ty = _integer(x)
    if ty is None:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(context.cast(builder, args[0], signature.args[0], ty), _NOT_POISON)

    return ty(ty), codegen


@intrinsic
def highest_bit_index(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit of a non-zero ``x`` (``width - 1 - ctlz``)."""
    ty = _integer(x)
    if ty is None:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        value = context.cast(builder, args[0], signature.args[0], ty)
        lz = builder.ctlz(value, _NOT_POISON)
        return builder.sub(ir.Constant(value.type, ty.bitwidth - 1), lz)

    return ty(ty), codegen
