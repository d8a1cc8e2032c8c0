"""Time and peak memory of `dgrr import` as the spans grow (10^3, 10^4, 10^5), or as
the records one memory read returns grow (`--one-read`).

Usage: python benchmarks/import_scale.py [--sizes 1000,10000,100000] [--turns 1]
       python benchmarks/import_scale.py --one-read [--sizes 25000,50000,100000]
       python benchmarks/import_scale.py --mem0-history [--sizes 1000000]

With `--one-read` each size is a trace of three spans (an agent turn, one search_memory
whose `gen_ai.memory.records` lists that many records, and the answer), written as OTLP
JSON directly (no SDK needed): the import's cost per returned record.

Each size is a trace written by the real OpenTelemetry SDK (file exporter, JSON lines)
of an agent with no provenance at all, the worst case for inference: every span of the
trace in `--turns` turns (default one turn, as a long-running agent loop), repeating
search_memory (two records) -> chat (claim) -> chat (tool call) -> execute_tool ->
create_memory -> chat (answer). The import runs in a fresh process (`dgrr import`), so
the peak RSS is that of the whole command, Python and all. Prints one JSON object per
size (wall and CPU seconds: on a shared machine the CPU time is the better estimate of an
unloaded run); results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

_GROUP = 6  # spans per repetition


def write_trace(path: Path, spans: int, turns: int = 1) -> None:
    """An OTLP JSON lines trace of about `spans` spans, made by the OTel SDK."""
    from opentelemetry.exporter.otlp.json.file import FileSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(FileSpanExporter(str(path)),
                                                   max_queue_size=spans + 4096,
                                                   max_export_batch_size=2048))
    tracer = provider.get_tracer("import-scale")
    groups = max(1, (spans - turns) // _GROUP)
    per_turn = max(1, groups // turns)
    n = 0
    for t in range(turns):
        with tracer.start_as_current_span("invoke_agent", attributes={
                "gen_ai.operation.name": "invoke_agent", "user.id": "lin",
                "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [
                    {"type": "text", "content": f"turn {t}: plan my trip"}]}])}):
            for _ in range(per_turn):
                n += 1
                recs = [{"id": f"m{n}a", "content": f"Lin likes city {n} in spring."},
                        {"id": f"m{n}b", "content": f"Lin flies economy on route {n}."}]
                with tracer.start_as_current_span("search_memory", attributes={
                        "gen_ai.operation.name": "search_memory",
                        "gen_ai.memory.query.text": f"trip {n}",
                        "gen_ai.memory.records": json.dumps(recs)}):
                    pass
                _chat(tracer, f"Lin likes city {n}.")
                _chat(tracer, "", tool_call={"type": "tool_call", "id": f"c{n}",
                                             "name": "search_flights",
                                             "arguments": {"route": n}})
                with tracer.start_as_current_span("execute_tool", attributes={
                        "gen_ai.operation.name": "execute_tool",
                        "gen_ai.tool.name": "search_flights", "gen_ai.tool.call.id": f"c{n}",
                        "gen_ai.tool.call.arguments": json.dumps({"route": n}),
                        "gen_ai.tool.call.result": f"flight F{n}"}):
                    pass
                with tracer.start_as_current_span("create_memory", attributes={
                        "gen_ai.operation.name": "create_memory",
                        "gen_ai.memory.record.id": f"w{n}",
                        "gen_ai.memory.content": f"Lin booked flight F{n} to city {n}."}):
                    pass
                _chat(tracer, f"Booked flight F{n} to city {n}.")
    provider.shutdown()


def write_one_read(path: Path, records: int) -> None:
    """An OTLP JSON trace whose one memory read returns `records` records."""
    def attr(key: str, value: str) -> dict:
        return {"key": key, "value": {"stringValue": value}}

    recs = [{"id": f"m{i}", "content": f"Lin likes city {i} in spring."}
            for i in range(records)]
    trace, root = "K6H0fp1998X0EiydPZrjag==", "6vo/X3Ksq9c="

    def span(sid: str, name: str, start: int, attrs: list[dict], parent: str | None) -> dict:
        return {"traceId": trace, "spanId": sid, "name": name, "kind": "SPAN_KIND_INTERNAL",
                **({"parentSpanId": parent} if parent else {}),
                "startTimeUnixNano": str(1796059008583000000 + start),
                "endTimeUnixNano": str(1796059008583000000 + start + 1000),
                "attributes": [attr("gen_ai.operation.name", name), *attrs], "status": {}}

    answer = [{"role": "assistant", "parts": [{"type": "text", "content": "Go to city 3."}]}]
    spans = [span(root, "invoke_agent", 0, [attr("user.id", "lin")], None),
             span("FzEuqNUtHuU=", "search_memory", 10,
                  [attr("gen_ai.memory.query.text", "trip"),
                   attr("gen_ai.memory.records", json.dumps(recs))], root),
             span("Z5kkoR2TOWo=", "chat", 20,
                  [attr("gen_ai.output.messages", json.dumps(answer))], root)]
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []},
                                                   "scopeSpans": [{"scope": {"name": "x"},
                                                                   "spans": spans}]}]}))


def write_mem0_history(path: Path, rows: int) -> None:
    """A Mem0 history database (Mem0's `history` table) of `rows` rows: one memory in
    two gets an ADD; of the others' rows, four in five are an UPDATE of an earlier memory
    and one in five a DELETE, as Mem0 appends them."""
    import sqlite3

    con = sqlite3.connect(path)
    con.execute("CREATE TABLE history (id TEXT PRIMARY KEY, memory_id TEXT, old_memory "
                "TEXT, new_memory TEXT, event TEXT, created_at DATETIME, updated_at "
                "DATETIME, is_deleted INTEGER, actor_id TEXT, role TEXT)")

    def made() -> Iterator[tuple]:
        memories = 0
        for n in range(rows):
            at = f"2026-01-01T00:00:{n % 60:02d}.{n:06d}"
            if n % 2 == 0 or memories == 0:
                mid = f"{memories:08x}-0000-4000-8000-000000000000"
                memories += 1
                yield (f"h{n}", mid, None, f"Lin likes city {n} in spring.", "ADD", at,
                       None, 0, None, "user")
            elif n % 10 != 9:
                mid = f"{(n * 7919) % memories:08x}-0000-4000-8000-000000000000"
                yield (f"h{n}", mid, "an earlier text", f"Lin now likes city {n}.",
                       "UPDATE", at, at, 0, None, "user")
            else:
                mid = f"{(n * 104729) % memories:08x}-0000-4000-8000-000000000000"
                yield (f"h{n}", mid, "an earlier text", None, "DELETE", None, None, 1,
                       None, None)

    with con:
        con.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", made())
    con.close()


def measure_mem0_history(path: Path, out: Path) -> dict:
    """`dgrr import --store HISTORY --out CASE` in a fresh process under `/usr/bin/time
    -v`: its peak resident set size and CPU seconds, the whole command."""
    done = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "repair_core",
                           "import", "--store", str(path), "--user", "lin", "--out",
                           str(out)], capture_output=True, text=True)
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if not line.startswith("\t")]
        raise SystemExit("dgrr import failed:\n" + "\n".join(said[-20:]))
    report = {}
    for line in done.stderr.splitlines():
        key, _, value = line.strip().rpartition(": ")
        report[key] = value
    rss_kb = int(report["Maximum resident set size (kbytes)"])
    cpu = float(report["User time (seconds)"]) + float(report["System time (seconds)"])
    return {"peak_rss_mb": round(rss_kb / 1024), "cpu_seconds": round(cpu, 1),
            "seconds": report["Elapsed (wall clock) time (h:mm:ss or m:ss)"],
            "case_mb": round(out.stat().st_size / 2**20, 1)}


def _chat(tracer, text: str, tool_call: dict | None = None) -> None:
    parts = [{"type": "text", "content": text}] if text else []
    if tool_call:
        parts.append(tool_call)
    with tracer.start_as_current_span("chat", attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": parts}])}):
        pass


def measure(path: Path, out: Path) -> dict:
    """Run `dgrr import` in a fresh process; wall seconds, peak RSS and what it made."""
    code = (
        "import resource, sys, time, json\n"
        "t = time.perf_counter()\n"
        "from repair_core.importers import import_trace\n"
        f"imp = import_trace([{str(path)!r}])\n"
        "wall = time.perf_counter() - t\n"
        "s = imp.summary\n"
        "ru = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(json.dumps({'seconds': round(wall, 2), "
        "'cpu_seconds': round(ru.ru_utime + ru.ru_stime, 2), "
        "'peak_rss_mb': round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), "
        "'spans': s.spans_read, 'steps': s.steps, 'records': s.records, "
        "'deps_given': s.deps_given, 'deps_inferred': s.deps_inferred}))\n")
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True)
    return json.loads(done.stdout)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="1000,10000,100000")
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--one-read", action="store_true",
                   help="one memory read returning --sizes records (no spans to speak of)")
    p.add_argument("--mem0-history", action="store_true",
                   help="a Mem0 history database of --sizes rows, imported alone "
                        "(dgrr import --store): peak RSS and CPU seconds by /usr/bin/time -v")
    a = p.parse_args()
    if a.mem0_history:
        with tempfile.TemporaryDirectory() as tmp:
            for size in (int(x) for x in a.sizes.split(",")):
                path = Path(tmp) / f"history-{size}.db"
                write_mem0_history(path, size)
                row = measure_mem0_history(path, Path(tmp) / "case.json")
                row.update(history_rows=size, file_mb=round(path.stat().st_size / 2**20, 1),
                           cpus=os.cpu_count(), python=platform.python_version(),
                           load_average_1min=round(os.getloadavg()[0], 1))
                print(json.dumps(row), flush=True)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(x) for x in a.sizes.split(",")):
            path = Path(tmp) / f"trace-{size}.otlp.jsonl"
            t = time.perf_counter()
            if a.one_read:
                write_one_read(path, size)
            else:
                write_trace(path, size, a.turns)
            made = time.perf_counter() - t
            row = measure(path, Path(tmp) / "case.json")
            row.update(**({"records_in_one_read": size} if a.one_read else
                          {"target_spans": size, "turns": a.turns}),
                       inferred_per_span=round(row["deps_inferred"] / row["spans"], 2),
                       file_mb=round(path.stat().st_size / 2**20, 1),
                       seconds_to_write_trace=round(made, 1),
                       cpus=os.cpu_count(), python=platform.python_version(),
                       load_average_1min=round(os.getloadavg()[0], 1))
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
