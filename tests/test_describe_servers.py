"""``describe --servers``: every server of a client's servers file (the ``mcpServers`` map)
described into one folder, checked against it, and every way the file can be wrong."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from mcpdesc_docs.describe.servers_file import file_stem

from . import listening
from .sites import load_data, run

SERVER = Path(__file__).parent / "servers" / "helpdesk_server.py"
SECRET = "s3cret-value-never-shown"
ONE_VERSION = ("--protocol-version", "2025-11-25")
"""One session per server where the test is about the folder, not the versions."""


def helpdesk(*extra: str, **members: object) -> dict[str, object]:
    return {"command": sys.executable, "args": [str(SERVER), "stdio", *extra], **members}


def servers_file(tmp_path: Path, servers: dict[str, object], key: str = "mcpServers") -> Path:
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({key: servers}, indent=2) + "\n", encoding="utf-8")
    return path


def where(path: Path, name: str) -> str:
    """``FILE:LINE:COLUMN`` of a server's name in a file ``servers_file`` wrote."""
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line.startswith(f'    "{name}"'))
    return f"{path}:{number}:5"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_each_server_is_described_into_the_folder_and_a_failing_one_is_one_located_line(tmp_path):
    servers = servers_file(
        tmp_path,
        {
            "Help Desk": helpdesk(env={"HELPDESK_TOKEN": SECRET}),
            "broken": {"command": str(tmp_path / "no-such-server"), "env": {"TOKEN": SECRET}},
            "../next release": helpdesk("--changed"),
        },
    )
    folder = tmp_path / "portal" / "servers"
    code, out, err = run("describe", "--servers", str(servers), "-o", str(folder))
    assert code == 1, err
    assert sorted(p.name for p in folder.iterdir()) == [
        "help-desk.mcpdesc.yaml",
        "mcpdesc.schema.json",
        "next-release.mcpdesc.yaml",
    ]
    # Nothing leaves the folder, whatever the name says.
    assert sorted(p.name for p in (tmp_path / "portal").iterdir()) == ["servers"]
    assert load_data(folder / "help-desk.mcpdesc.yaml")["info"]["version"] == "1.4.0"
    assert load_data(folder / "next-release.mcpdesc.yaml")["info"]["version"] == "2.0.0"
    for name in ("help-desk", "next-release"):
        assert run("validate", "--strict", str(folder / f"{name}.mcpdesc.yaml"))[0] == 0
    failures = [line for line in err.splitlines() if ": error: " in line]
    assert failures == [
        where(servers, "broken") + f": error: server 'broken': {tmp_path}/no-such-server: no such command"
    ]
    assert "2 of 3 servers ok; not ok (above): 'broken'" in err
    assert SECRET not in out + err
    assert "Traceback" not in err
    # Written as one server is: the modeline names the schema written beside.
    assert (folder / "help-desk.mcpdesc.yaml").read_text(encoding="utf-8").startswith("# yaml-language-server")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_check_over_the_file_names_each_server_that_drifted_and_each_file_for_no_server(tmp_path):
    with listening.http_server(lambda port: [sys.executable, str(SERVER), "http", str(port)]) as url:
        listed = {"desk": helpdesk(), "remote": {"type": "http", "url": url, "headers": {"X-Token": SECRET}}}
        servers = servers_file(tmp_path, listed)
        folder = tmp_path / "servers"
        code, _, err = run("describe", "--servers", str(servers), *ONE_VERSION, "-o", str(folder))
        assert code == 0, err
        assert load_data(folder / "remote.mcpdesc.yaml")["transports"] == [{"type": "streamable-http", "url": url}]
        code, out, err = run("describe", "--servers", str(servers), *ONE_VERSION, "--check", str(folder))
        assert (code, out) == (0, ""), err
        assert "2 of 2 servers ok" in err

        remote = folder / "remote.mcpdesc.yaml"
        remote.write_text(remote.read_text(encoding="utf-8").replace("1.4.0", "1.3.9"), encoding="utf-8")
        (folder / "retired.mcpdesc.yaml").write_text("mcpdesc: 0.9.0\n", encoding="utf-8")
        code, out, err = run("describe", "--servers", str(servers), *ONE_VERSION, "--check", str(folder))
    assert code == 1
    assert f"{remote}: changed info /version [/info/version]" in out
    assert not any(line.startswith(str(folder / "desk.mcpdesc.yaml")) for line in out.splitlines()), out
    assert f"{folder / 'retired.mcpdesc.yaml'}: describes no server of {servers}" in out
    assert "1 of 2 servers ok; not ok (above): 'remote'" in err
    assert SECRET not in out + err

    # --update refreshes each file from its server; a file for no server is only said.
    with listening.http_server(lambda port: [sys.executable, str(SERVER), "http", str(port)]) as url:
        servers = servers_file(tmp_path, {**listed, "remote": {**listed["remote"], "url": url}})
        code, _, err = run("describe", "--servers", str(servers), *ONE_VERSION, "--update", str(folder))
        assert code == 0, err
        assert f"refreshed {remote}" in err
        assert "retired.mcpdesc.yaml describes no server" in err
        assert load_data(remote)["info"]["version"] == "1.4.0"
        (folder / "retired.mcpdesc.yaml").unlink()
        code, _, err = run("describe", "--servers", str(servers), *ONE_VERSION, "--check", str(folder))
        assert code == 0, err

    # A server whose file is missing is said, and not connected to.
    (folder / "desk.mcpdesc.yaml").unlink()
    code, out, err = run("describe", "--servers", str(servers), *ONE_VERSION, "--check", str(folder))
    assert code == 1
    assert where(servers, "desk") + f": error: server 'desk': {folder / 'desk.mcpdesc.yaml'}" in err
    assert "does not exist" in err


