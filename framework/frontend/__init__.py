"""Front-ends: YAML specs and the `.game` grammar, both producing framework.ast."""
