"""``describe``: real servers written with the official SDK (tests/servers/), over stdio and
streamable HTTP, described, checked for drift and refreshed; and every way it can fail."""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from mcpdesc_docs.describe.write import SERVER_OWNED, resolved

from . import listening
from .raw_listing import stdio_listing
from .sites import build, load_data, run

SERVER = Path(__file__).parent / "servers" / "helpdesk_server.py"
NEWEST_HANDSHAKE = "2025-11-25"


def stdio(*extra: str) -> str:
    return shlex.join([sys.executable, str(SERVER), "stdio", *extra])


@pytest.fixture
def http_server() -> Iterator[str]:
    with listening.http_server(lambda port: [sys.executable, str(SERVER), "http", str(port)]) as url:
        yield url


def raw_listing(version: str = NEWEST_HANDSHAKE) -> dict[str, list[dict]]:
    """What the server lists, read in raw JSON-RPC by an independent client."""
    listing = stdio_listing([sys.executable, str(SERVER), "stdio"], version, {})
    return {c: listing[c] for c in ("tools", "resources", "resourceTemplates", "prompts")}


def at_version(declarations: list[dict], version: str) -> list[dict]:
    """The declarations that apply at ``version``, without their scope."""
    return [
        {k: v for k, v in d.items() if k != "protocolVersions"}
        for d in declarations
        if version in d.get("protocolVersions", [version])
    ]


def describe_to(path: Path, *extra: str) -> tuple[str, str]:
    code, out, err = run("describe", "--stdio", stdio(*extra), "-o", str(path))
    assert code == 0, out + err
    return out, err


@pytest.mark.timeout(300)
def test_a_stdio_server_is_described_validly_and_exactly(tmp_path):
    target = tmp_path / "helpdesk.mcpdesc.yaml"
    _, err = describe_to(target)
    data = load_data(target)
    assert data["mcpdesc"] == "0.9.0"
    # Modern by default: the versions from 2025-06-18 on; the legacy ones are named, not recorded.
    assert data["protocolVersions"] == ["2025-06-18", "2025-11-25", "2026-07-28"]
    assert "2024-11-05, 2025-03-26 not tried" in err
    assert data["info"] == {
        "name": "helpdesk",
        "title": "Helpdesk",
        "version": "1.4.0",
        "websiteUrl": "https://helpdesk.example/",
    }
    assert data["instructions"] == "Search before you create a ticket."
    assert data["transports"] == [{"type": "stdio", "command": sys.executable, "args": [str(SERVER), "stdio"]}]
    listed = raw_listing()
    data = resolved(data)  # the schemas variants share are written once, in components
    for collection, items in listed.items():
        owned = [{k: v for k, v in item.items() if k in SERVER_OWNED[collection]} for item in items]
        assert at_version(data[collection], NEWEST_HANDSHAKE) == owned, collection
    create = at_version(data["tools"], NEWEST_HANDSHAKE)[0]
    assert create["inputSchema"]["$defs"]["Reporter"]["properties"]["name"] == {"title": "Name", "type": "string"}
    assert create["inputSchema"]["properties"]["priority"]["enum"] == ["low", "normal", "urgent"]
    assert create["outputSchema"]["properties"]["status"] == {"title": "Status", "type": "string"}
    assert create["annotations"] == {"destructiveHint": False, "idempotentHint": False}
    text = target.read_text(encoding="utf-8")
    for invented in ("elicitations", "security", "examples", "tags"):
        assert invented not in text
    assert "docs/from-a-server.md" in err
    code, out, _ = run("validate", "--strict", str(target), "--format", "json")
    assert code == 0, out
    assert json.loads(out)["diagnostics"] == []
    code, out, err = build(target, tmp_path / "site", "--strict")
    assert code == 0, out + err
    assert (tmp_path / "site" / "tools" / "create_ticket.html").is_file()
    assert (tmp_path / "site" / "resource-templates" / "ticket.html").is_file()


@pytest.mark.timeout(300)
def test_standard_output_and_json(tmp_path):
    code, out, _ = run("describe", "--stdio", stdio())
    assert code == 0
    assert yaml.safe_load(out)["info"]["name"] == "helpdesk"
    target = tmp_path / "helpdesk.mcpdesc.json"
    describe_to(target)
    assert load_data(target) == yaml.safe_load(out)
    assert target.read_text(encoding="utf-8").startswith("{")


