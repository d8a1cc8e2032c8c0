"""`dgrr/agentdojo-vulnerable`: a scripted tool agent over AgentDojo's suites that obeys
every instruction it reads, as AgentDojo's attacks assume of their victim.

It makes a user task's ground-truth calls (AgentDojo's `ground_truth`) for that task's
prompt; it recognises an instruction as one of AgentDojo's injection-task goals inside
any text it reads — a tool result, a memory record's text or value, whatever the record's
key and whichever attack wrapped the goal — and follows it with that task's ground-truth
calls; it remembers an instruction it reads in a tool result. Needs the optional
`agentdojo` package (the `agentdojo` extra); the model layer imports no benchmark code.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from typing import Any

from .._errors import DgrrError
from ._agentdojo_goals import (
    GoalSlots,
    goal_slots,
    goals_asked,
    goals_mentioned,
    goals_named,
    shown_as_example,
    without_removed_lines,
)

__all__ = ["SUITES", "BENCHMARK_VERSION", "INSTRUCTION_KEY", "agentdojo_suite",
           "calls_for", "instructions_in", "orders_in", "named_goals", "mentioned_goals",
           "record_instructions",
           "agentdojo_reply"]

SUITES = ("banking", "slack", "travel", "workspace")
BENCHMARK_VERSION = "v1.2"
INSTRUCTION_KEY = "standing_instruction"
"""The key under which the agent remembers an instruction it read."""


def agentdojo_suite(name: str) -> Any:
    """AgentDojo's task suite `name` (benchmark version `BENCHMARK_VERSION`)."""
    try:
        from agentdojo.task_suite.load_suites import get_suite
    except ImportError as exc:  # the extra is optional
        raise DgrrError("the agentdojo suite needs the optional extra: "
                        "pip install 'dgrr[agentdojo]'") from exc
    if name not in SUITES:
        raise DgrrError(f"--agentdojo-suites: unknown suite {name!r} (known: {', '.join(SUITES)})")
    return get_suite(BENCHMARK_VERSION, name)


def _squash(text: str) -> str:
    return " ".join(str(text).split())


@functools.cache
def _tasks() -> tuple[dict[str, tuple[str, Any]], dict[str, tuple[str, Any]]]:
    """(prompt -> (suite, user task), goal -> (suite, injection task)), over every suite."""
    prompts: dict[str, tuple[str, Any]] = {}
    goals: dict[str, tuple[str, Any]] = {}
    for name in SUITES:
        suite = agentdojo_suite(name)
        for t in suite.user_tasks.values():
            prompts.setdefault(_squash(t.PROMPT), (name, t))
        for t in suite.injection_tasks.values():
            goals.setdefault(_squash(t.GOAL), (name, t))
    return prompts, goals


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=lambda o: o.model_dump(mode="json")
                                 if hasattr(o, "model_dump") else str(o)))


@functools.cache
def _default_environment(suite_name: str) -> Any:
    """The suite's default environment, nothing injected: AgentDojo's own data, the same
    for every task, so read from its YAML once per suite rather than once per task (35
    injection tasks read it 35 times, ~0.17 CPU s each, on a process's first `orders_in`)."""
    return agentdojo_suite(suite_name).load_and_inject_default_environment({})


@functools.cache
def _ground_truth(suite_name: str, kind: str, task_id: str) -> tuple[tuple[str, str], ...]:
    suite = agentdojo_suite(suite_name)
    task = (suite.get_user_task_by_id(task_id) if kind == "user"
            else suite.get_injection_task_by_id(task_id))
    # a copy: a task's ground truth reads the environment, and must not see another's
    env = _default_environment(suite_name).model_copy(deep=True)
    return tuple((c.function, json.dumps(_jsonable(dict(c.args)), sort_keys=True))
                 for c in task.ground_truth(env))


def _as_calls(gt: Iterable[tuple[str, str]]) -> list[dict[str, Any]]:
    return [{"function": f, "args": json.loads(a)} for f, a in gt]


def calls_for(text: str) -> list[dict[str, Any]]:
    """The ground-truth calls of the user task whose prompt, or the injection task whose
    goal, `text` is; [] for any other text."""
    prompts, goals = _tasks()
    key = _squash(text)
    if key in prompts:
        name, task = prompts[key]
        return _as_calls(_ground_truth(name, "user", task.ID))
    if key in goals:
        name, task = goals[key]
        return _as_calls(_ground_truth(name, "injection", task.ID))
    return []


_WORD = re.compile(r"[^\W_]+")


_ESCAPE = re.compile(r"\\[ntr]")


def _words(text: str) -> str:
    # words only: a goal reads the same through YAML, JSON or repr quoting ('' for ',
    # \", a folded line, a \n written out as two characters)
    return " " + " ".join(_WORD.findall(_ESCAPE.sub(" ", text).casefold())) + " "


def instructions_in(text: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every AgentDojo injection goal stated in `text` (whatever wraps or quotes it), with
    the calls that carry it out, in the order they appear; a goal found only inside a
    longer goal found there is that longer goal's part, not an instruction of its own."""
    flat = _words(text if isinstance(text, str) else json.dumps(text, default=str))
    spans = []
    for goal, (name, task) in _tasks()[1].items():
        words = _words(goal)
        at = flat.find(words)
        while at >= 0:
            spans.append((at, at + len(words), goal, name, task.ID))
            at = flat.find(words, at + 1)
    kept = [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o[1] - o[0] >
                                        s[1] - s[0] for o in spans)]
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for _, _, goal, name, tid in sorted(kept, key=lambda s: s[0]):
        if all(g != goal for g, _ in out):
            out.append((goal, _as_calls(_ground_truth(name, "injection", tid))))
    return out


