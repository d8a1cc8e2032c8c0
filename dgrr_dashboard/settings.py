"""What the operator of the dashboard decides, never a visitor: the approvals database, the
models a replay may call (each with its API base and the environment variable whose value
is sent there as the key) and the fleet result folder.

With sign-in configured (an `[auth]` section in Streamlit's secrets) the dashboard is
shared, and these come only from the server: the `[dgrr]` section of the same secrets
file, else the environment (`DGRR_DB`, `DGRR_FLEET_DIR`). Without sign-in the dashboard is
one person's, on loopback, and the pages let that person type them. Either way a typed API
base is never sent a key of the server's (`typed_model_client`). See docs/dashboard.md,
"Serving the dashboard to a team".
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import streamlit as st

from repair_core.model import REFERENCE_MODEL, ModelClient

from .identity import auth_configured
from .judge_settings import NO_KEY, JudgeSettings

if TYPE_CHECKING:
    from repair_core.approvals import ApprovalStore
    from repair_core.integrations.apply_result import ApplyTarget
    from repair_core.judge import ModelJudge

__all__ = ["NO_KEY", "ApprovalsLogSettings", "OfferedModel", "apply_target", "approvals_log",
           "approvals_log_settings", "offered_models", "operator_judge",
           "operator_judge_settings", "operator_setting", "shown_url", "team_mode",
           "trust_setting", "typed_model_client"]


@dataclass(frozen=True)
class OfferedModel:
    """A model the operator lets reviewers replay with."""

    model: str
    """The litellm model string, e.g. `openai/gpt-4o-mini`."""
    api_base: str | None = None
    """Where the calls go; None: the provider's own address."""
    api_key_env: str | None = None
    """The server environment variable whose value is sent as the key (None: no key of
    the operator's is sent to `api_base`; litellm's own variables for the provider's own
    address)."""

    @property
    def label(self) -> str:
        return self.model + (f" at {self.api_base}" if self.api_base else "")

    def client(self, *, timeout: float, deadline: float | None) -> ModelClient:
        """A client calling this model with the key the operator named for it."""
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if self.api_base and not key:
            key = NO_KEY  # else the client would send $OPENAI_API_KEY to the api_base
        return ModelClient(self.model, self.api_base, api_key=key, timeout=timeout,
                           deadline=deadline)


REFERENCE = OfferedModel(REFERENCE_MODEL)


def team_mode() -> bool:
    """True when the dashboard is shared: sign-in is configured."""
    return auth_configured()


def _section() -> dict[str, Any]:
    try:
        found = st.secrets.get("dgrr") if "dgrr" in st.secrets else None
    except Exception:  # no secrets file at all: Streamlit raises its own error type
        return {}
    return dict(found) if isinstance(found, dict) or hasattr(found, "items") else {}


def operator_setting(name: str, env: str | None = None) -> str | None:
    """The operator's value of `name`: `[dgrr] name` in the secrets, else `$env`."""
    value = _section().get(name)
    if value is None and env is not None:
        value = os.environ.get(env)
    text = str(value).strip() if value is not None else ""
    return text or None


def offered_models() -> tuple[list[OfferedModel], list[str]]:
    """The offline reference model, then every `[[dgrr.models]]` entry of the secrets;
    and the problems of entries that are not usable (named by field and value)."""
    out, problems = [REFERENCE], []
    entries = _section().get("models") or []
    if not isinstance(entries, list | tuple):
        return out, [f"[dgrr] models: expected a list of tables, got {type(entries).__name__}"]
    for i, entry in enumerate(entries):
        where = f"[[dgrr.models]] #{i + 1}"
        if not hasattr(entry, "get"):
            problems.append(f"{where}: expected a table, got {type(entry).__name__}")
            continue
        model = str(entry.get("model") or "").strip()
        base = str(entry.get("api_base") or "").strip() or None
        key_env = str(entry.get("api_key_env") or "").strip() or None
        unknown = sorted(set(entry) - {"model", "api_base", "api_key_env"})
        if not model:
            problems.append(f"{where}: model: required")
        elif unknown:
            problems.append(f"{where}: unknown field(s) {', '.join(unknown)}")
        elif base is not None and not base.startswith(("http://", "https://")):
            problems.append(f"{where}: api_base: {base!r} is not an http(s) address")
        else:
            out.append(OfferedModel(model, base, key_env))
    return out, problems


def operator_judge_settings() -> tuple[JudgeSettings | None, list[str]]:
    """The model judge the operator set (`[dgrr] judge`, `judge_api_base`,
    `judge_api_key_env`, `judge_budget`, `judge_untrusted`; else `$DGRR_JUDGE`,
    `$DGRR_JUDGE_API_BASE`, `$DGRR_JUDGE_UNTRUSTED`), asked what the lexical judge leaves
    unsure in the content checks of the Replay and Approve pages and the Apply panel; None
    for the lexical judge alone. And the problems of a setting that is not usable (named
    by field and value): the pages then use the lexical judge alone."""
    from repair_core.judge import DEFAULT_BUDGET

    model = operator_setting("judge", "DGRR_JUDGE")
    if model is None:
        return None, []
    base = operator_setting("judge_api_base", "DGRR_JUDGE_API_BASE")
    if base is not None and not base.startswith(("http://", "https://")):
        return None, [f"[dgrr] judge_api_base: {base!r} is not an http(s) address"]
    budget_text = operator_setting("judge_budget") or str(DEFAULT_BUDGET)
    if not budget_text.isdigit():
        return None, [f"[dgrr] judge_budget: {budget_text!r} is not a whole number >= 0"]
    untrusted_text = (operator_setting("judge_untrusted", "DGRR_JUDGE_UNTRUSTED")
                      or "false").lower()
    if untrusted_text not in ("true", "false"):
        return None, [f"[dgrr] judge_untrusted: {untrusted_text!r}: expected true or false"]
    return JudgeSettings(model=model, api_base=base,
                         api_key_env=operator_setting("judge_api_key_env"),
                         budget=int(budget_text), untrusted=untrusted_text == "true"), []


