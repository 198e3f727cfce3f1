"""``python -m goat ...``: the ``goat`` command without its installed script
(e.g. from a source tree with ``PYTHONPATH=src``)."""

from goat.cli.main import main

main()
