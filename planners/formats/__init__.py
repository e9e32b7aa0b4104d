"""The planning formats: readers into the lifted problem (`planners.lifted`) and printers
out of it, each grammar beside its parser.

- PDDL: `pddl` (the Lark importer, `pddl.lark`; its formula and effect half `pddl_adl`),
  `pddl_reader` (the Lark-free fast path), `pddl_alone` (one file checked on its own),
  `pddl_names` (the name index the language server reads), `export` (a problem as PDDL);
- YAML planning specs: `yaml_spec`, `yaml_adl`, `yaml_items` (`planning_spec.lark`);
- `.plan` text: `plan_text` (`plan_format.lark`);
- printers and conversion: `print_yaml`, `print_plan`, `spec_outline`, `convert`.
"""
