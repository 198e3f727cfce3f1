"""Measuring code shared by ``goat bench`` and the scripts in ``benchmarks/``.

Every figure is printed next to a baseline measured in the same run, because
the machines these run on are shared and noisy: compare ratios, not times.
"""
