"""Stage 1, build the graph: the typed dependency multigraph of a case (`build_graph`).

The pipeline, folder by folder: `case` → `graph` → `analysis` → `plan` → `replay`.
"""
