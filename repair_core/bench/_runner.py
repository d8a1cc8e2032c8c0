"""The resumable benchmark runner.

Each case x method is repaired through the shared rollback executor, judged by the
deterministic oracle, probed for recurrence when recovered, and stored at once as
`DIR/results/<method>/<case_id>.json` (atomic write): an interrupted run loses nothing
finished, and a re-run skips every result already stored (except crashed ones).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .._errors import DgrrError
from .._io import atomic_write_json
from ..case._case import Case
from ..case._load import load_case
from ._carriers import states_forbidden_fact, store_carriers, store_signature_matches
from ._methods import RepairDecision, decide
from ._metrics import (
    ANSWER_READER,
    CaseResult,
    forbidden_stated,
    judge_recovery,
    missing_facts,
)
from ._state import state_entries, state_verdict

if TYPE_CHECKING:
    from ..replay._executor_rules import ExecutorRules

__all__ = ["evaluate", "run_bench", "result_path", "load_results", "suite_case_paths",
           "SUITE_DIRS", "is_agentdojo_suite"]

SUITE_DIRS = {"controlled": "sample_traces/controlled", "adapted": "sample_traces/adapted",
              "agentdojo": "sample_traces/agentdojo"}


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def _file_stem(name: str) -> str:
    # A name of safe characters is its own stem; any other name gets `~` and a digest
    # of the original (`~` is never in a safe name), so two names never share a file
    # (`x/y` and `x_y` used to).
    safe = _safe(name)
    if safe == name and name not in (".", ".."):
        return name
    return f"{safe[:80]}~{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}"


def result_path(out: Path, method: str, case_id: str) -> Path:
    """Where the result of `method` on `case_id` is stored (one file per distinct id)."""
    return out / "results" / _file_stem(method) / f"{_file_stem(case_id)}.json"


def _labels(case: Case) -> dict[str, Any]:
    ev = case.eval
    if ev is not None and "agentdojo" in (case.model_extra or {}):
        return dict(domain=case.domain or "", fault_type="poisoned", n_faults=len(case.faults),
                    n_benign=len(ev.benign))  # judged by AgentDojo's checks, not by facts
    if ev is None or not ev.required_facts:
        raise DgrrError(f"case {case.case_id}: eval.required_facts: missing; a benchmark case "
                        "needs evaluation labels")
    primary = ev.fault_types.get(case.faults[0], "") if case.faults else ""
    return dict(domain=case.domain or "", fault_type=primary, n_faults=len(case.faults),
                n_benign=len(ev.benign))


def final_request(case: Case) -> str:
    """The text of the user's turn the case's final answer answers."""
    turn = case.final_answer().turn
    return next(t.text for t in case.session if t.id == turn)


class AnswerJudgeSpec(NamedTuple):
    """The model judge of answers a benchmark run asks (`dgrr bench run --answer-judge`)."""

    model: str
    """The litellm model string."""
    api_base: str | None = None
    """Its OpenAI-compatible server, if not the provider's own."""
    ask_all: bool = False
    """Ask about every answer, not only what the lexical reader is unsure of."""
    cache_dir: str | None = None
    """A folder keeping its answers (a re-run asks nothing)."""


@functools.cache
def _answer_judge(spec: AnswerJudgeSpec) -> Any:
    """One judge per process and spec, so its cache and budget span the cases that process
    runs (with `workers`, each worker process has a budget of its own)."""
    from ..judge import RecoveryJudge
    from ..model._bounded import guarded_call

    return RecoveryJudge(spec.model, api_base=spec.api_base, cache_dir=spec.cache_dir,
                         guard=guarded_call)


