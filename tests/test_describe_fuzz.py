"""``describe`` driven by a server whose answers hypothesis makes up: listings of every
shape (valid, broken, nonsense), errors, pagination. Whatever the server says, describe
exits 0, 1 or 2 with what it printed bounded, never with a traceback, and a file it writes
reads back as a description. The server is in-process (a scripted transport), so each case
costs milliseconds; the transports themselves are exercised by test_describe_hostile."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.cli import main
from mcpdesc_docs.describe import connect
from mcpdesc_docs.describe.budget import Budget
from mcpdesc_docs.describe.transport import Message, Transport
from mcpdesc_docs.source.load import read_source

pytestmark = pytest.mark.slow

WORDS = ["read", "écrire", "a b", "", "\u202e", "x" * 150, "line\nline", "#", "{}", "null", "0"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.sampled_from([0.5, -1.0, 1e300]), st.sampled_from(WORDS)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(WORDS), inner, max_size=3),
    max_leaves=8,
)
schemas = st.one_of(
    values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["object", "string", None])},
        optional={"properties": st.dictionaries(st.sampled_from(WORDS), values, max_size=3), "$schema": values},
    ),
)
tools = st.one_of(
    values,
    st.fixed_dictionaries(
        {"name": st.one_of(st.sampled_from(["t", "u", "search", ""]), values)},
        optional={
            "inputSchema": schemas,
            "outputSchema": schemas,
            "title": values,
            "description": values,
            "annotations": values,
            "icons": values,
            "_meta": values,
            "execution": values,
        },
    ),
)
answers = st.fixed_dictionaries(
    {
        "initialize": st.one_of(
            st.just("accept"), st.just("refuse"), st.just("error"), values.map(lambda v: ("raw", v))
        ),
        "tools": st.one_of(st.lists(tools, max_size=6), values),
        "cursor": st.one_of(st.none(), st.sampled_from(["next", ""]), values),
        "info": st.one_of(values, st.fixed_dictionaries({"name": values, "version": values})),
        "instructions": values,
    }
)


class ScriptedTransport:
    """A server that answers from ``script``, in process."""

    def __init__(self, script: dict[str, Any]) -> None:
        self.script = script
        self.headers: dict[str, str] = {}
        self.version: object = None

    def _result(self, message: Message) -> Message:
        method = message.get("method")
        params = message.get("params") or {}
        if method == "initialize":
            self.version = params.get("protocolVersion")
            how = self.script["initialize"]
            if how == "refuse":
                return {"protocolVersion": "1999-01-01", "capabilities": {}}
            if how == "error":
                raise KeyError(method)
            if isinstance(how, tuple):
                return how[1]  # type: ignore[no-any-return]
            return {
                "protocolVersion": self.version,
                "capabilities": {"tools": {}},
                "serverInfo": self.script["info"],
                "instructions": self.script["instructions"],
            }
        if method == "tools/list":
            page: Message = {"tools": self.script["tools"]}
            if params.get("cursor") is None and self.script["cursor"] is not None:
                page["nextCursor"] = self.script["cursor"]
            return page
        raise KeyError(method)

    def exchange(self, message: Message) -> Iterator[Message]:
        try:
            result = self._result(message)
        except KeyError:
            yield {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}}
            return
        yield {"jsonrpc": "2.0", "id": message["id"], "result": result}

    def post(self, message: Message) -> None:
        pass

    def close(self) -> None:
        pass

    def stderr_lines(self) -> tuple[str, ...]:
        return ()


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=answers)
def test_whatever_the_server_says_describe_ends_cleanly(
    script: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def scripted(self: connect.Target, budget: Budget) -> Transport:
        return ScriptedTransport(script)

    monkeypatch.setattr(connect.Target, "open", scripted)
    target = tmp_path / "out.yaml"
    target.unlink(missing_ok=True)
    out, err = io.StringIO(), io.StringIO()
    code = main(["describe", "--stdio", "scripted", "-o", str(target)], stdout=out, stderr=err)
    assert code in (0, 1, 2)
    assert "Traceback" not in err.getvalue()
    assert "internal error" not in err.getvalue()
    assert len(err.getvalue()) < 40_000
    if code == 2:
        assert err.getvalue().startswith("mcpdesc-docs: error: ")
        assert not target.exists()
    else:
        assert isinstance(read_source(target).data, dict)
