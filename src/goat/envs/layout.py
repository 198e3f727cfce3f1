"""Fixed-size observation tensors with named fields.

An observation is one flat ``float32`` vector so that any learning library can
take it, but every slice of it has a name, a shape and a one-line meaning.
:class:`Layout` is that table: encoders write through named views of the
vector, the docs list the fields from it, and OpenSpiel's observer exposes the
same names as its ``dict``.

>>> layout = Layout([Field("hand", (32,), "own hand"), Field("stock", (1,), "stock size / 16")])
>>> layout.size, layout.offset("stock")
(33, 32)
>>> vec = layout.zeros()
>>> layout.views(vec)["hand"][3] = 1.0
>>> float(vec[3])
1.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Field:
    """One named slice of an observation: its shape and what its values mean."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Layout:
    """An ordered list of fields laid out one after another in a flat vector."""

    def __init__(self, fields: Iterable[Field]) -> None:
        self.fields: tuple[Field, ...] = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate field names in {names}")
        self._offsets: dict[str, int] = {}
        offset = 0
        for f in self.fields:
            self._offsets[f.name] = offset
            offset += f.size
        self.size = offset

    def __add__(self, other: Layout) -> Layout:
        return Layout(self.fields + other.fields)

    def offset(self, name: str) -> int:
        return self._offsets[name]

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views into ``vector`` (writing to them writes the vector)."""
        return {f.name: vector[self._offsets[f.name]:self._offsets[f.name] + f.size].reshape(f.shape)
                for f in self.fields}

    def markdown(self) -> str:
        """The fields as a Markdown table (offset, name, shape, meaning)."""
        rows = ["| offset | field | shape | meaning |", "| ---: | --- | --- | --- |"]
        for f in self.fields:
            shape = "×".join(map(str, f.shape))
            rows.append(f"| {self._offsets[f.name]} | `{f.name}` | {shape} | {f.doc} |")
        return "\n".join(rows)
