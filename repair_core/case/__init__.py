"""Read the case (before stage 1): the `dgrr.case/v1` model (`_case`), the strict loader
and its cross-reference checks (`_load`, `_json`), the bounded streaming validator
(`_stream`), and the columnar reader that large cases take (`_columns`).

The pipeline, folder by folder: `case` → `graph` → `analysis` → `plan` → `replay`.
"""
