"""Fact landmarks of the delete relaxation and their orderings (`graph`), and the
landmark-count heuristic LAMA searches with (`lmcount`)."""
