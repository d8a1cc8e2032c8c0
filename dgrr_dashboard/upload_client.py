"""The server's side of the upload worker (`upload_worker`): when to use it, its limits,
and a job run to its end — the parsed case and its plan, or a `CaseError` saying why not
(docs/dashboard.md, "Uploads in a worker process").

The thread that waits for the worker holds no interpreter lock while it waits, so the
other sessions of the server run on; it stops the worker when the session that asked has
ended or the wall-clock limit has passed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pydantic import ValidationError

from repair_core import Case, CaseError, RepairPlan, parse_case
from repair_core.verification import Verification

from .judge_settings import JudgeSettings
from .plan_transfer import plan_from_data
from .settings import operator_setting, team_mode
from .worker_messages import MEMORY_EXIT, Planned, Verified, WorkerRequest, parse_answer

__all__ = ["LimitExceeded", "LoadedUpload", "WorkerLimits", "load_in_worker",
           "plan_in_worker", "use_worker", "verify_in_worker", "worker_environment",
           "worker_limits"]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CPU_SECONDS = 30
DEFAULT_MEMORY_MB = 2048
WALL_FACTOR = 5
"""The worker is stopped after this many times its CPU seconds of wall-clock time (it
runs at a lower priority than the server, on a machine other work shares)."""
_POLL = 0.25


class LimitExceeded(CaseError):
    """The job needed more CPU time, memory or wall-clock time than its limits allow."""


@dataclass(frozen=True)
class WorkerLimits:
    """What one job of the worker may use."""

    cpu_seconds: int
    """CPU time (`RLIMIT_CPU`): setting `upload_cpu_seconds`, `$DGRR_UPLOAD_CPU_SECONDS`."""
    memory_mb: int
    """Address space in MiB (`RLIMIT_AS`): `upload_memory_mb`, `$DGRR_UPLOAD_MEMORY_MB`."""
    wall_seconds: int
    """Wall-clock time before the server stops the worker (`WALL_FACTOR` times
    `cpu_seconds` from the settings)."""


@dataclass(frozen=True)
class LoadedUpload:
    """An upload the worker parsed and planned."""

    case: Case
    """The parsed case."""
    plan: RepairPlan
    """Its computed plan."""
    import_summary: str | None
    """What an import found (None for a case file)."""


def _whole(name: str, env: str, default: int, least: int,
           read: Callable[[str, str], str | None]) -> int:
    text = read(name, env)
    if text is None:
        return default
    if not text.isdecimal() or int(text) < least:
        raise CaseError([f"[dgrr] {name} / ${env}: {text!r} is not a whole number "
                         f">= {least}"], source="the dashboard's settings")
    return int(text)


def worker_limits(read: Callable[[str, str], str | None] = operator_setting) -> WorkerLimits:
    """The operator's limits (`[dgrr] upload_cpu_seconds`, `upload_memory_mb`, else
    `$DGRR_UPLOAD_CPU_SECONDS`, `$DGRR_UPLOAD_MEMORY_MB`); a value that is not a whole
    number (at least 1 second, 256 MiB) raises `CaseError` naming it."""
    cpu = _whole("upload_cpu_seconds", "DGRR_UPLOAD_CPU_SECONDS", DEFAULT_CPU_SECONDS, 1, read)
    memory = _whole("upload_memory_mb", "DGRR_UPLOAD_MEMORY_MB", DEFAULT_MEMORY_MB, 256, read)
    return WorkerLimits(cpu, memory, WALL_FACTOR * cpu)


def use_worker(read: Callable[[str, str], str | None] = operator_setting) -> bool:
    """Whether uploads are parsed and cases planned in the worker: `[dgrr] upload_worker`
    / `$DGRR_UPLOAD_WORKER` is `auto` (the default: in team mode only), `on` or `off`.
    A value that is none of these raises `CaseError` naming it."""
    text = (read("upload_worker", "DGRR_UPLOAD_WORKER") or "auto").strip().lower()
    if text not in ("auto", "on", "off"):
        raise CaseError([f"[dgrr] upload_worker / $DGRR_UPLOAD_WORKER: {text!r}: expected "
                         "auto, on or off"], source="the dashboard's settings")
    return text == "on" or (text == "auto" and team_mode())


PASSED_ON = ("PATH", "HOME", "TMPDIR", "TEMP", "TMP", "LANG", "LANGUAGE", "PYTHONPATH",
             "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy",
             "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE")
"""The server's environment variables a worker is given (with the locale's `LC_*`): where
programs and temporary files are, the locale, the library's path, and how the judge's
calls reach the network. The worker reads no `DGRR_*` setting: its limits come as its
arguments and the judge's settings in the request."""


