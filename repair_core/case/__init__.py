"""Read the case (before stage 1): the `dgrr.case/v1` model (`_case`), the strict loader
and its cross-reference checks (`_load`, `_json`), the same loader reading the long lists
a chunk of items at a time (`_chunked`, what the commands read a case file with), the
bounded streaming validator (`_stream`), and the columnar reader that large cases take
(`_columns`).

The pipeline, folder by folder: `case` → `graph` → `analysis` → `plan` → `replay`.
"""
