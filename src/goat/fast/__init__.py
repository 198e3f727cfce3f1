"""Fast paths: numba kernels checked against the pure engine, never the other way round.

* :mod:`goat.fast.encoding` — cards as bit indices and per-deal strength tables.
* :mod:`goat.fast.sim` (kernels in ``sim_kernel``, ``sim_street``) — the batch
  random-playout simulator, tested step for step against :mod:`goat.games.kozel`.
* :mod:`goat.fast.solver` (``solver_core``, ``solver_search``) — the double-dummy
  solver for single-card Kozel with every card known.
* :mod:`goat.fast.solver_plain` — the same solver kernel on plain trick-taking
  deals (tricks, or card points), to compare it with DDS on DDS's own deals.

The kernels are compiled with ``cache=True``. Numba does not notice when a module
that a cached kernel *inlines from* changes (e.g. ``solver_core`` under
``solver_search``): after editing such a module, delete the ``*.nbi``/``*.nbc``
files in ``src/goat/fast/__pycache__``. A fresh clone (CI) compiles from scratch.
"""
