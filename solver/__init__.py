"""Game-independent engine: knowledge (CP-SAT), exact counts, puzzles, names, errors, reports."""