def evaluate(case: Case, method: str, *, model: str = "dgrr/reference",
             api_base: str | None = None,
             answer_judge: AnswerJudgeSpec | None = None,
             rules: ExecutorRules | None = None) -> CaseResult:
    """Repair `case` with `method` and measure everything the metrics need; with
    `answer_judge`, a model decides the recovery the lexical reader cannot read; `rules`
    switches the executor's rules for baselines at their best (default: both on)."""
    from .. import execute  # the replay executor; imported lazily (model layer is slow)

    start = time.perf_counter()
    labels = _labels(case)
    ev = case.eval
    assert ev is not None
    from ..model import ModelClient

    # the model-driven baselines decide through the same model as the replay
    d: RepairDecision = decide(method, case, ModelClient(model, api_base))
    blind = case.without_eval()
    notes = list(d.notes)
    if method == "no_repair":
        answer = case.final_answer().text
        active = [m for m in case.memory if m.status == "active"]
        replayed, calls, tokens = 0, 0, 0
        replayed_ids: list[str] = []
        world = _failed_world(blind)
        human: list[str] = []
    else:
        res = execute(blind, d.store_edits, sorted(d.replay), invalidated=sorted(d.invalidated),
                      model=model, api_base=api_base, decisions=d.reasons, answer=d.answer,
                      rules=rules)
        # a store-objective method leaves the answer the user already has
        answer = (res.answer or "") if d.answer else case.final_answer().text
        active = (list(res.store.active) if d.persist_store
                  else [m for m in case.memory if m.status == "active"])
        replayed_ids = [s.id for s in res.report.steps
                        if s.outcome in ("replayed", "refreshed")]
        replayed = len(replayed_ids)
        calls, tokens = res.cost.llm_calls + d.llm_calls, res.cost.tokens + d.tokens
        notes += [f"skipped write {w.step}: {w.reason}" for w in res.report.skipped_writes]
        notes += [f"failure at {f.step} ({f.stage}): {f.error}" for f in res.report.failures]
        world = res.final_world
        human = [f"{n.step} ({n.tool})" for n in res.needs_human]
    active_ids = {m.id for m in active}
    judge = None if answer_judge is None else _answer_judge(answer_judge)
    ask_all = bool(answer_judge and answer_judge.ask_all)
    request = final_request(case)
    judged = judge_recovery(answer, ev.required_facts, ev.forbidden_facts, judge=judge,
                            ask_all=ask_all, request=request)
    recovered = judged.outcome == "recovered"
    entries = state_entries(world) if world is not None else []
    state_ok: bool | None = None
    state_missing: list[str] = []
    state_bad: list[str] = []
    if ev.required_state is not None:
        state_missing, state_bad = state_verdict(entries, ev.required_state,
                                                 ev.forbidden_facts, ev.required_facts)
        state_ok = not state_missing and not state_bad and not human
    carrying = store_carriers(case, active, states_forbidden_fact(ev.forbidden_facts))
    signature_matches = store_signature_matches(case, active)
    recurred: bool | None = None
    probe_answer = None
    if recovered or not d.answer:  # store objective: judged by the next session
        from ..agent import recurrence_probe

        probe_answer = recurrence_probe(active, case.user_id, request,
                                        model=model, api_base=api_base, domain=case.domain)
        # the probe's answer is judged as the answer was, by the same judge
        recurred = judge_recovery(probe_answer, ev.required_facts, ev.forbidden_facts,
                                  judge=judge, ask_all=ask_all,
                                  request=request).outcome != "recovered"
    return CaseResult(
        case_id=case.case_id, method=method, **labels, answer=answer, recovered=recovered,
        recovery_unsure=judged.unsure,
        recovery_judge="" if judged.judge == ANSWER_READER else judged.judge,
        recovered_paper=not missing_facts(answer, ev.required_facts, ev.forbidden_facts,
                                          request=request),
        state_ok=state_ok, state_missing=state_missing, state_forbidden=state_bad,
        final_state=entries, needs_human=human,
        store_carries_fault=None if carrying is None else bool(carrying),
        store_carriers=carrying or [], store_signature_matches=signature_matches,
        missing_facts=missing_facts(answer, ev.required_facts, ev.forbidden_facts,
                                    request=request),
        forbidden_stated=forbidden_stated(answer, ev.forbidden_facts, ev.required_facts),
        recurred=recurred, probe_answer=probe_answer,
        faults_total=len(case.faults),
        faults_removed=sum(1 for f in case.faults if f not in active_ids),
        benign_total=len(ev.benign), benign_kept=sum(1 for b in ev.benign if b in active_ids),
        gold_claims=sorted(ev.gold_claims), predicted_claims=d.predicted_claims(case),
        replayed_steps=replayed, replayed_step_ids=replayed_ids, trajectory_steps=len(case.trajectory),
        llm_calls=calls, tokens=tokens, seconds=time.perf_counter() - start, notes=notes)


