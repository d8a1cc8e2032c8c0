"""What a fault says, as evidence: a diagnosed fault's *content signature* (its distinctive
tokens, slot key/value, word shingles and instruction markers, `_signature`) and the
scorer that tells whether any text or JSON value carries it (`_match`), built from the
token finders (`_tokens`), the instruction markers (`_markers`), the shingles
(`_shingles`) and the flattening of JSON values to text (`_flatten`); and whether a text
states a fact, normalised as the benchmark's oracle reads it (`_normalise`).

A low layer: it reads the case model only, so the planners, the replay's verification and
the benchmark can all judge content by the same rule.
"""

from .._flat import node_content
from ._amounts import amounts
from ._flatten import flatten
from ._markers import MARKERS, MarkerKind, instruction_markers
from ._match import MAX_CLUES, SOURCE_THRESHOLD, THRESHOLD, WEIGHTS, CarrierMatch, match, scan
from ._normalise import all_facts_stated, fact_stated, normalise
from ._quantities import Quantity, quantities
from ._shingles import SHINGLE_WORDS, shingles, words
from ._signature import (
    ContentSignature,
    node_parts,
    signature_of,
    signatures,
    signatures_from,
    vocabulary_texts,
)
from ._tokens import TokenKind, distinctive_tokens, proper_names

__all__ = [
    "MAX_CLUES",
    "amounts",
    "Quantity",
    "quantities",
    "flatten",
    "MARKERS",
    "MarkerKind",
    "instruction_markers",
    "THRESHOLD",
    "SOURCE_THRESHOLD",
    "WEIGHTS",
    "CarrierMatch",
    "match",
    "normalise",
    "fact_stated",
    "all_facts_stated",
    "scan",
    "SHINGLE_WORDS",
    "shingles",
    "words",
    "ContentSignature",
    "node_content",
    "node_parts",
    "signatures_from",
    "vocabulary_texts",
    "signature_of",
    "signatures",
    "TokenKind",
    "distinctive_tokens",
    "proper_names",
]
