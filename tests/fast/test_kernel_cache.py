"""Numba's cached kernels are dropped when a module they inline from changes
(numba itself checks only the defining file's timestamp)."""

from __future__ import annotations

from pathlib import Path

from goat.fast import STAMP, drop_stale_kernels


def test_cached_kernels_are_dropped_when_any_source_of_the_package_changes(tmp_path: Path) -> None:
    core, search = tmp_path / "core.py", tmp_path / "search.py"
    core.write_text("X = 1\n")
    search.write_text("from core import X\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    kernel = [cache / "search.search-10.py311.nbi", cache / "search.search-10.py311.1.nbc"]
    for path in kernel:
        path.write_bytes(b"old")
    assert drop_stale_kernels(tmp_path)                  # no stamp yet: whatever is cached is unknown
    assert not any(p.exists() for p in kernel) and (cache / STAMP).exists()
    for path in kernel:                                  # numba compiles and caches again
        path.write_bytes(b"new")
    assert not drop_stale_kernels(tmp_path)              # the same sources: the cache stays
    assert all(p.read_bytes() == b"new" for p in kernel)
    core.write_text("X = 2\n")                           # only the inlined-from module changes
    assert drop_stale_kernels(tmp_path)
    assert not any(p.exists() for p in kernel)


def test_the_package_stamps_its_own_kernel_cache() -> None:
    import goat.fast

    package = Path(goat.fast.__file__).parent
    assert (package / "__pycache__" / STAMP).exists()
    assert not drop_stale_kernels(package)               # stamped at import, from these sources
