"""Stage 3, plan: the fixed rules for the store and the trajectory (`_plan`), reviewer
edits (`_edit`), the plan as ordered operations an external runtime executes (`_ops`),
and the columnar planner for large cases (`_columnar_plan`, chosen by `_planner`).

The pipeline, folder by folder: `case` → `graph` → `analysis` → `plan` → `replay`.
"""
