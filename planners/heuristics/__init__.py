"""Heuristics of a grounded task: the delete relaxation (`relaxation`: h_max, h_add,
h_FF, their preferred operators and the relaxed operators the others build on) and
landmark-cut (`lmcut`)."""