def worker_environment(key_env: str | None = None,
                       environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The environment a worker is started with: `PASSED_ON` and `LC_*` of the server's
    `environ`, and for a check with the model judge the one variable the operator named
    for its key (`key_env`, `judge_api_key_env`). Nothing else of the server's reaches a
    process that reads visitors' uploads: not its database password, its sign-in
    secrets or a provider's key nobody named for the judge."""
    return {name: value for name, value in environ.items()
            if name in PASSED_ON or name.startswith("LC_")
            or (key_env is not None and name == key_env)}


class _Worker(subprocess.Popen[bytes]):
    """A started worker and the environment it was started with."""

    def __init__(self, args: list[str], environment: dict[str, str]) -> None:
        super().__init__(args, cwd=ROOT, env=environment, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.environment = environment


_SPARE: list[_Worker] = []  # a started worker no job has used yet
_SPARE_LOCK = threading.Lock()


def _start(limits: WorkerLimits, judge: bool, environment: dict[str, str]) -> _Worker:
    return _Worker(_start_args(limits, judge), environment)


def _worker(limits: WorkerLimits, judge: bool, environment: dict[str, str]) -> _Worker:
    """A fresh worker for one job: the spare :func:`_refill` started after the last job
    of its kind (a worker's start, the interpreter and the library's imports, about
    0.6 CPU s — with the model judge's litellm, about 6 CPU s more — then overlaps the
    reviewer's work instead of delaying the next job), else a new one. A spare with other
    limits or another `environment` (the settings changed) is left for :func:`_refill` to
    replace; one that has ended is replaced."""
    wanted = _start_args(limits, judge)
    with _SPARE_LOCK:
        spare = next((p for p in _SPARE
                      if p.args == wanted and p.environment == environment), None)
        if spare is not None:
            _SPARE.remove(spare)
    if spare is not None and spare.poll() is not None:
        _stop(spare)
        spare = None
    return spare if spare is not None else _start(limits, judge, environment)


def _refill(limits: WorkerLimits, judge: bool, environment: dict[str, str]) -> None:
    """Start the spare for the next job of this kind (after a job, not beside it: on a
    busy machine the two starts competed for the CPU and a small case's plan took
    seconds); a spare with other limits, or of this kind with another environment, is
    stopped. A spare for the judge is started only once a check with the judge was asked
    for, so that a server whose operator set none, or whose reviewers never open
    Approve, imports litellm nowhere."""
    wanted = _start_args(limits, judge)
    with _SPARE_LOCK:
        stale = [p for p in _SPARE if p.args not in (wanted, _start_args(limits, not judge))
                 or (p.args == wanted and p.environment != environment)]
        for p in stale:
            _SPARE.remove(p)
        fresh = not any(p.args == wanted for p in _SPARE)
        if fresh:
            _SPARE.append(_start(limits, judge, environment))
    for p in stale:
        _stop(p)


def _start_args(limits: WorkerLimits, judge: bool = False) -> list[str]:
    return [sys.executable, "-m", "dgrr_dashboard.upload_worker", str(limits.cpu_seconds),
            str(limits.memory_mb), *(["judge"] if judge else [])]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.communicate()


def _send(stdin: IO[bytes] | None, parts: list[bytes]) -> None:
    """Write `parts` to the worker and close its input (a worker that has ended, at a
    limit, reads no more: that is not an error here)."""
    if stdin is None:
        return
    try:
        for part in parts:
            stdin.write(part)
    except (BrokenPipeError, OSError):
        pass
    finally:
        with contextlib.suppress(OSError):
            stdin.close()


def _refusal(limits: WorkerLimits, returncode: int) -> str:
    if returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return (f"refused: it needs more than the {limits.cpu_seconds} CPU seconds an upload "
                "may use here (setting upload_cpu_seconds / $DGRR_UPLOAD_CPU_SECONDS)")
    if returncode in (MEMORY_EXIT, -signal.SIGABRT):  # SIGABRT: a native allocation failed
        return (f"refused: it needs more than the {limits.memory_mb} MiB of memory an upload "
                "may use here (setting upload_memory_mb / $DGRR_UPLOAD_MEMORY_MB)")
    return f"refused: the worker processing it stopped unexpectedly (exit status {returncode})"


def run_job(request: WorkerRequest, files: Sequence[bytes], limits: WorkerLimits, *,
            ended: Callable[[], bool] | None = None) -> Planned | Verified:
    """Run `request` with `files` in a new worker under `limits`; its answer, or a
    `CaseError` (the upload's problems, the session ended; `LimitExceeded`: a limit it
    passed)."""
    request = request.model_copy(update={"sizes": [len(f) for f in files]})
    judge = request.judge is not None
    environment = worker_environment(request.judge.api_key_env if request.judge else None)
    proc = _worker(limits, judge, environment)
    deadline = time.monotonic() + limits.wall_seconds
    # Written by a thread of its own, not by communicate(): given input and a timeout,
    # communicate() writes none of the input after its first timeout (Python 3.11), and
    # the worker waited for the rest of a large upload for ever.
    stdin, proc.stdin = proc.stdin, None
    writer = threading.Thread(target=_send, args=(stdin, [
        request.model_dump_json().encode(), b"\n", *files]), name="dgrr-upload-send",
        daemon=True)
    writer.start()
    try:
        while True:
            try:
                out, err = proc.communicate(timeout=_POLL)
                break
            except subprocess.TimeoutExpired:
                if ended is not None and ended():
                    raise CaseError(["stopped: the browser session ended"],
                                    source=request.source) from None
                if time.monotonic() > deadline:
                    raise LimitExceeded([f"refused: it took longer than {limits.wall_seconds} s "
                                     "of wall-clock time (the upload_cpu_seconds setting "
                                     f"{limits.cpu_seconds} times {WALL_FACTOR})"],
                                    source=request.source) from None
    finally:
        if proc.returncode is None:
            _stop(proc)
        writer.join()
        _refill(limits, judge, environment)
    if proc.returncode != 0:
        if proc.returncode not in (-signal.SIGXCPU, -signal.SIGKILL, MEMORY_EXIT,
                                   -signal.SIGABRT):
            # for the operator's log, escaped: it may quote the upload
            print(f"dgrr dashboard: the upload worker stopped ({proc.returncode}): "
                  f"{ascii(err[-2000:].decode(errors='replace'))}", file=sys.stderr, flush=True)
        limit = proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL, MEMORY_EXIT,
                                    -signal.SIGABRT)
        raise (LimitExceeded if limit else CaseError)([_refusal(limits, proc.returncode)],
                                                      source=request.source)
    try:
        answer = parse_answer(out)
    except ValidationError:
        raise CaseError(["refused: the worker's answer was not one the server reads"],
                        source=request.source) from None
    if answer.kind == "refused":
        raise CaseError(answer.problems, source=answer.source or request.source)
    return answer


def load_in_worker(request: WorkerRequest, files: Sequence[bytes], *,
                   ended: Callable[[], bool] | None = None,
                   limits: WorkerLimits | None = None) -> LoadedUpload:
    """Parse and plan an upload (`request.job` case, pair or import) in the worker, under
    `limits` (default: the settings')."""
    answer = run_job(request, files, limits or worker_limits(), ended=ended)
    if not isinstance(answer, Planned) or answer.case_json is None:
        raise CaseError(["refused: the worker sent no case"], source=request.source)
    case = parse_case(answer.case_json, source=request.source)
    return LoadedUpload(case, _plan(case, answer, request.source), answer.import_summary)


def plan_in_worker(case: Case, objective: str, not_suspect: frozenset[str], *,
                   ended: Callable[[], bool] | None = None,
                   limits: WorkerLimits | None = None,
                   clean_source: dict[str, str] | None = None) -> RepairPlan:
    """Plan `case` (the server's working case) in the worker, under `limits` (default:
    the settings')."""
    request = WorkerRequest(job="plan", source=f"case {case.case_id}", names=["case"],
                            objective=objective,  # type: ignore[arg-type]
                            not_suspect=sorted(not_suspect),
                            clean_source=dict(clean_source or {}))
    answer = run_job(request, [case.model_dump_json().encode()], limits or worker_limits(),
                     ended=ended)
    if not isinstance(answer, Planned):
        raise CaseError(["refused: the worker sent no plan"], source=request.source)
    return _plan(case, answer, request.source)


def verify_in_worker(case: Case, result_json: str, sources: Sequence[str], *,
                     judge: JudgeSettings | None = None,
                     ended: Callable[[], bool] | None = None,
                     limits: WorkerLimits | None = None,
                     recompute: bool = False, made_here: bool = False) -> Verification:
    """The content check of a replay's result (`result_json`, a RepairResult's JSON) of
    repairing `case`, against its faults and the suspected `sources`, run in the worker
    under `limits` (default: the settings'): by the lexical judge and, with `judge`, the
    operator's model judge, whose calls the worker makes within those limits. A check
    past a limit raises `LimitExceeded`: it is not certified, never clean. With
    `recompute`, the worker also makes the result again (rule gate.replay-recomputed)
    and a result that differs is refused (`CaseError`, the rule's words). `made_here`:
    the result is the server's own replay's, read there as the server reads it."""
    request = WorkerRequest(job="verify", source=f"the content check of case {case.case_id}",
                            names=["case", "result"], sources=list(sources), judge=judge,
                            recompute=recompute, made_here=made_here)
    answer = run_job(request, [case.model_dump_json().encode(), result_json.encode()],
                     limits or worker_limits(), ended=ended)
    if not isinstance(answer, Verified):
        raise CaseError(["refused: the worker sent no content check"], source=request.source)
    try:
        return Verification.model_validate(answer.verification)
    except ValidationError:
        raise CaseError(["refused: the worker's content check was not one the server "
                         "reads"], source=request.source) from None


def _plan(case: Case, answer: Planned, source: str) -> RepairPlan:
    try:
        return plan_from_data(case, answer.plan)
    except (ValidationError, KeyError, TypeError):
        raise CaseError(["refused: the worker's plan was not one the server reads"],
                        source=source) from None
