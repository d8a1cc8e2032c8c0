"""A replay running beside the page: the session keeps the job, the page polls its progress
and can cancel it; the repair itself is the library's (`repair_core.repair`), stopped
between two steps by raising from its progress callback. No Streamlit here (the thread has
no script context)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from repair_core import Case, RepairPlan, repair

from .judge_settings import JudgeSettings
from .result_check import replay_and_check

__all__ = ["ReplayCancelled", "ReplayJob", "replay_estimate", "calls_by_step"]

# Step types whose replay asks the model (tool actions call a tool; reads retrieve;
# observations come from the tool call they follow).
_NO_MODEL = {"tool_action", "tool_observation", "memory_read"}


def replay_estimate(plan: RepairPlan) -> dict[str, int]:
    """What replaying `plan` will take, before it starts: `steps` replayed, about how many
    `model_calls` (one per replayed step that asks the model, retries not counted) and
    `tool_calls`."""
    types = {s.id: s.type for s in plan.case.trajectory}
    kinds = Counter(types[s] for s in plan.replay_set)
    return {"steps": len(plan.replay_set),
            "model_calls": sum(n for t, n in kinds.items() if t not in _NO_MODEL),
            "tool_calls": kinds.get("tool_action", 0)}


def calls_by_step(client: Any) -> dict[str, list[Any]]:
    """The model calls a replay made (`ModelClient.log`: messages sent, reply, tokens),
    by the step they were made for."""
    out: dict[str, list[Any]] = {}
    for record in getattr(client, "log", []):
        step = record.tags.get("step")
        if step:
            out.setdefault(step, []).append(record)
    return out


class ReplayCancelled(Exception):
    """The reviewer cancelled the replay."""


class ReplayJob:
    """One replay of `plan` in a thread of its own; read `done`, `total`, `step`,
    `calls`, `tokens`, `finished`, `result`, `error`, `cancelled` from the page."""

    def __init__(self, case: Case, plan: RepairPlan, *, client: Any,
                 observations: dict[str, Any] | None = None,
                 session_ended: Callable[[], bool] | None = None,
                 judge: JudgeSettings | None = None) -> None:
        self.plan = plan
        self.judge = judge  # the operator's model judge, or None for the lexical one
        self.total = len(plan.replay_set)
        self.done = 0
        self.step = ""
        self.calls = self.tokens = 0
        self.started = time.monotonic()
        self.ended: float | None = None
        self.result: Any = None
        self.error: str | None = None
        self.check_unfinished: str | None = None
        """Why the content check after the replay is not certified (it ran in the upload
        worker and did not finish), else None."""
        self.check_problems: list[str] = []
        self.cancelled = False
        self._cancel = threading.Event()
        # the session that started it has ended: nobody will read the result, so no more
        # model calls are spent on it (`state.session_ended`)
        self._session_ended = session_ended
        self.client = client
        self._args = (case, plan, client, observations)
        self._thread = threading.Thread(target=self._run, name="dgrr-replay", daemon=True)

    def start(self) -> ReplayJob:
        self._thread.start()
        return self

    def cancel(self) -> None:
        """Stop after the step being replayed (nothing of the replay is kept)."""
        self._cancel.set()

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def elapsed(self) -> float:
        return (self.ended or time.monotonic()) - self.started

    def wait(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return self.finished

    def _progress(self, done: int, total: int, step_id: str, cost: Any) -> None:
        self.done, self.total, self.step = done, total, step_id
        self.calls = int(getattr(cost, "llm_calls", 0))
        self.tokens = int(getattr(cost, "tokens", 0))
        if self._cancel.is_set() or (self._session_ended is not None
                                     and self._session_ended()):
            raise ReplayCancelled

    def _run(self) -> None:
        case, plan, client, observations = self._args
        try:
            if self._cancel.is_set():
                raise ReplayCancelled
            def replay(here: bool) -> Any:
                judge = self.judge.model_judge() if here and self.judge is not None else None
                return repair(case, plan, client=client, observations=observations,
                              on_progress=self._progress, judge=judge, check=here)

            self.result, self.check_unfinished, self.check_problems = replay_and_check(
                plan, replay, judge=self.judge, ended=self._session_ended)
        except ReplayCancelled:
            self.cancelled = True
        except Exception as exc:  # noqa: BLE001 - shown to the reviewer on the page
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.ended = time.monotonic()
