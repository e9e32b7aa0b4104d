"""Planner configurations: a searcher of `framework/search/` with fixed heuristics, run
by name like a searcher (`lama`: `lama-first`; `lama_anytime`: `lama`, LAMA 2011's
anytime iterations)."""