@pytest.mark.timeout(300)
def test_a_streamable_http_server_is_described(tmp_path, http_server):
    target = tmp_path / "helpdesk.mcpdesc.yaml"
    code, out, err = run("describe", "--url", http_server, "--header", "X-Trace: describe-test", "-o", str(target))
    assert code == 0, out + err
    data = load_data(target)
    assert data["transports"] == [{"type": "streamable-http", "url": http_server}]
    # Each version in a session of its own: every one from 2025-06-18 on is recorded.
    assert data["protocolVersions"] == ["2025-06-18", "2025-11-25", "2026-07-28"]
    assert "2024-11-05, 2025-03-26 not tried" in err
    assert [t["name"] for t in at_version(data["tools"], NEWEST_HANDSHAKE)] == [
        "create_ticket",
        "search_tickets",
        "delete_ticket",
    ]
    assert run("validate", str(target))[0] == 0
    assert run("describe", "--url", http_server, "--check", str(target))[0] == 0


@pytest.mark.timeout(300)
def test_check_is_0_when_the_server_matches_and_1_with_every_difference_named(tmp_path):
    target = tmp_path / "helpdesk.mcpdesc.yaml"
    describe_to(target)
    assert run("describe", "--stdio", stdio(), "--check", str(target))[0] == 0
    code, out, err = run("describe", "--stdio", stdio("--changed"), "--check", str(target))
    assert code == 1
    lines = out.splitlines()
    # Each change once per primitive (not per variant), where it stands, with both values.
    assert sum("removed tool 'delete_ticket'" in line for line in lines) == 1, out
    assert sum("added tool 'close_ticket'" in line for line in lines) == 1, out
    version = lines.index(next(line for line in lines if "changed info /version [/info/version]" in line))
    assert lines[version + 1 : version + 3] == ['    was: "1.4.0"', '    now: "2.0.0"'], out
    limit = [line for line in lines if "'search_tickets' /inputSchema/properties/limit [" in line]
    assert len(limit) == 1, out
    reworded = lines.index(next(line for line in lines if "changed tool 'search_tickets' /description" in line))
    assert lines[reworded + 1] == '    - "Find tickets matching a query."', out
    assert lines[reworded + 2] == '    + "Find tickets matching the words of a query, newest first."', out
    # The server was started with other arguments: transports are compared too.
    assert any("changed transport /args" in line for line in lines), out
    assert "differs from the server: 6 differences (1 added, 1 removed, 4 changed)" in err


HAND_WRITTEN = {
    "tags": [{"name": "tickets", "description": "Everything about tickets."}],
    "x-owner": "support platform team",
}
ELICITATION = {
    "name": "confirm_priority",
    "mode": "form",
    "message": "Is this really urgent?",
    "requestedSchema": {"type": "object", "properties": {"urgent": {"type": "boolean"}}, "required": ["urgent"]},
}


def hand_edit(path: Path) -> None:
    """What an author adds to a generated description, by hand, as text (with a comment)."""
    data = load_data(path)
    newest = next(
        t
        for t in data["tools"]
        if "2026-07-28" in t.get("protocolVersions", ["2026-07-28"]) and t["name"] == "create_ticket"
    )
    newest["tags"] = ["tickets"]
    newest["elicitations"] = [ELICITATION]
    data.update(HAND_WRITTEN)
    text = "# Helpdesk, described from the server and kept by hand.\n" + yaml.safe_dump(data, sort_keys=False)
    path.write_text(text, encoding="utf-8")


@pytest.mark.timeout(300)
def test_update_refreshes_the_server_s_part_and_keeps_the_author_s(tmp_path):
    target = tmp_path / "helpdesk.mcpdesc.yaml"
    describe_to(target)
    hand_edit(target)
    assert run("validate", str(target))[0] == 0
    before = target.read_text(encoding="utf-8")
    code, out, err = run("describe", "--stdio", stdio("--changed"), "--update", str(target))
    assert code == 0, out + err
    assert err.count("dropped tool 'delete_ticket': the server no longer lists it") == 1
    assert err.count("added tool 'close_ticket'") == 1
    after = target.read_text(encoding="utf-8")
    assert after.startswith("# Helpdesk, described from the server and kept by hand.\n")
    data = load_data(target)
    assert data["info"]["version"] == "2.0.0"
    assert data["tags"] == HAND_WRITTEN["tags"]
    assert data["x-owner"] == HAND_WRITTEN["x-owner"]
    create = [t for t in data["tools"] if t["name"] == "create_ticket" and "elicitations" in t]
    assert len(create) == 1
    assert create[0]["elicitations"] == [ELICITATION]
    assert create[0]["tags"] == ["tickets"]
    names = {t["name"] for t in data["tools"]}
    assert names == {"create_ticket", "search_tickets", "close_ticket"}
    search = at_version(data["tools"], NEWEST_HANDSHAKE)[1]
    assert search["inputSchema"]["properties"]["limit"]["maximum"] == 50
    # Lines of tools the server did not change are the author's, untouched.
    unchanged = [line for line in before.splitlines() if "helpdesk://queues" in line]
    assert unchanged
    assert all(line in after.splitlines() for line in unchanged)
    assert run("validate", str(target))[0] == 0
    assert run("describe", "--stdio", stdio("--changed"), "--check", str(target))[0] == 0
    code, _, err = run("describe", "--stdio", stdio("--changed"), "--update", str(target))
    assert code == 0
    assert "is up to date" in err
    assert target.read_text(encoding="utf-8") == after