def is_agentdojo_suite(paths: Sequence[Path]) -> bool:
    """The case files are AgentDojo cases (each has an `agentdojo` field); a mix of
    AgentDojo and other cases is refused."""
    kinds = set()
    for p in paths:
        try:
            data = json.loads(p.read_bytes())
        except (OSError, ValueError):
            continue  # reported by the loader with its own message
        kinds.add(isinstance(data, dict) and isinstance(data.get("agentdojo"), dict))
    if len(kinds) > 1:
        raise DgrrError("--suite: mixes AgentDojo cases with other cases; they need different "
                        "agents, so run them as two suites")
    return kinds == {True}


def _failed_world(case: Case) -> Any:
    """The tool world the failed run left (what `no_repair` leaves)."""
    from ..replay._world import ToolWorld
    from ..tools import default_registry

    return ToolWorld.after_failed_run(case, default_registry(), removed=()).state


def _run_one(path: str, method: str, out: str, model: str, api_base: str | None,
             cache_dir: str | None = None, answer_judge: AnswerJudgeSpec | None = None,
             rules: ExecutorRules | None = None) -> tuple[str, str, bool]:
    if cache_dir is not None:
        from ._cache import use_disk_cache

        use_disk_cache(cache_dir)
    case = load_case(path)
    try:
        if "agentdojo" in (case.model_extra or {}):
            from ._agentdojo import evaluate_case

            result = evaluate_case(case, method, model=model, api_base=api_base, rules=rules)
        else:
            result = evaluate(case, method, model=model, api_base=api_base,
                              answer_judge=answer_judge, rules=rules)
    except DgrrError:
        raise
    except Exception as exc:  # a crash is recorded as a result, and retried on a re-run
        result = CaseResult(case_id=case.case_id, method=method, **_labels(case),
                            faults_total=len(case.faults),
                            benign_total=len(case.eval.benign) if case.eval else 0,
                            trajectory_steps=len(case.trajectory),
                            error=f"{type(exc).__name__}: {exc}")
    atomic_write_json(result_path(Path(out), method, case.case_id),
                      result.model_dump(mode="json"))
    return method, case.case_id, result.error is None


def _done(out: Path, method: str, case_id: str) -> bool:
    p = result_path(out, method, case_id)
    try:
        return CaseResult.model_validate_json(p.read_bytes()).error is None
    except (OSError, ValueError):
        return False


def suite_case_paths(suite: str, root: Path | None = None) -> list[Path]:
    """Case files of a suite: `controlled`, `adapted`, a folder of case JSON, or one file."""
    base = root or Path.cwd()
    p = Path(SUITE_DIRS[suite]) if suite in SUITE_DIRS else Path(suite)
    if not p.is_absolute():
        p = base / p
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise DgrrError(f"--suite: {suite!r} is neither a known suite ({', '.join(SUITE_DIRS)}) "
                        "nor a case file or folder" + (" (generate it first: dgrr bench "
                                                       f"generate --suite {suite})"
                                                       if suite in SUITE_DIRS else ""))
    paths = sorted(f for f in p.glob("*.json") if not f.name.startswith(("manifest", "."))
                   and not f.name.endswith(".plan.json"))
    if not paths:
        raise DgrrError(f"--suite: no case files in {p}")
    return paths


def _case_ids(paths: Sequence[Path]) -> list[str]:
    ids = []
    for p in paths:
        data = json.loads(p.read_bytes())
        ids.append(str(data.get("case_id", p.stem)) if isinstance(data, dict) else p.stem)
    return ids


