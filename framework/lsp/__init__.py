"""The language server for plyspec specs (`plyspec lsp`): `analysis` computes diagnostics
and the name index of one document with the same front-ends and checker the CLI uses,
`planning` indexes planning files (YAML, `.plan`, PDDL), `vocabulary` holds the words an
editor offers, `server` speaks LSP through pygls."""
