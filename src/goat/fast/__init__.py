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
``solver_search``, a known numba limitation): a ``git pull`` that changed only
``solver_core`` would leave the old solver running. So importing this package
first drops the cached kernels whenever any source file here changed
(:func:`drop_stale_kernels`); a fresh clone (CI) compiles from scratch anyway.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: The stamp beside numba's cache files: a digest of the sources they were built from.
STAMP = "goat-kernels.stamp"


def drop_stale_kernels(package: Path) -> bool:
    """Delete numba's cache files (``*.nbi``, ``*.nbc``) in ``package/__pycache__``
    unless they were built from the package's current sources, and stamp them.

    Numba checks only the timestamp of the file that *defines* a cached kernel,
    not of the modules it inlines from, so a digest of every ``*.py`` here is
    the key. Returns whether files were dropped. An unwritable install (numba
    then caches elsewhere) is left alone: the stamp is best effort.
    """
    sources = sorted(package.glob("*.py"))
    digest = hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in sources)).hexdigest()
    cache = package / "__pycache__"
    stamp = cache / STAMP
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    try:
        stale = [*cache.glob("*.nbi"), *cache.glob("*.nbc")]
        for path in stale:
            path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        return False
    return bool(stale)


drop_stale_kernels(Path(__file__).parent)
