"""The upload worker: `python -m dgrr_dashboard.upload_worker CPU_SECONDS MEMORY_MB`, a
process of its own that parses an upload (or takes a case the server holds), plans it and
writes the case and plan back as JSON, or runs the content check of a replay's result,
with the operator's model judge when the request names one (docs/dashboard.md, "Uploads
in a worker process").

The dashboard server's sessions are threads of one interpreter: a hostile upload parsed,
scanned and planned there held the interpreter lock, and every other reviewer's page
waited. Here it is this process's CPU that is spent, under limits set before anything of
the upload is read: `RLIMIT_CPU` (the kernel stops the process), `RLIMIT_AS` (an
allocation past it fails; exit status `MEMORY_EXIT`), a lower priority than the server
(nice 5) and, when the server's threads are pinned to a CPU (`server_cpu`), the other
CPUs. The request format is `worker_messages`. No Streamlit here.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sys
from typing import IO, Any

from pydantic import ValidationError

from repair_core import (
    Case,
    CaseError,
    DgrrError,
    RepairResult,
    case_from_parts,
    parse_case,
    plan_case,
)
from repair_core.importers._otlp import looks_like_otlp
from repair_core.replay import replay_again
from repair_core.verification import verify_result

from .imported_upload import ImportedUpload, import_uploads
from .plan_transfer import plan_data
from .worker_messages import (
    MAX_REQUEST_LINE,
    MEMORY_EXIT,
    Planned,
    Refused,
    Verified,
    WorkerRequest,
)

__all__ = ["NICENESS", "main"]

NICENESS = 5
"""How much lower the worker's scheduling priority is than the server's."""


def _limit(cpu_seconds: int, memory_mb: int) -> None:
    # the hard CPU limit a little above the soft one: SIGXCPU at the soft limit ends the
    # process (its default action), SIGKILL at the hard one if it was caught somehow
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 2))
    memory = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    with contextlib.suppress(OSError):  # not allowed: the limits still hold
        os.nice(NICENESS)
    _off_the_servers_cpu()


def _off_the_servers_cpu() -> None:
    """Run on CPUs other than the one the server's threads are pinned to (inherited from
    the thread that started the worker), else on any; as it is when nothing is pinned."""
    if not hasattr(os, "sched_setaffinity"):
        return
    here = os.sched_getaffinity(0)
    every = set(range(os.cpu_count() or 1))
    for choice in (every - here, every):
        if choice and choice != here:
            try:
                os.sched_setaffinity(0, choice)
                return
            except OSError:  # outside this process's cpuset
                continue


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None


def _answer(stream: IO[bytes]) -> str:
    """Run the request on `stream`; the answer's JSON."""
    line = stream.readline(MAX_REQUEST_LINE + 1)
    try:
        request = WorkerRequest.model_validate_json(line)
    except ValidationError:
        return Refused(problems=["the worker's request is not one it reads"]).model_dump_json()
    wanted = 2 if request.job in ("pair", "verify") else 1  # an import: traces, a store or both
    if len(request.sizes) != len(request.names) or len(request.sizes) < wanted:
        return Refused(problems=[f"a {request.job} job needs {wanted} file(s)"],
                       source=request.source).model_dump_json()
    files = []
    for name, size in zip(request.names, request.sizes, strict=False):
        data = _read_exactly(stream, size)
        if data is None:
            return Refused(problems=[f"the upload {name!r} arrived incomplete"],
                           source=request.source).model_dump_json()
        files.append(data)
    try:
        return _run(request, files).model_dump_json()
    except CaseError as exc:
        problems = [str(p) for p in exc.problems]
        return Refused(problems=problems, source=exc.source or request.source).model_dump_json()
    except DgrrError as exc:  # e.g. an objective the case cannot be planned for
        return Refused(problems=[str(exc)], source=request.source).model_dump_json()