def test_a_server_is_given_the_file_s_env_and_the_inherited_few_only(tmp_path, monkeypatch):
    monkeypatch.setenv("MCPDESC_TEST_OUTER_SECRET", "outer")
    monkeypatch.setenv("MCPDESC_TEST_TOKEN", SECRET)
    dump = tmp_path / "env.json"
    script = tmp_path / "dump_env.py"
    script.write_text(f"import json, os\njson.dump(dict(os.environ), open({str(dump)!r}, 'w'))\n", encoding="utf-8")
    env = {"PLAIN": "value", "TOKEN": "Bearer ${env:MCPDESC_TEST_TOKEN}"}
    servers = servers_file(tmp_path, {"dump": {"command": sys.executable, "args": [str(script)], "env": env}})
    code, out, err = run("describe", "--servers", str(servers), "-o", str(tmp_path / "out"), "--timeout", "30")
    assert code == 1  # it exits without answering
    seen = json.loads(dump.read_text(encoding="utf-8"))
    assert seen["PLAIN"] == "value"
    assert seen["TOKEN"] == f"Bearer {SECRET}"
    assert "MCPDESC_TEST_OUTER_SECRET" not in seen
    assert seen["PATH"] == os.environ["PATH"]
    assert SECRET not in out + err


def test_a_server_that_cannot_be_described_is_said_at_its_turn_and_the_others_carry_on(tmp_path, monkeypatch):
    monkeypatch.delenv("MCPDESC_TEST_UNSET", raising=False)
    servers = servers_file(
        tmp_path,
        {
            "legacy": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
            "asks": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ${input:token}"}},
            "unset": {"command": "server", "env": {"KEY": "${env:MCPDESC_TEST_UNSET}"}},
            "off": {"command": "server", "disabled": True},
        },
        key="servers",  # VS Code's name for the map
    )
    code, out, err = run("describe", "--servers", str(servers), "-o", str(tmp_path / "out"))
    assert code == 1
    assert out == ""
    lines = [line for line in err.splitlines() if ": error: " in line]
    assert [line.split(": error: ")[0] for line in lines] == [
        where(servers, name) for name in ("legacy", "asks", "unset")
    ]
    assert "streamable HTTP only" in lines[0]
    assert "${input:...}" in lines[1]
    assert "MCPDESC_TEST_UNSET" in lines[2]
    assert where(servers, "off") + ": server 'off' is disabled in the file; left out" in err
    assert "0 of 3 servers ok" in err


