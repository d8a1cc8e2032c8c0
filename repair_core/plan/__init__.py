"""Stage 3, plan: the fixed rules for the store and the trajectory (`_plan`), reviewer
edits (`_edit`), the operations an external runtime executes (`_ops`) and the plan as
them (`_plan_ops`), and the columnar planner for large cases (`_columnar_plan`, chosen by
`_planner`). The imports go one way: `_ops` <- `_plan` <- `_plan_ops`.

The pipeline, folder by folder: `case` → `graph` → `analysis` → `plan` → `replay`.
"""
