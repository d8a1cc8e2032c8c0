"""The offline reference model's name, read by the model layer (which answers for it) and
by the gate (which repairs a result of it again, `gate.replay-recomputed`)."""

REFERENCE_MODEL = "dgrr/reference"
"""Built in, offline, deterministic: the same prompt gets the same reply every time."""
