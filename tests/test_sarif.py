"""``--format sarif``: one SARIF 2.1.0 log on standard output for validate and build, its
results where the text format puts them, its rules' help from the rule reference."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mcpdesc_docs.commands.rules import entries, explanation
from mcpdesc_docs.diagnostics import MAX_SHOWN, artifact_uri, error, format_sarif

from .sarif_structure import sarif_problems
from .sites import SAMPLE, run

INVALID = """\
mcpdesc: "0.9.0"
info: {name: x, version: "1"}
protocolVersions: [2025-11-25]
tools:
  - name: first
    inputSchem: {type: object}
  - name: first
    inputSchema: {type: object}
"""
WARNINGS = 'mcpdesc: "0.8.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-03-26, 2025-06-18]\n'
TEXT_LINE = re.compile(
    r"^(?P<file>.+):(?P<line>\d+):(?P<column>\d+): (?P<level>error|warning)\[(?P<rule>[^\]]+)\] (?P<message>.*)$"
)


def sarif(*argv: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run(*argv, "--format", "sarif")
    log = json.loads(out)
    assert sarif_problems(log) == []
    return code, log


def text_findings(*argv: str) -> list[tuple[str, int, int, str, str]]:
    _, out, _ = run(*argv)
    found = []
    for line in out.splitlines():
        if match := TEXT_LINE.match(line):
            found.append((match["rule"], int(match["line"]), int(match["column"]), match["level"], match["message"]))
    return found


def sarif_findings(log: dict[str, Any]) -> list[tuple[str, int, int, str, str]]:
    (run_,) = log["runs"]
    found = []
    for result in run_["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        found.append(
            (result["ruleId"], region["startLine"], region["startColumn"], result["level"], result["message"]["text"])
        )
    return found


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return name


def test_results_are_where_the_text_format_puts_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    file = write(tmp_path, "my server.mcpdesc.yaml", INVALID)
    code, log = sarif("validate", file)
    assert code == 1 == run("validate", file)[0]
    expected = text_findings("validate", file)
    assert len(expected) >= 2
    assert sarif_findings(log) == expected
    (run_,) = log["runs"]
    assert run_["columnKind"] == "unicodeCodePoints"
    for result in run_["results"]:
        # Relative, as code scanning reads it from the repository root; the space encoded.
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20server.mcpdesc.yaml"
        assert run_["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["properties"]["see"] == f"mcpdesc-docs rules {result['ruleId']}"


def test_rules_carry_the_rule_reference_as_help(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, log = sarif("validate", write(tmp_path, "d.mcpdesc.yaml", INVALID))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    reported = {result["ruleId"] for result in log["runs"][0]["results"]}
    assert [rule["id"] for rule in rules] == sorted(reported)  # each reported rule once, no others
    for rule in rules:
        entry = entries()[rule["id"]]
        assert rule["shortDescription"]["text"] == entry.doc.summary
        assert rule["fullDescription"]["text"] == entry.doc.rationale
        assert rule["help"]["text"] == explanation(entry)
        assert entry.doc.good.splitlines()[0] in rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] == entry.doc.severity.value


def test_warnings_and_exit_codes_match_the_text_format(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    file = write(tmp_path, "legacy.mcpdesc.yaml", WARNINGS)
    for strict in ((), ("--strict",)):
        code, log = sarif("validate", file, *strict)
        assert code == run("validate", file, *strict)[0] == (1 if strict else 0)
        levels = {result["level"] for result in log["runs"][0]["results"]}
        assert levels == {"warning"}
    code, log = sarif("validate", str(SAMPLE))
    assert code == 0
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["tool"]["driver"]["rules"] == []


def test_build_reports_in_sarif_on_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    file = write(tmp_path, "d.mcpdesc.yaml", INVALID)
    code, out, err = run("build", file, "-o", "site", "--format", "sarif")
    assert code == 1
    assert "build aborted" in err
    log = json.loads(out)
    assert sarif_problems(log) == []
    assert sarif_findings(log) == text_findings("validate", file)
    code, out, err = run("build", str(SAMPLE), "-o", "site", "--format", "sarif")
    assert code == 0
    assert "built" in err
    assert json.loads(out)["runs"][0]["results"] == []
    assert (tmp_path / "site" / "index.html").is_file()


def test_a_configuration_mistake_is_a_sarif_result_too(tmp_path):
    (tmp_path / "d.yaml").write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "mcpdesc-docs.yml").write_text("description: d.yaml\nsite_nmae: X\n")
    code, out, err = run("build", str(tmp_path), "--format", "sarif")
    assert (code, err) == (2, "")
    log = json.loads(out)
    assert sarif_problems(log) == []
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "mcpdesc-docs.config"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 1}
    assert log["runs"][0]["tool"]["driver"]["rules"][0]["help"]["text"].startswith("mcpdesc-docs.config ")


def test_several_files_make_one_log(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad = write(tmp_path, "bad.mcpdesc.yaml", INVALID)
    legacy = write(tmp_path, "legacy.mcpdesc.yaml", WARNINGS)
    code, log = sarif("validate", bad, legacy)
    assert code == 1
    files = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert files == {bad, legacy}


def test_the_cap_is_said_in_a_notification():
    diagnostics = [error("mcpdesc.tool.members", "unknown-member", f"m{i}", f"/tools/{i}") for i in range(MAX_SHOWN)]
    diagnostics += [error(f"mcpdesc.rule{i}", "c", "m", "") for i in range(5)]
    log = json.loads(format_sarif([d.located("d.yaml", 1, 1) for d in diagnostics], lambda _: None))
    assert sarif_problems(log) == []
    (run_,) = log["runs"]
    assert len(run_["results"]) == 105  # 100 of the one rule, and the five others
    (note,) = run_["invocations"][0]["toolExecutionNotifications"]
    assert note["message"]["text"].startswith("... and 900 more (900 errors, 0 warnings)")


@pytest.mark.parametrize(
    ("file", "uri"),
    [
        ("d.mcpdesc.yaml", "d.mcpdesc.yaml"),
        ("specs/a b%#?.yaml", "specs/a%20b%25%23%3F.yaml"),
        ("/srv/x/d.yaml", "file:///srv/x/d.yaml"),
        ("/srv/a b/d.yaml", "file:///srv/a%20b/d.yaml"),
    ],
)
def test_artifact_uris_are_uri_references(file, uri):
    assert artifact_uri(file) == uri
