"""Fast paths: numba kernels checked against the pure engine, never the other way round.

* :mod:`goat.fast.encoding` — cards as bit indices and per-deal strength tables.
* :mod:`goat.fast.sim` (kernels in ``sim_kernel``, ``sim_street``) — the batch
  random-playout simulator, tested step for step against :mod:`goat.games.kozel`.
* :mod:`goat.fast.solver` (``solver_core``, ``solver_search``) — the double-dummy
  solver for single-card Kozel with every card known.
"""