def _check_meta(out: Path, meta: dict[str, Any]) -> None:
    f = out / "run.json"
    if f.exists():
        old = json.loads(f.read_text())
        for key in ("model", "api_base", "executor_rules"):
            if old.get(key) != meta.get(key):
                raise DgrrError(f"--out {out}: holds results of {key} {old.get(key)!r}, not "
                                f"{meta.get(key)!r}; use another --out to keep them apart")
        # the folder may hold results of earlier runs on other cases: their files stay named
        earlier = old.get("case_paths")
        if isinstance(earlier, dict):
            meta = {**meta, "case_paths": {**earlier, **meta.get("case_paths", {})}}
    atomic_write_json(f, meta)


def load_results(out: Path, methods: Iterable[str] | None = None,
                 case_ids: Iterable[str] | None = None) -> list[CaseResult]:
    """Every stored result in `out` (optionally only these methods and cases)."""
    wanted_m = set(methods) if methods is not None else None
    wanted_c = set(case_ids) if case_ids is not None else None
    results = []
    for f in sorted((out / "results").glob("*/*.json")):
        r = CaseResult.model_validate_json(f.read_bytes())
        if (wanted_m is None or r.method in wanted_m) and (wanted_c is None
                                                            or r.case_id in wanted_c):
            results.append(r)
    return results


def run_bench(paths: Sequence[Path], methods: Sequence[str], out: Path, *,
              model: str = "dgrr/reference", api_base: str | None = None, workers: int = 1,
              suite: str = "custom", progress: bool = True,
              on_result: Callable[[str, str], None] | None = None,
              cache_dir: Path | None = None,
              answer_judge: AnswerJudgeSpec | None = None,
              rules: ExecutorRules | None = None) -> list[CaseResult]:
    """Run every method on every case not already done, storing each result as it
    finishes; return all results of these cases and methods. With `cache_dir`, every
    model call goes through litellm's disk cache there (a re-run is free); with
    `answer_judge`, a model decides the recovery the lexical reader cannot read; `rules`
    switches the executor's rules for baselines at their best (default: both on; a folder
    holds the results of one setting)."""
    out.mkdir(parents=True, exist_ok=True)
    ids = _case_ids(paths)
    # which file each case was read from: a case id may be in several suites (a controlled
    # case and its noisy variant), so the id alone does not name the case that ran
    meta: dict[str, Any] = {"suite": suite, "model": model, "api_base": api_base,
                            "case_paths": {cid: str(Path(p).resolve())
                                           for p, cid in zip(paths, ids, strict=True)}}
    from ..replay._executor_rules import ExecutorRules

    if rules is not None and rules != ExecutorRules():  # a default run's run.json as before
        meta["executor_rules"] = rules.model_dump()
    _check_meta(out, meta)
    todo = [(str(p), m) for p, cid in zip(paths, ids, strict=True) for m in methods if not _done(out, m, cid)]
    bar = _progress(len(paths) * len(methods), len(paths) * len(methods) - len(todo), progress)
    cache = str(cache_dir) if cache_dir is not None else None
    try:
        if workers <= 1:
            for path, m in todo:
                done = _run_one(path, m, str(out), model, api_base, cache, answer_judge, rules)
                bar.update(1)
                if on_result:
                    on_result(done[0], done[1])
        else:
            pool = ProcessPoolExecutor(max_workers=workers)
            try:
                futures = [pool.submit(_run_one, path, m, str(out), model, api_base, cache,
                                       answer_judge, rules)
                           for path, m in todo]
                for fut in as_completed(futures):
                    done = fut.result()
                    bar.update(1)
                    if on_result:
                        on_result(done[0], done[1])
            except BaseException:
                # interrupted: drop what has not started; finished results are stored
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            pool.shutdown()
    finally:
        bar.close()
    return load_results(out, methods, ids)


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, initial: int, enabled: bool) -> Any:
    try:  # tqdm comes with litellm's openai client; without it, run without a bar
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, initial=initial, unit="run", desc="dgrr bench",
                disable=not enabled or os.environ.get("DGRR_NO_PROGRESS") == "1",
                dynamic_ncols=True)
