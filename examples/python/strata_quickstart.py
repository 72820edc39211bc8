#!/usr/bin/env python3
"""strata over HTTP from Python, standard library only: a session, its context, search, facts, and forgetting it.

    STRATA_URL=http://127.0.0.1:8787 STRATA_API_KEY=sk_strata_... python3 examples/python/strata_quickstart.py

Start a server first (`strata serve`) and make a key for it
(`strata keys create --namespace py-demo --scope read,write,forget`). Without STRATA_API_KEY the
requests carry no Authorization header, which a server in open mode (loopback, no keys) accepts.
STRATA_NAMESPACE names the namespace when the key does not imply one (open mode, a prefix key).
Every failed answer of the server is an application/problem+json document (RFC 9457); this
script raises it as StrataProblem and exits 1 on any answer it did not expect.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any


class StrataProblem(Exception):
    """A problem document the server answered: its code (NOT_FOUND, UNAUTHORIZED...), detail and hint."""

    def __init__(self, method: str, path: str, status: int, problem: dict[str, Any]) -> None:
        self.method = method
        self.path = path
        self.status = status
        self.code = str(problem.get("code", "UNKNOWN"))
        self.detail = str(problem.get("detail", problem.get("title", "")))
        self.hint = str(problem.get("hint", ""))
        super().__init__(f"{method} {path} answered {status} {self.code}: {self.detail}\n  hint: {self.hint}")


class UnexpectedAnswer(Exception):
    """An answer that is neither what the step expects nor a problem document."""


class StrataClient:
    """The few calls this script makes, as plain JSON over urllib."""

    def __init__(self, url: str, api_key: str | None) -> None:
        self.url = url.rstrip("/")
        self.api_key = api_key

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, expect: tuple[int, ...] = (200,)) -> tuple[int, dict[str, str], Any]:
        """Sends one request; returns (status, headers, JSON body) when the status is expected, else raises."""
        sent = {"accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            sent["content-type"] = "application/json"
        if self.api_key:
            sent["authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, answer_headers, raw = response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as error:
            status, answer_headers, raw = error.code, dict(error.headers.items()), error.read()
        except urllib.error.URLError as error:
            raise UnexpectedAnswer(f"{method} {path}: no answer from {self.url} ({error.reason}); is `strata serve` running there?") from error
        content_type = {k.lower(): v for k, v in answer_headers.items()}.get("content-type", "")
        document = json.loads(raw) if raw and "json" in content_type else raw.decode("utf-8", "replace")
        if status in expect:
            return status, {k.lower(): v for k, v in answer_headers.items()}, document
        if content_type.startswith("application/problem+json") and isinstance(document, dict):
            raise StrataProblem(method, path, status, document)
        raise UnexpectedAnswer(f"{method} {path} answered {status} ({content_type or 'no content type'}): {str(document)[:300]}")


def check(condition: bool, what: str) -> None:
    """Stops the script when an answer is not what the API promises."""
    if not condition:
        raise UnexpectedAnswer(what)


def run(client: StrataClient, namespace: str | None) -> None:
    scope = {"namespace": namespace} if namespace else {}
    query = f"?namespace={urllib.parse.quote(namespace)}" if namespace else ""

    status, _, session = client.call("POST", "/v1/sessions", {**scope, "title": "Python quickstart"}, expect=(201,))
    session_id = session["id"]
    print(f"created session {session_id} in namespace {session['namespace']}")

    turns = [
        {"role": "user", "content": "Hi! I live in Lisbon and I work as a nurse."},
        {"role": "assistant", "content": "Nice to meet you! Lisbon is lovely."},
        {"role": "user", "content": "My cat is called Miso and she hates the tram."},
        {"role": "assistant", "content": "Miso sounds like a character."},
    ]
    key = str(uuid.uuid4())
    path = f"/v1/sessions/{session_id}/messages"
    status, _, appended = client.call("POST", path, {"messages": turns}, headers={"idempotency-key": key}, expect=(201,))
    for message in appended["messages"]:
        print(f"appended #{message['seq']} {message['role']}: {message['content']}")
    # a retry of the same request (same Idempotency-Key) stores nothing twice
    status, headers, replayed = client.call("POST", path, {"messages": turns}, headers={"idempotency-key": key}, expect=(200,))
    same = [m["id"] for m in replayed["messages"]] == [m["id"] for m in appended["messages"]]
    check(same and headers.get("idempotent-replayed") == "true", f"a repeated append was not a replay: {status} {headers}")
    print(f"retried the append with the same Idempotency-Key: {status}, Idempotent-Replayed: {headers['idempotent-replayed']}, same {len(replayed['messages'])} messages")

    # summaries, facts and vectors are derived in the background; flush waits until they are applied
    _, _, flushed = client.call("POST", "/v1/flush", {})
    check(flushed["settled"] is True, f"derivation did not settle: {flushed['pending']}")
    print(f"flushed: derivation settled, {len(flushed['pending'])} job(s) left")

    _, _, context = client.call("POST", f"/v1/sessions/{session_id}/context", {"query": "Where do I live?", "budgetTokens": 400})
    print(f"\ncontext for \"{context['query']}\" ({context['tokens']}/{context['budgetTokens']} tokens, {len(context['messages'])} messages)")
    memory = [m for m in context["messages"] if m.get("memory") is True]
    for message in memory:
        print("  memory system message:\n    " + message["content"].replace("\n", "\n    "))
    if not memory:
        print("  (no memory system message: the turns fit as they are)")
    print("  manifest, included items:")
    for item in (i for i in context["manifest"] if i["included"]):
        print(f"    {item['kind']} ({item['tier']}, {item['tokens']} tokens): {item['reason']}")
    check(any(i["included"] for i in context["manifest"]), "the context includes nothing")

    _, _, found = client.call("POST", "/v1/search", {**scope, "query": "cat", "k": 3})
    print("\nsearch \"cat\":")
    for hit in found["hits"]:
        print(f"  {hit['kind']} {hit['score']:.3f}: {hit['text']}")
    check(len(found["hits"]) > 0, "search found nothing")

    _, _, facts = client.call("GET", f"/v1/facts{query}")
    print("\nfacts:")
    for fact in facts["facts"]:
        print(f"  {fact['text']} (from {len(fact['sourceMessageIds'])} message(s))")

    _, _, report = client.call("DELETE", f"/v1/sessions/{session_id}")
    print(f"\nforgot session {session_id}: {report['messages']} messages, {report['facts']} facts, {report['summaries']} summaries")
    try:
        client.call("GET", f"/v1/sessions/{session_id}")
    except StrataProblem as problem:
        check(problem.status == 404 and problem.code == "NOT_FOUND", f"GET of a forgotten session: {problem}")
        print(f"GET /v1/sessions/{session_id} now answers {problem.status} {problem.code}: {problem.detail}")
        print(f"  hint: {problem.hint}")
        return
    raise UnexpectedAnswer(f"GET /v1/sessions/{session_id} still answers 200 after the session was forgotten")


def main() -> int:
    url = os.environ.get("STRATA_URL") or "http://127.0.0.1:8787"
    client = StrataClient(url, os.environ.get("STRATA_API_KEY") or None)
    try:
        run(client, os.environ.get("STRATA_NAMESPACE") or None)
    except (StrataProblem, UnexpectedAnswer) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