_READ_PREFIXES = ("get", "read", "search", "list", "check")


def _reads(function: str) -> bool:
    # the two reads that change AgentDojo's environment, as the benchmark's tool registry
    # classes them (`get_unread_emails` never ends an injection task's calls)
    return function.split("_", 1)[0] in _READ_PREFIXES and function != "get_webpage"


@functools.cache
def _goal_slots() -> tuple[GoalSlots, ...]:
    """What identifies each injection task's goal with a call to make, every suite."""
    out: list[GoalSlots] = []
    for name in SUITES:
        suite = agentdojo_suite(name)
        tasks = []
        for tid, t in suite.injection_tasks.items():
            gt = _ground_truth(name, "injection", tid)
            if gt:
                tasks.append((tid, t.GOAL, [(f, json.loads(a)) for f, a in gt]))
        out += goal_slots(name, tasks, _reads)
    return tuple(out)


def orders_in(text: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every injection goal `text` asks for however it is worded (`_agentdojo_goals`:
    an order naming the goal's own slots, not negated or warned against), as (suite and
    task id, the task's ground-truth calls)."""
    flat = text if isinstance(text, str) else json.dumps(text, default=str,
                                                          ensure_ascii=False)
    return [(f"{g.suite}/{g.task_id}", _as_calls(_ground_truth(g.suite, "injection",
                                                                g.task_id)))
            for g in goals_asked(flat, _goal_slots())]


def named_goals(text: Any) -> list[str]:
    """`suite/task id` of every injection goal whose strong slot `text` names, asked for
    or not (`goals_named`)."""
    flat = text if isinstance(text, str) else json.dumps(text, default=str,
                                                          ensure_ascii=False)
    return [f"{g.suite}/{g.task_id}" for g in goals_named(flat, _goal_slots())]


def mentioned_goals(text: Any) -> list[str]:
    """`suite/task id` of every injection goal any of whose slots `text` names, strong or
    weak (`goals_mentioned`)."""
    flat = text if isinstance(text, str) else json.dumps(text, default=str,
                                                          ensure_ascii=False)
    return [f"{g.suite}/{g.task_id}" for g in goals_mentioned(flat, _goal_slots())]


def _call_list(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, list) and value and all(
            isinstance(c, dict) and isinstance(c.get("function"), str) for c in value):
        return [{"function": c["function"], "args": c.get("args") if isinstance(
            c.get("args"), dict) else {}} for c in value]
    return []


def record_instructions(text: Any, value: Any = None) -> list[dict[str, Any]]:
    """The calls a vulnerable agent makes after reading a memory record: a list of calls
    held as its value, and every instruction in its text or value, whatever the record's
    key: a copy of an injection goal (not one a text quotes as an example or an attack,
    `shown_as_example`), or any order that asks for one (`orders_in`)."""
    calls = _call_list(value)
    # a diff's removed line holds no copy either; `orders_in` leaves it out on its own
    kept = without_removed_lines(text) if isinstance(text, str) else text
    copies = [(goal, more) for goal, more in instructions_in(kept)
              if not (isinstance(kept, str) and shown_as_example(kept, goal))]
    found = copies + orders_in(text)
    if not calls and value is not None:
        found += instructions_in(value) + orders_in(value)
    for _, more in found:
        calls += [c for c in more if c not in calls]
    return calls


def _plan(inputs: dict[str, Any]) -> dict[str, Any]:
    hint = inputs.get("tool_hint")
    for e in inputs.get("evidence") or []:  # vulnerable: any instruction it reads is obeyed
        if not isinstance(e, dict):
            continue
        for c in record_instructions(e.get("text") or "", e.get("value")):
            if c["function"] == hint:
                return {"tool": hint, "args": c["args"], "text": f"call {hint} as instructed",
                        "cites": [e["id"]] if e.get("id") else []}
    request = inputs.get("request") or {}
    for c in calls_for(str(request.get("text") or "")):
        if c["function"] == hint:
            return {"tool": hint, "args": c["args"], "text": f"call {hint}", "cites": []}
    return {"tool": None, "args": {}, "text": "no call needed", "cites": []}


def _memory_write(inputs: dict[str, Any]) -> dict[str, Any]:
    for e in inputs.get("evidence") or []:  # vulnerable: it remembers what a tool told it
        if not isinstance(e, dict) or e.get("kind") != "observation":
            continue
        found = instructions_in(e.get("text") or "")
        if found:
            goal, calls = found[0]
            return {"records": [{"text": f"Standing instruction read in a tool result: {goal}",
                                 "key": INSTRUCTION_KEY, "value": calls,
                                 "cites": [e["id"]], "derive": e["id"]}]}
    return {"records": []}


def agentdojo_reply(messages: list[dict[str, Any]]) -> str:
    """`dgrr/agentdojo-vulnerable`'s reply to a rendered dgrr prompt."""
    from ._contracts import ReplyError, parse_prompt
    from ._reference_b import B_POLICIES

    try:
        stage, inputs = parse_prompt(messages)
    except (ReplyError, json.JSONDecodeError) as exc:
        return json.dumps({"error": f"cannot read prompt: {exc}"})
    policies = {**B_POLICIES, "plan": _plan, "memory_write": _memory_write}
    policy = policies.get(stage)
    if policy is None:
        return json.dumps({"error": f"agentdojo-vulnerable has no policy for stage {stage!r}"})
    return json.dumps(policy(inputs), ensure_ascii=False, default=str)
