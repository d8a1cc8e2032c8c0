"""Stage 2, analyse: seeds, the affected set, independent support and answer relevance
(`_analysis`), and the text a fault carried into other inputs (`_carry`).

The pipeline, folder by folder: `case` → `graph` → `analysis` → `plan` → `replay`.
"""