@pytest.mark.parametrize(
    ("content", "pointer", "says"),
    [
        ("[]", "/", "JSON object with an 'mcpServers'"),
        ('{"mcpServers": {}}', "/mcpServers", "names no server"),
        ('{"other": {}}', "/", "no 'mcpServers'"),
        ('{"mcpServers": {"a": {"command": "x"}}, "servers": {}}', "/", "both"),
        ('{"mcpServers": {"a": "npx server"}}', "/mcpServers/a", "an object with a 'command' or a 'url'"),
        ('{"mcpServers": {"a": {"command": ["npx", "s"]}}}', "/mcpServers/a/command", "arguments go in 'args'"),
        ('{"mcpServers": {"a": {"command": "x", "url": "http://h/"}}}', "/mcpServers/a", "either"),
        ('{"mcpServers": {"a": {"args": ["x"]}}}', "/mcpServers/a", "either"),
        ('{"mcpServers": {"a": {"command": "x", "args": "x y"}}}', "/mcpServers/a/args", "list of strings"),
        (
            '{"mcpServers": {"a": {"command": "x", "env": {"K": 1, "S": "' + SECRET + '"}}}}',
            "/mcpServers/a/env",
            "values are strings",
        ),
        ('{"mcpServers": {"a": {"url": "file:///etc/passwd"}}}', "/mcpServers/a/url", "http:// or https://"),
        ('{"mcpServers": {"a": {"url": "http://h/", "type": "ws"}}}', "/mcpServers/a/type", "one of stdio"),
        ('{"mcpServers": {"a": {"command": "x", "type": "http"}}}', "/mcpServers/a/type", "is a stdio server"),
        ('{"mcpServers": {"a": {"command": "x", "headers": {}}}}', "/mcpServers/a/headers", "belongs to"),
        ('{"mcpServers": {"a": {"command": "x", "args": ["-v", "a\\u0000b"]}}}', "/mcpServers/a/args/1", "NUL"),
        ('{"mcpServers": {"a": {"command": "x", "env": {"A=B": "' + SECRET + '"}}}}', "/mcpServers/a/env/A=B", "'='"),
        (
            '{"mcpServers": {"a": {"url": "http://h/", "headers": {"X-Token": "' + SECRET + '\\r\\nX: y"}}}}',
            "/mcpServers/a/headers/X-Token",
            "one line",
        ),
        ('{"mcpServers": {"a": {"command": "x"},}}', "/", "invalid JSON"),
        ('{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}', None, "duplicate"),
    ],
)
def test_a_servers_file_of_the_wrong_shape_is_located_and_starts_nothing(tmp_path, content, pointer, says):
    marker = tmp_path / "started"
    starter = {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}
    # A well-formed server before the wrong one: the file is refused before it starts.
    data = content.replace('{"mcpServers": {"', '{"mcpServers": {"first": ' + json.dumps(starter) + ', "', 1)
    path = tmp_path / "servers.json"
    path.write_text(data, encoding="utf-8")
    code, out, err = run("describe", "--servers", str(path), "-o", str(tmp_path / "out"))
    assert code == 2, err
    assert out == ""
    assert err.startswith(f"{path}:1:"), err
    assert says in err
    if pointer is not None:
        assert f"at {pointer};" in err
    assert SECRET not in err
    assert "Traceback" not in err
    assert not marker.exists()


def test_a_servers_file_past_its_size_bound_is_refused_unread(tmp_path):
    path = servers_file(tmp_path, {"a": {"command": "x", "args": ["y" * (1024 * 1024)]}})
    code, _, err = run("describe", "--servers", str(path), "-o", str(tmp_path / "out"))
    assert code == 2
    assert "input-too-large" in err
    assert len(err) < 1000


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("../x", "x"),
        ("/etc/passwd", "etc-passwd"),
        ("..", "server"),
        ("GitHub Issues", "github-issues"),
        ("a\x00b/../../c", "a-b-c"),
        ("サーバー", "server"),
        ("x" * 500, "x" * 60),
    ],
)
def test_a_name_becomes_a_safe_file_stem(name, stem):
    assert file_stem(name) == stem


def test_names_alike_get_files_of_their_own(tmp_path):
    servers = servers_file(
        tmp_path,
        {"GitHub": {"type": "sse", "url": "http://127.0.0.1:9/"}, "github": {"type": "sse", "url": "http://h/"}},
    )
    code, _, err = run("describe", "--servers", str(servers), "-o", str(tmp_path / "out"))
    assert code == 1
    assert "-> " + str(tmp_path / "out" / "github.mcpdesc.yaml") in err
    assert "-> " + str(tmp_path / "out" / "github-2.mcpdesc.yaml") in err


def test_usage_errors(tmp_path):
    servers = servers_file(tmp_path, {"a": {"command": "x"}})
    code, _, err = run("describe", "--servers", str(servers))
    assert code == 2
    assert "needs -o DIR" in err
    code, _, err = run("describe", "--servers", str(servers), "--header", "A: b", "-o", str(tmp_path / "o"))
    assert code == 2
    assert "--header goes with --url" in err
    code, _, err = run("describe", "--servers", str(servers), "--check", str(tmp_path / "absent"))
    assert code == 2
    assert "no such directory" in err
    (tmp_path / "file").write_text("", encoding="utf-8")
    code, _, err = run("describe", "--servers", str(servers), "-o", str(tmp_path / "file"))
    assert code == 2
    assert "not a directory" in err
    code, _, err = run("describe", "--servers", str(tmp_path / "absent.json"), "-o", str(tmp_path / "o"))
    assert code == 2
    assert "no such file" in err


def test_a_header_http_cannot_carry_is_one_sentence_that_does_not_quote_it():
    # http.client refuses it quoting the value, which would print the credential.
    code, out, err = run("describe", "--url", "http://127.0.0.1:9/mcp", "--header", f"X-Token: {SECRET}\r\nX: y")
    assert code == 2
    assert "cannot carry" in err
    assert SECRET not in out + err
    assert "internal error" not in err
