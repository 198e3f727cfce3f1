"""Fast paths: numba kernels checked against the pure engine, never the other way round.

* :mod:`goat.fast.encoding` — cards as bit indices and per-deal strength tables.
"""
