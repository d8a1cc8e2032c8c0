"""The operator's model judge as data: what the dashboard server reads from its settings
(`settings.operator_judge_settings`) and sends to the upload worker, so that the worker
asks the same model at the same address with the same key the server would
(docs/dashboard.md, "Uploads in a worker process").

The key itself is never part of the data: only the name of the server's environment
variable the operator named for it (`judge_api_key_env`), read where the judge is built.
The worker is the server's child, started with that one variable of the server's
environment (`upload_client.worker_environment`), so it sends the judge's address the
key the server would send there and no other. No Streamlit here
(the worker imports it).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from repair_core.judge import ModelJudge

__all__ = ["NO_KEY", "JudgeSettings"]

NO_KEY = "dgrr-no-key"
"""The key sent to an address that was given no key of the server's: a placeholder, so
that the model client does not send `$OPENAI_API_KEY` there on its own."""


class JudgeSettings(BaseModel):
    """The model judge the operator set (`[dgrr] judge` and its companions)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str
    """The litellm model string (`judge`, `$DGRR_JUDGE`)."""
    api_base: str | None = None
    """Where its calls go (`judge_api_base`, `$DGRR_JUDGE_API_BASE`); None: the provider's
    own address."""
    api_key_env: str | None = None
    """The name of the server's environment variable whose value is sent as the key
    (`judge_api_key_env`); never the value."""
    budget: int
    """Model calls one content check makes at most (`judge_budget`)."""
    untrusted: bool = False
    """Also ask about every text written after a fault whose lineage reaches an untrusted
    input (`judge_untrusted`, as `--judge-untrusted`)."""

    @property
    def name(self) -> str:
        """The judge's name in a check's verdicts (`ModelJudge.name`)."""
        return f"model:{self.model}"

    def model_judge(self) -> ModelJudge:
        """The judge these settings describe, with the key the operator named for its
        address (a placeholder when an `api_base` was given none), each call bounded as
        every model call of dgrr is (`guarded_call`)."""
        from repair_core.judge import ModelJudge
        from repair_core.model._bounded import guarded_call

        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if self.api_base and not key:
            key = NO_KEY  # the server's $OPENAI_API_KEY is never sent to an address it names
        return ModelJudge(self.model, api_base=self.api_base, api_key=key,
                          budget=self.budget, guard=guarded_call, untrusted=self.untrusted)
