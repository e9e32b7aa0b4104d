"""The lifted planning problem, whatever format it came from: its AST (`ast`: types,
objects, predicates, actions, initial state, goal, each node with its position), the ADL
formulas and their normal forms (`formula`), the static checks shared by every front-end
(`check`), and the validation of a plan against the problem's own semantics (`validate`),
independent of grounding and search."""
