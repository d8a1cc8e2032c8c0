"""A scripted OpenAI-compatible model server on 127.0.0.1 for the framework fixtures
(scripts/framework_run.py, scripts/vercel_ai_run.py): the same travel story whatever the
framework, with real tool calls.

The story: Lin asks for their usual seat; the agent recalls Lin's memories (one is the
poisoned note "Lin prefers window seats."), books a window seat, saves what it learned
("Lin books window seats on long-haul flights.") and answers.

The server decides each reply from what the request's messages already hold (the tool
results' markers, wherever the framework put them: `role: tool` messages, user messages,
text), not from a counter, so a framework that retries, condenses or re-sends history
still gets the next step of the story:

- nothing recalled yet -> a `recall_memory` tool call (ADK: `load_memory`; Strands'
  memory manager: `search_memory`);
- recalled, not booked -> `book_seat`; booked, not saved -> `save_memory` (Strands:
  `add_memory` with a list of entries);
- all done -> the answer (as text, or as a `final_answer` tool call when the request
  offers that tool, as smolagents does);
- a request without tools -> the answer as text (a chat engine over retrieved context);
  one whose prompt asks for `<code>` blocks (smolagents' CodeAgent) -> the same steps as
  code that calls the tools, then `final_answer(...)`.

`/v1/embeddings` answers with a hashed bag of words (64 numbers), so a vector index over
the story's texts retrieves by shared words. Chat replies stream (`"stream": true`, SSE
chunks as OpenAI sends them) or not. This is not `dgrr serve-model`, which answers only
dgrr's own prompts.

    python3 scripts/story_model.py --port 8790      # serve until interrupted
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

QUESTION = "Book my usual seat on the Friday flight to Tokyo."
POISONED = "Lin prefers window seats."
AIRPORT = "Lin's home airport is SFO."
LEARNED = "Lin books window seats on long-haul flights."
ANSWER = "Booked JL1 to Tokyo on Friday, window seat 31A."
MEMORIES = [{"id": "mem-seat", "memory": POISONED}, {"id": "mem-airport", "memory": AIRPORT}]
"""What the recall tool returns (the poisoned note is `mem-seat`)."""
BOOKING = {"confirmation": "BK-7731", "flight": "JL1", "seat": "31A"}
"""What the booking tool returns."""
SAVED = {"id": "mem-habit"}
"""What the save tool returns: the id of the memory it wrote."""
BOOK_ARGS = {"flight": "JL1", "seat": "31A"}
RECALL_ARGS = {"query": "Lin seat preference"}
SAVE_ARGS = {"text": LEARNED}

_MARKERS = {"recall": (POISONED,), "book": ("BK-7731",), "save": ("mem-habit", "call_save")}
"""What shows a step was done: its tool's result, or (a save whose store names the memory
by an id of its own) the call's id in the history."""


RECHECK = "What do you remember about my seats?"
"""A later turn that only reads memory back (the langmem run asks it after the story)."""
RECHECK_ANSWER = "You book window seats on long-haul flights."


