"""The command line: exit codes, output formats, located diagnostics, no tracebacks."""

from __future__ import annotations

import argparse
import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from mcpdesc_docs.cli import main

from .helpers import CLI_AUDIT_PROBE

SAMPLE = Path(__file__).resolve().parents[1] / "sample-site" / "helpdesk.mcpdesc.yaml"

DUPLICATE_NAMES = """\
mcpdesc: "0.9.0"
info: {name: x, version: "1"}
protocolVersions: [2025-11-25]
tools:
  - name: first
    inputSchema: {type: object}
  - name: assign_issue
    inputSchema: {type: object}
    elicitations:
      - name: choose
        mode: url
        message: Pick one.
      -   name: choose
          mode: url
          message: Pick again.
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_sample_site_description_is_valid() -> None:
    code, out, _ = run("validate", str(SAMPLE))
    assert code == 0, out
    assert out.endswith("valid (0.9.0-rc.3)\n")


def test_duplicate_elicitation_name_is_located_at_second_declaration(tmp_path: Path) -> None:
    file = write(tmp_path, "d.mcpdesc.yaml", DUPLICATE_NAMES)
    code, out, _ = run("validate", file)
    assert code == 1
    first_line = out.splitlines()[0]
    # The second declaration's `name` key sits at line 13, column 11.
    assert first_line.startswith(f"{file}:13:11: error[mcpdesc.elicitation.name-unique] ")
    code, out, _ = run("validate", file, "--format", "json")
    report = json.loads(out)
    assert report["valid"] is False
    assert report["specification"] == "0.9.0-rc.3"
    (diagnostic,) = report["diagnostics"]
    assert diagnostic == {
        "severity": "error",
        "rule": "mcpdesc.elicitation.name-unique",
        "requirement": "req-elicitation-name-unique",
        "code": "duplicate-elicitation-name",
        "message": diagnostic["message"],
        "path": "/tools/1/elicitations/1/name",
        "line": 13,
        "column": 11,
        "see": "mcpdesc-docs rules mcpdesc.elicitation.name-unique",
    }


def test_github_format(tmp_path: Path) -> None:
    file = write(tmp_path, "d.mcpdesc.yaml", DUPLICATE_NAMES)
    code, out, _ = run("validate", file, "--format", "github")
    assert code == 1
    assert out.startswith(f"::error file={file},line=13,col=11,title=mcpdesc.elicitation.name-unique::")


def test_warnings_pass_unless_strict(tmp_path: Path) -> None:
    text = 'mcpdesc: "0.8.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-03-26, 2025-06-18]\n'
    file = write(tmp_path, "legacy.mcpdesc.yaml", text)
    code, out, _ = run("validate", file)
    assert code == 0
    assert "warning[mcpdesc.legacy-protocol.validation-scope]" in out
    assert run("validate", file, "--strict")[0] == 1


def test_validate_reads_a_projects_settings(tmp_path: Path) -> None:
    text = 'mcpdesc: "0.8.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-03-26, 2025-06-18]\n'
    write(tmp_path, "legacy.mcpdesc.yaml", text)
    config = tmp_path / "mcpdesc-docs.yml"
    config.write_text("description: legacy.mcpdesc.yaml\n")
    assert run("validate", str(tmp_path))[0] == 0
    config.write_text("description: legacy.mcpdesc.yaml\nstrict: true\n")  # as build would: warnings fail
    for path in (tmp_path, config):
        code, out, _ = run("validate", str(path))
        assert code == 1
        assert f"{tmp_path / 'legacy.mcpdesc.yaml'}: valid with warnings" in out
    config.write_text("description: legacy.mcpdesc.yaml\nstrict: true\nsuppress: [mcpdesc.legacy-protocol]\n")
    code, out, _ = run("validate", str(tmp_path))
    assert (code, "warning" in out) == (0, False)
    config.write_text("description: legacy.mcpdesc.yaml\nlimits: {max_bytes: 10}\n")
    code, out, _ = run("validate", str(tmp_path))
    assert code == 1
    assert "error[mcpdesc.input.limits]" in out
    # A description file alone still gets the defaults, whatever config sits beside it.
    assert run("validate", str(tmp_path / "legacy.mcpdesc.yaml"))[0] == 0


def test_unsupported_version_is_a_clear_error(tmp_path: Path) -> None:
    file = write(tmp_path, "old.json", '{"mcpdesc": "0.6.0", "info": {"name": "x", "version": "1"}}')
    code, out, _ = run("validate", file)
    assert code == 1
    assert "unsupported mcpdesc version '0.6.0'; supported: 0.9.0, 0.8.0, 0.7.0" in out
    assert f"{file}:1:2: error[mcpdesc.document.version]" in out  # the member's key


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("a: &x 1\nb: *x\n", "yaml-anchor"),
        ("[" * 100_000, "input-too-deep"),
        ("a: 1\na: 2\n", "duplicate-key"),
        ("a: 1\n---\na: 2\n", "multiple-documents"),
        ("a: !tag 1\n", "yaml-tag"),
    ],
)
def test_hostile_files_exit_1_with_location(tmp_path: Path, text: str, code: str) -> None:
    file = write(tmp_path, "h.mcpdesc.yaml", text)
    status, out, err = run("validate", file, "--format", "json")
    assert status == 1
    assert err == ""
    (diagnostic,) = json.loads(out)["diagnostics"]
    assert diagnostic["code"] == code
    assert diagnostic["line"] >= 1
    assert diagnostic["column"] >= 1


def test_bad_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.mcpdesc.yaml"
    path.write_bytes(b"mcpdesc: \xff\n")
    status, out, _ = run("validate", str(path))
    assert status == 1
    assert f"{path}:1:10: error[" in out


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    code, out, err = run("validate", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert out == ""
    assert "no such file" in err
    assert "Traceback" not in err


def test_usage_errors_exit_2() -> None:
    assert run()[0] == 2
    assert run("validate")[0] == 2
    assert run("validate", "x.yaml", "--format", "xml")[0] == 2


def test_validation_opens_no_network_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    # $schema, url-mode URLs and icon URLs must never be dereferenced.
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise AssertionError("network access during validation")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    code, out, err = run("validate", str(SAMPLE))
    assert code == 0, out + err
    assert attempts == []


@pytest.mark.slow
@pytest.mark.parametrize("command", ["validate", "build"])
def test_no_network_or_process_audit_events_in_a_fresh_process(command: str, tmp_path: Path) -> None:
    argv = [command, str(SAMPLE)] + (["-o", str(tmp_path / "site")] if command == "build" else [])
    result = subprocess.run(
        [sys.executable, "-c", CLI_AUDIT_PROBE, *argv], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "EVENTS []" in result.stdout


def test_module_entry_point_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mcpdesc_docs", "validate", str(SAMPLE), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["valid"] is True


@pytest.mark.slow
def test_a_reader_that_leaves_early_gets_no_internal_error(tmp_path: Path) -> None:
    # Enough diagnostics to overflow a pipe buffer, so writing hits the closed pipe (long
    # ones: a report shows at most 100 of one rule).
    bogus = "bogus" + "x" * 1000
    tools = [{"name": f"t{i}", "inputSchema": {"type": "object"}, bogus: i} for i in range(3000)]
    document = {"mcpdesc": "0.9.0", "info": {"name": "x", "version": "1"}, "tools": tools}
    file = write(tmp_path, "many.mcpdesc.json", json.dumps(document))
    with subprocess.Popen(
        [sys.executable, "-m", "mcpdesc_docs", "validate", file], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        assert process.stdout.readline().startswith(file.encode())
        process.stdout.close()
        errors = process.stderr.read().decode()
        assert process.wait(timeout=60) == 2
    assert errors == ""


def test_every_subcommand_the_parser_knows_has_a_runner():
    from mcpdesc_docs import cli

    parser = cli._parser()
    subcommands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(subcommands.choices) == set(cli._COMMANDS)


IMPORTED = """
import sys
from mcpdesc_docs.cli import main

