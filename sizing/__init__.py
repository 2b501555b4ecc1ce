"""Analytical performance model of distributed training on GPU clusters: pure Python and numpy."""
