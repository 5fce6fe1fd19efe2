"""Benchmarks: `make bench` runs every game's figures beside their baselines, in one process."""
