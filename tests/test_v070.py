"""mcpdesc 0.7.0: validated by its own rules, rendered by the same templates, migrated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from .shared_data import EXAMPLES_070_DIR, descriptions_in
from .sites import build, html_pages, load_data, parse, run
from .test_completeness import missing_strings

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "v070").iterdir())


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_0_7_0_descriptions_validate_build_and_show_every_string(fixture, tmp_path):
    code, out, _ = run("validate", str(fixture))
    assert code == 0, out
    assert "valid (0.7.0)" in out
    code, out, err = build(fixture, tmp_path / "site")
    assert code == 0, out + err
    assert missing_strings(fixture, tmp_path / "site") == []
    note = parse(tmp_path / "site" / "index.html").select_one(".legacy-note").get_text()
    assert "mcpdesc 0.7.0" in note
    assert "migrate" not in note  # advice for the author: given in the terminal, not to readers
    assert "`mcpdesc-docs migrate` converts it" in err


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_migrated_descriptions_validate_and_render_the_same_primitives(fixture, tmp_path):
    target = tmp_path / f"migrated{fixture.suffix}"
    code, out, err = run("migrate", str(fixture), "-o", str(target))
    assert code == 0, out + err
    migrated = load_data(target)
    assert migrated["mcpdesc"] == "0.9.0"
    code, out, _ = run("validate", str(target))
    assert code == 0, out
    assert "0 errors" in out or "valid (0.9.0-rc.3)" in out
    assert build(fixture, tmp_path / "old")[0] == 0
    assert build(target, tmp_path / "new")[0] == 0

    def primitives(site: Path) -> set[tuple[str, str]]:
        return {
            (main["data-primitive"], main["data-name"])
            for page in html_pages(site)
            if (main := parse(page).select_one("main[data-primitive]")) is not None
        }

    assert primitives(tmp_path / "old") == primitives(tmp_path / "new")
    assert primitives(tmp_path / "new")


def test_migration_follows_the_guidance(tmp_path):
    source = FIXTURES[0].parent / "http-bearer.json"
    code, out, err = run("migrate", str(source))
    assert code == 0, err
    migrated = json.loads(out)
    assert list(migrated)[:4] == ["mcpdesc", "info", "protocolVersions", "securitySchemes"]  # order kept
    assert migrated["protocolVersions"] == ["2025-11-25"]
    assert "protocolVersion" not in migrated["info"]
    assert migrated["securitySchemes"]["bearer"]["bearerFormat"] == "JWT"
    assert migrated["security"] == [{"bearer": []}]
    assert migrated["transports"][1]["security"] == [{"apiKey-X-Weather-Key": []}]
    assert migrated["capabilities"] == [{"tools": {"listChanged": True}, "logging": {}, "x-regional": {"eu": True}}]
    assert "the inline security scheme at /security/0 is now securitySchemes.bearer" in err
    # deterministic: the same input gives the same output
    assert run("migrate", str(source))[1] == out


def test_migration_never_guesses(tmp_path):
    data = load_data(FIXTURES[0].parent / "stdio-server.json")
    del data["info"]["protocolVersion"]
    del data["tools"][1]["inputSchema"]
    source = tmp_path / "d.json"
    source.write_text(json.dumps(data))
    target = tmp_path / "out.yaml"
    code, out, err = run("migrate", str(source), "-o", str(target))
    assert code == 1
    assert "info.protocolVersion is absent" in out
    assert f"{source}:" in out
    assert "tool 'list_folders' has no inputSchema" in out
    assert "nothing was written" in err
    assert not target.exists()
    data["tools"][1]["inputSchema"] = {"type": "object", "additionalProperties": False}
    source.write_text(json.dumps(data))
    code, out, err = run("migrate", str(source), "-o", str(target), "--protocol-version", "2025-11-25")
    assert code == 0, out + err
    assert yaml.safe_load(target.read_text())["protocolVersions"] == ["2025-11-25"]


def test_migrate_refuses_current_descriptions():
    code, _, err = run("migrate", str(Path(__file__).parents[1] / "sample-site" / "helpdesk.mcpdesc.yaml"))
    assert code == 2
    assert "migrate reads 0.7.0 descriptions, and 0.8.0 ones for --to 0.9.0" in err


@pytest.mark.parametrize(
    ("mutate", "rule", "code"),
    [
        (lambda d: d.pop("transports"), "mcpdesc07.document.members", "missing-member"),
        (lambda d: d["tools"][0].update(tags=["unknown"]), "mcpdesc07.tags.references", "unknown-tag-reference"),
        (lambda d: d["tools"][0].update(deprecated="yes"), "mcpdesc07.tool.members", "wrong-type"),
        (lambda d: d["tools"][0].update(elicitations=[]), "mcpdesc07.tool.members", "unknown-member"),
        (
            lambda d: d["info"].update({"x-team": "a"}),
            "mcpdesc07.extensions.placement",
            "extension-not-allowed",
        ),  # x-* root only
        (lambda d: [d.pop(k) for k in ("tools", "resourceTemplates", "prompts")], "mcpdesc07.document.members", None),
    ],
)
def test_invalid_0_7_0_documents_are_located(tmp_path, mutate, rule, code):
    data = load_data(FIXTURES[0].parent / "tags-prompts.yaml")
    mutate(data)
    path = tmp_path / "d.json"
    path.write_text(json.dumps(data, indent=2))
    exit_code, out, _ = run("validate", str(path), "--format", "json")
    assert exit_code == 1
    report = json.loads(out)
    assert report["specification"] == "0.7.0"
    found = [d for d in report["diagnostics"] if d["rule"] == rule and (code is None or d["code"] == code)]
    assert found, report["diagnostics"]
    assert all(d["line"] and d["column"] for d in found)
    assert all(d["requirement"] is None for d in report["diagnostics"])


REAL_DUMPS = descriptions_in(EXAMPLES_070_DIR)
"""Real 0.7.0 descriptions of public servers, read in place (test_corpus.py guards them)."""

if REAL_DUMPS:

    @pytest.mark.slow
    @pytest.mark.parametrize("dump", REAL_DUMPS, ids=[p.name for p in REAL_DUMPS])
    def test_real_0_7_0_dumps_build_show_every_string_and_migrate(dump, tmp_path):
        code, out, err = build(dump, tmp_path / "site")
        assert code == 0, out + err
        assert "valid (0.7.0)" in out
        assert missing_strings(dump, tmp_path / "site") == []
        target = tmp_path / "migrated.yaml"
        code, out, err = run("migrate", str(dump), "-o", str(target))
        if "protocolVersion" not in load_data(dump).get("info", {}):
            # Nothing is guessed: the author must say which protocol version the server speaks.
            assert code == 1
            assert "protocol-version-unknown" in out
            code, out, err = run("migrate", str(dump), "-o", str(target), "--protocol-version", "2025-06-18")
        assert code == 0, out + err
        code, out, _ = run("validate", str(target))
        assert code == 0, out