def next_step(body: dict[str, Any]) -> dict[str, Any]:
    """The assistant message that answers a chat completion request."""
    seen = json.dumps(body.get("messages", []))
    if RECHECK in seen:
        searched = "call_recheck" in seen
        return {"role": "assistant", "content": RECHECK_ANSWER} if searched else \
            _call("call_recheck", "search_memory", {"query": "seats"})
    offered = [t.get("function", t).get("name") for t in body.get("tools") or []
               if isinstance(t, dict)]
    # a plugin's functions are offered under the plugin's name (Semantic Kernel:
    # `LinPlugin-recall_memory`): the story calls them by their own name, as offered
    as_offered = {str(n).rsplit("-", 1)[-1]: n for n in offered if isinstance(n, str)}
    tools = list(as_offered)
    if not tools and "<code>" in seen:  # a code-writing agent (smolagents' CodeAgent)
        return {"role": "assistant", "content": _code_step(seen)}
    if not tools:
        return {"role": "assistant", "content": ANSWER}
    recall = next((n for n in ("recall_memory", "load_memory", "search_memory") if n in tools),
                  "recall_memory")
    save, save_args = (("add_memory", {"entries": [LEARNED]})
                       if "add_memory" in tools and "save_memory" not in tools
                       else ("manage_memory", {"content": LEARNED, "action": "create"})
                       if "manage_memory" in tools and "save_memory" not in tools
                       else ("save_memory", SAVE_ARGS))
    for step, name, args in (("recall", recall, RECALL_ARGS), ("book", "book_seat", BOOK_ARGS),
                             ("save", save, save_args)):
        if not any(marker in seen for marker in _MARKERS[step]) and name in tools:
            return _call(f"call_{step}", as_offered[name], args)
    if "final_answer" in tools:
        return _call("call_final", "final_answer", {"answer": ANSWER})
    return {"role": "assistant", "content": ANSWER}


def _code_step(seen: str) -> str:
    """The next step of the story as code a code-writing agent runs: each tool called from
    the code, its result printed (the next request's observation shows it)."""
    for step, code in (
            ("recall", f"memories = recall_memory(query={RECALL_ARGS['query']!r})\n"
                       "print(memories)"),
            ("book", f"booking = book_seat(flight={BOOK_ARGS['flight']!r}, "
                     f"seat={BOOK_ARGS['seat']!r})\nprint(booking)"),
            ("save", f"print(save_memory(text={LEARNED!r}))")):
        if not any(marker in seen for marker in _MARKERS[step]):
            return f"Thought: the {step} step.\n<code>\n{code}\n</code>"
    return f"Thought: done.\n<code>\nfinal_answer({ANSWER!r})\n</code>"


def _call(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": name, "arguments": json.dumps(args)}}]}


def embed(text: str, size: int = 64) -> list[float]:
    """A hashed bag of words, unit length."""
    vec = [0.0] * size
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vec[int(hashlib.sha256(word.encode()).hexdigest(), 16) % size] += 1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def _send(self, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        self._send({"object": "list", "data": [{"id": "gpt-4o-mini", "object": "model"}]})

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path.rstrip("/").endswith("/embeddings"):
            inputs = body.get("input")
            inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
            self._send({"object": "list", "model": body.get("model", "embed"),
                        "data": [{"object": "embedding", "index": i, "embedding": embed(str(t))}
                                 for i, t in enumerate(inputs)],
                        "usage": {"prompt_tokens": 1, "total_tokens": 1}})
            return
        message = next_step(body)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        usage = {"prompt_tokens": 12, "completion_tokens": 9, "total_tokens": 21}
        if not body.get("stream"):
            self._send({"id": "chatcmpl-story", "object": "chat.completion", "created": 1,
                        "model": body.get("model", "gpt-4o-mini"),
                        "choices": [{"index": 0, "message": message,
                                     "finish_reason": finish}], "usage": usage})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        delta: dict[str, Any] = {"role": "assistant"}
        if message.get("content"):
            delta["content"] = message["content"]
        if message.get("tool_calls"):
            delta["tool_calls"] = [{"index": i, **c}
                                   for i, c in enumerate(message["tool_calls"])]
        chunks = [{"index": 0, "delta": delta, "finish_reason": None},
                  {"index": 0, "delta": {}, "finish_reason": finish}]
        for n, choice in enumerate(chunks):
            chunk = {"id": "chatcmpl-story", "object": "chat.completion.chunk", "created": 1,
                     "model": body.get("model", "gpt-4o-mini"), "choices": [choice]}
            if n == len(chunks) - 1:
                chunk["usage"] = usage
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


def start(port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """The server on 127.0.0.1 in a daemon thread, and its base URL (`.../v1`)."""
    server = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    srv, url = start(args.port)
    print(url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        srv.shutdown()
