"""Kozel engine speed next to a same-run baseline (see benchmarks/README.md).

    .venv/bin/python benchmarks/engine.py [--seconds 2] [--rules all]

The same as ``goat bench engine``; the measuring code is ``goat.bench.engine``.
"""

import sys

from goat.bench.engine import main

if __name__ == "__main__":
    sys.exit(main())