def operator_judge() -> tuple[ModelJudge | None, list[str]]:
    """The judge `operator_judge_settings` describes, built in this interpreter, and the
    problems of a setting that is not usable."""
    found, problems = operator_judge_settings()
    return (found.model_judge() if found is not None else None), problems


def typed_model_client(model: str, api_base: str | None, api_key: str | None, *,
                       timeout: float, deadline: float | None) -> ModelClient:
    """A client for a model and API base a person typed (sign-in not configured): the
    typed key, or none, goes to a typed address, never one of the server's."""
    if api_base and not api_key:
        api_key = NO_KEY
    return ModelClient(model, api_base, api_key=api_key or None, timeout=timeout,
                       deadline=deadline)


def shown_url(url: str) -> str:
    """A database URL as shown on a page: its password hidden."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy parses: opening it words the problem
        return url.split("@", 1)[-1] if "@" in url else url


def trust_setting() -> str | None:
    """The trust file the approvals' signatures are checked against: `[dgrr] trust`, which
    must exist; None: as the CLI without `--trust`, `$DGRR_TRUST`, else
    ~/.dgrr/trusted_keys.json, when it exists."""
    return operator_setting("trust")


@dataclass(frozen=True)
class ApprovalsLogSettings:
    """Every setting the approvals log reads when it is opened (:func:`approvals_log`):
    a page that keeps an opened log keys it on these and the URL, so that changing one
    takes effect on the next run, not after a restart of the server."""

    keys: str | None
    """The operator's key folder (`[dgrr] keys`); None: `$DGRR_KEYS`, else ~/.dgrr/keys,
    read at each signing."""
    trust: str | None
    """The trust file (:func:`trust_setting`); None: `$DGRR_TRUST`, else
    ~/.dgrr/trusted_keys.json, read at each decision."""
    signed_only: bool
    """Only signed rows are recorded: the dashboard is shared (:func:`team_mode`)."""


def approvals_log_settings() -> ApprovalsLogSettings:
    """The approvals log's settings as they are now."""
    return ApprovalsLogSettings(keys=operator_setting("keys"), trust=trust_setting(),
                                signed_only=team_mode())


def approvals_log(url: str, settings: ApprovalsLogSettings | None = None) -> ApprovalStore:
    """The approvals log at `url` as this dashboard writes it: rows signed with the
    reviewer's key from the operator's key folder (`[dgrr] keys`, else `$DGRR_KEYS`, else
    ~/.dgrr/keys), checked against :func:`trust_setting`. A team dashboard records only
    rows signed with a key that trust file trusts for the signed-in reviewer, and refuses
    the others: no unsigned row. `settings` defaults to :func:`approvals_log_settings`."""
    from repair_core.approvals import ApprovalStore

    chosen = settings if settings is not None else approvals_log_settings()
    return ApprovalStore(url, keys=chosen.keys, trust=chosen.trust,
                         signed_only=chosen.signed_only)


def apply_target() -> tuple[ApplyTarget | None, list[str]]:
    """The store the Approve page writes an approved repair back to: `[dgrr] apply_to`
    (`mem0` or `langgraph`, else `$DGRR_APPLY_TO`), `apply_store` (what `dgrr apply
    --store` takes, else `$DGRR_APPLY_STORE`), `apply_vault` (`--vault`, else
    `$DGRR_APPLY_VAULT`) and `apply_journal` (`--journal`, else `$DGRR_APPLY_DIR`). None
    when no store is set; and the problems of a setting that is not usable (named by
    field and value)."""
    from repair_core.integrations.apply_result import ApplyTarget

    kind = operator_setting("apply_to", "DGRR_APPLY_TO")
    spec = operator_setting("apply_store", "DGRR_APPLY_STORE")
    if kind is None and spec is None:
        return None, []
    if kind not in ("mem0", "langgraph"):
        return None, [f"[dgrr] apply_to: expected 'mem0' or 'langgraph', got {kind!r}"]
    if spec is None:
        return None, ["[dgrr] apply_store: required with apply_to (what `dgrr apply "
                      "--store` takes)"]
    vault = operator_setting("apply_vault", "DGRR_APPLY_VAULT")
    if vault is not None and kind != "langgraph":
        return None, ["[dgrr] apply_vault: only for apply_to = 'langgraph'"]
    return ApplyTarget(to=kind, store=spec, vault=vault,
                       journal=operator_setting("apply_journal", "DGRR_APPLY_DIR")), []