def _run(request: WorkerRequest, files: list[bytes]) -> Planned | Verified:
    if request.job == "verify":
        return _verify(request, files)
    summary = case_json = None
    if request.job == "case":
        case = _parse_upload(files[0], request.names[0])
    elif request.job == "pair":
        case = case_from_parts(files[0], files[1], source=request.source)
    elif request.job == "import":
        imported = _import(request, files)
        case, summary, case_json = imported.case, imported.summary, imported.case_json
    else:
        case = parse_case(files[0], source=request.source)
    objective = request.objective if case.has_answer() else "store"
    plan = plan_case(case, objective=objective, not_suspect=request.not_suspect,
                     clean_source=request.clean_source)
    if request.job != "plan" and case_json is None:
        case_json = case.model_dump_json()
    return Planned(case_json=case_json, plan=plan_data(plan), import_summary=summary)


def _verify(request: WorkerRequest, files: list[bytes]) -> Verified:
    """The content check of the result (its JSON, `files[1]`) of repairing the case
    (`files[0]`), as `repair`, the Approve page and `dgrr apply` run it in process: by the
    lexical judge and, when the request names one, the operator's model judge, whose
    calls are made from here and so count in this process's limits."""
    case = parse_case(files[0], source=request.source)
    result: Any
    try:
        # the server's own replay is read back as the model it was in the server
        result = (RepairResult.model_validate_json(files[1]) if request.made_here
                  else json.loads(files[1]))
    except ValidationError as exc:  # a ValueError too, so read first
        err = exc.errors()[0]
        why = ("the result sent is not JSON" if err["type"] == "json_invalid" else
               "the result sent is not a repair result: "
               f"{'.'.join(map(str, err['loc'])) or '(root)'}: {err['msg']}")
        raise CaseError([why], source=request.source) from None
    except ValueError:
        raise CaseError(["the result sent is not JSON"], source=request.source) from None
    judge = request.judge.model_judge() if request.judge is not None else None
    verification = verify_result(case, result, sources=request.sources, judge=judge)
    if request.recompute:  # rule gate.replay-recomputed, which reads the result's JSON
        replay_again(case, json.loads(files[1]) if request.made_here else result)
    return Verified(verification=verification.model_dump(mode="json"))


def _parse_upload(data: bytes, name: str) -> Case:
    if looks_like_otlp(data):  # a trace, not a case: say where it goes
        raise CaseError(["this file is an OTLP trace, not a dgrr case: import it on the "
                         "tab \"Trace (OTLP) + Mem0 store\" (or with the command dgrr import)"],
                        source=name)
    return parse_case(data, source=name)


def _import(request: WorkerRequest, files: list[bytes]) -> ImportedUpload:
    traces = files[:-1] if request.with_store else files
    store = (request.names[-1], files[-1]) if request.with_store else None
    return import_uploads(list(zip(request.names, traces, strict=False)), store,
                          faults=request.faults)


def main(argv: list[str] | None = None) -> int:
    """Set the limits `argv` gives (CPU seconds, memory MB), run the request on standard
    input, write the answer on standard output; `MEMORY_EXIT` when memory ran out. With
    a third argument `judge`, litellm (the model judge's client) is imported once the
    limits are set and before the request is read: a spare worker for the content checks
    with the operator's judge, which then waits with it imported."""
    args = sys.argv[1:] if argv is None else argv
    try:
        cpu_seconds, memory_mb = int(args[0]), int(args[1])
        if args[2:] not in ([], ["judge"]):
            raise ValueError(args[2:])
    except (IndexError, ValueError):
        print("usage: python -m dgrr_dashboard.upload_worker CPU_SECONDS MEMORY_MB [judge]",
              file=sys.stderr)
        return 2
    _limit(cpu_seconds, memory_mb)
    try:
        if args[2:] == ["judge"]:
            from repair_core.judge._model import _import_litellm

            _import_litellm()
        text = _answer(sys.stdin.buffer)
    except MemoryError:
        return MEMORY_EXIT
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