code = main(sys.argv[1:])
heavy = (
    "jinja2", "markdown_it", "pygments", "mcp", "dulwich", "watchfiles", "multiprocessing", "concurrent.futures"
)
print("LOADED", sorted(name for name in heavy if name in sys.modules))
sys.exit(code)
"""


@pytest.mark.parametrize("output_format", ["text", "json", "github"])
def test_validate_loads_no_renderer_server_sdk_or_git(output_format: str) -> None:
    # Each command imports what it needs when it needs it: validate renders nothing.
    argv = ["validate", str(SAMPLE), "--format", output_format]
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED, *argv], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "LOADED []" in done.stdout


def test_a_small_build_loads_no_server_sdk_git_watcher_or_process_pool(tmp_path: Path) -> None:
    # A site under MIN_PAGES_PER_WORKER pages renders in the build's own process: the pool's
    # modules (15 ms) are not imported, nor what serve, describe and diff use.
    argv = ["build", str(SAMPLE), "-o", str(tmp_path / "site")]
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED, *argv], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "LOADED ['jinja2', 'markdown_it', 'pygments']" in done.stdout


ENDING_PROBE = """
import atexit, sys

class Freed:
    def __del__(self):
        sys.stdout.write("TORN DOWN\\n")
        sys.stdout.flush()