@pytest.mark.timeout(300)
def test_update_leaves_the_file_untouched_when_the_result_would_be_invalid(tmp_path):
    target = tmp_path / "helpdesk.mcpdesc.yaml"
    one = ("--protocol-version", "2025-11-25")
    assert run("describe", "--stdio", stdio(), *one, "-o", str(target))[0] == 0
    data = load_data(target)
    assert data["protocolVersions"] == ["2025-11-25"]
    # An example that holds for the schema today and breaks the server's new bound on limit.
    search = next(t for t in data["tools"] if t["name"] == "search_tickets")
    search["examples"] = {
        "many": {
            "input": {"query": "printer", "limit": 500},
            "result": {"content": [{"type": "text", "text": "[]"}], "structuredContent": {"result": []}},
        }
    }
    target.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert run("validate", str(target))[0] == 0
    before = target.read_bytes()
    code, out, err = run("describe", "--stdio", stdio("--changed"), *one, "--update", str(target))
    assert code == 1, out + err
    assert "/tools/1/examples/many" in out
    assert "was left as it was" in err
    assert target.read_bytes() == before


def pid_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def fake_server(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake_server.py"
    script.write_text(f"import os, sys, time\nopen({str(tmp_path / 'pid')!r}, 'w').write(str(os.getpid()))\n{body}\n")
    return shlex.join([sys.executable, str(script)])


@pytest.mark.parametrize(
    ("body", "timeout", "says"),
    [
        ("print('starting up', file=sys.stderr); sys.exit(3)", "20", "closed"),
        ("print('listening...', file=sys.stderr, flush=True); time.sleep(600)", "1", "no complete answer within 1 s"),
        ("print('HTTP/1.1 200 OK', flush=True); time.sleep(600)", "20", "does not speak MCP"),
    ],
    ids=["exits", "never-answers", "speaks-something-else"],
)
def test_a_server_that_cannot_be_described_is_one_sentence_and_is_reaped(tmp_path, body, timeout, says):
    # Only the server that never answers waits out its --timeout; the others end sooner,
    # and each says why in its own words (so none of them was ended by the timeout).
    code, out, err = run("describe", "--stdio", fake_server(tmp_path, body), "--timeout", timeout)
    assert code == 2
    assert out == ""
    assert says in err, err
    assert "Traceback" not in err
    assert err.startswith("mcpdesc-docs: error: ")
    assert pid_gone(int((tmp_path / "pid").read_text()))
    if "stderr" in body:
        assert ("starting up" in err) or ("listening..." in err)


def test_nothing_listening_and_no_such_command_exit_2(tmp_path):
    code, _out, err = run("describe", "--url", f"http://127.0.0.1:{listening.free_port()}/mcp", "--timeout", "5")
    assert code == 2
    assert "nothing answered" in err, err
    assert "Traceback" not in err
    code, _, err = run("describe", "--stdio", str(tmp_path / "no-such-server"))
    assert code == 2
    assert "no such command" in err


def test_usage_errors():
    assert run("describe")[0] == 2
    assert run("describe", "--stdio", "x", "--url", "http://127.0.0.1:1/")[0] == 2
    code, _, err = run("describe", "--stdio", "'unclosed")
    assert code == 2
    assert "--stdio" in err
    code, _, err = run("describe", "--url", "http://127.0.0.1:1/", "--header", "no colon")
    assert code == 2
    assert "Name: value" in err


@pytest.mark.timeout(300)
def test_a_declaration_scoped_by_hand_stays_so_and_check_agrees_with_update(tmp_path):
    target = tmp_path / "helpdesk.mcpdesc.json"
    describe_to(target)
    data = load_data(target)
    # The author says the triage prompt exists from 2025-11-25 on only.
    (prompt,) = data["prompts"]
    data["prompts"] = [{**prompt, "protocolVersions": ["2025-11-25", "2026-07-28"]}]
    target.write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")
    assert run("describe", "--stdio", stdio(), "--check", str(target))[0] == 0
    code, out, err = run("describe", "--stdio", stdio("--changed"), "--update", str(target))
    assert code == 0, out + err
    text = target.read_text(encoding="utf-8")
    assert text.startswith('{\n    "$schema"')  # the file's own indentation
    updated = json.loads(text)
    assert updated["prompts"] == data["prompts"]
    assert run("describe", "--stdio", stdio("--changed"), "--check", str(target))[0] == 0
