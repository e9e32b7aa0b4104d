"""From the lifted problem to the grounded task the searchers run on: normalisation into
conjunctive schemas (`normalise`), relaxed reachability (`reachability`), instantiation
(`ground`), the compact task itself (`task`: facts as bits of an int, operators as masks),
its derived facts (`axioms`) and its successor generator (`successors`)."""