freed_at_teardown = Freed()
atexit.register(lambda: sys.stdout.write("EXIT HANDLER\\n"))
sys.argv = ["mcpdesc-docs", *sys.argv[1:]]
from mcpdesc_docs.cli import run
run()
"""


def _run_program(*argv: str) -> subprocess.CompletedProcess[str]:
    # Buffered as a user's pipe is (this machine sets PYTHONUNBUFFERED): the test sees
    # what the program flushes itself.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run(
        [sys.executable, "-c", ENDING_PROBE, *argv], capture_output=True, text=True, timeout=120, check=False, env=env
    )


@pytest.mark.parametrize("command", ["validate", "build"])
def test_validate_and_build_end_without_teardown_but_with_exit_handlers(command: str, tmp_path: Path) -> None:
    argv = [command, str(SAMPLE)] + (["-o", str(tmp_path / "site")] if command == "build" else [])
    done = _run_program(*argv)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "EXIT HANDLER" in done.stdout  # atexit handlers run, and what they print is flushed
    assert "TORN DOWN" not in done.stdout  # the interpreter's teardown is skipped
    assert "valid (0.9.0-rc.3)" in done.stdout + done.stderr
    if command == "build":
        assert (tmp_path / "site" / "index.html").is_file()


def test_other_commands_end_as_any_program_does() -> None:
    done = _run_program("rules")
    assert done.returncode == 0, done.stderr
    assert "mcpdesc.elicitation.members" in done.stdout
    assert "EXIT HANDLER" in done.stdout
    assert "TORN DOWN" in done.stdout


def test_ending_at_once_keeps_the_exit_code_and_every_byte_of_a_large_report(tmp_path: Path) -> None:
    # A long report, piped: what still waits in stdout's buffer at the end must be written.
    tools = "".join(f"  - name: 'bad name {i}'\n    inputSchema: {{type: 5}}\n" for i in range(300))
    paths = []
    for index in range(4):
        broken = tmp_path / f"broken{index}.mcpdesc.yaml"
        broken.write_text(f'mcpdesc: "0.9.0"\ninfo: {{name: x, version: "1"}}\ntools:\n{tools}', encoding="utf-8")
        paths.append(str(broken))
    in_process = io.StringIO()
    assert main(["validate", *paths], stdout=in_process, stderr=io.StringIO()) == 1
    done = _run_program("validate", *paths)
    assert done.returncode == 1, done.stderr
    assert done.stdout == in_process.getvalue() + "EXIT HANDLER\n"
    assert len(done.stdout) > 65_536  # more than a pipe or a stream buffer holds
