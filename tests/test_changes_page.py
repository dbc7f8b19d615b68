"""The site's "Changes" page: when the config names a previous description, the site lists
what changed since, classified as ``diff`` does, and marks each changed primitive."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .sites import SAMPLE, build, load_data, parse

Data = dict[str, Any]


def project(tmp_path: Path, previous: Data | None, config_previous: str | None = None) -> Path:
    current = load_data(SAMPLE)
    (tmp_path / "server.mcpdesc.json").write_text(json.dumps(current), encoding="utf-8")
    lines = ["description: server.mcpdesc.json"]
    if previous is not None:
        (tmp_path / "previous.mcpdesc.json").write_text(json.dumps(previous), encoding="utf-8")
        lines.append("previous: previous.mcpdesc.json")
    if config_previous is not None:
        lines.append(f"previous: {config_previous!r}")
    (tmp_path / "mcpdesc-docs.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def older_sample() -> Data:
    """The sample as it was "before": search_tickets accepted one more status and described
    itself otherwise, a tool since removed existed, and the version was 3.0.0."""
    data = copy.deepcopy(load_data(SAMPLE))
    data["info"]["version"] = "3.0.0"
    search = next(t for t in data["tools"] if t["name"] == "search_tickets")
    search["inputSchema"]["properties"]["status"]["items"]["enum"].append("merged")
    search["description"] = "Searches tickets. <script>alert(1)</script>"
    data["tools"].append({"name": "legacy_export", "inputSchema": {"type": "object"}})
    return data


def test_the_site_lists_the_changes_since_the_previous_description(tmp_path: Path) -> None:
    root = project(tmp_path, older_sample())
    code, out, err = build(root, root / "site")
    assert code == 0, out + err
    page = parse(root / "site" / "changes.html")
    assert page.select_one("h1").get_text() == "Changes since 3.0.0"
    assert page.select_one("[data-page=changes]")["data-verdict"] == "breaking"
    groups = {
        g.select_one("h2").get_text(" ", strip=True).split(" ")[1]: g for g in page.select("section.change-group")
    }
    assert groups["search_tickets"]["data-change-level"] == "breaking"  # an input enum value removed
    assert groups["legacy_export"]["data-change-level"] == "breaking"  # removed: no page to link to
    assert groups["legacy_export"].select_one("h2 a[href$='.html']") is None
    link = groups["search_tickets"].select_one("h2 a")
    assert link["href"] == "tools/search_tickets.html"
    levels = [li["data-change"] for li in groups["search_tickets"].select("li")]
    assert levels == ["breaking", "documentation"]  # the most serious first
    assert "<script>" not in (root / "site" / "changes.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in (root / "site" / "changes.html").read_text(encoding="utf-8")
    # The changed tool's page links to its changes; an unchanged one has no mark.
    tool = parse(root / "site" / "tools" / "search_tickets.html")
    mark = tool.select_one("[data-changed-since]")
    assert mark["data-changed-since"] == "3.0.0"
    target = mark.select_one("a")["href"]
    assert target.startswith("../changes.html#")
    assert page.select_one(f"#{target.split('#')[1]}") is groups["search_tickets"]
    assert parse(root / "site" / "tools" / "escalate_ticket.html").select_one("[data-changed-since]") is None
    # The overview says how many, and links there.
    summary = parse(root / "site" / "index.html").select_one("[data-changes]")
    assert summary["data-changes"] == "breaking"
    assert summary.select_one("a")["href"] == "changes.html"


def test_no_previous_no_page_and_no_marks(tmp_path: Path) -> None:
    root = project(tmp_path, None)
    assert build(root, root / "site")[0] == 0
    assert not (root / "site" / "changes.html").exists()
    assert parse(root / "site" / "index.html").select_one("[data-changes]") is None


def test_the_same_description_has_no_changes(tmp_path: Path) -> None:
    root = project(tmp_path, load_data(SAMPLE))
    assert build(root, root / "site")[0] == 0
    page = parse(root / "site" / "changes.html")
    assert page.select_one("[data-page=changes]")["data-verdict"] == "none"
    assert "no changes for clients" in page.select_one(".page-header").get_text(" ", strip=True)


def test_the_previous_description_from_git_history(tmp_path: Path) -> None:
    root = project(tmp_path, None, "git:v1:server.mcpdesc.json")
    older = older_sample()
    current = (root / "server.mcpdesc.json").read_text(encoding="utf-8")
    (root / "server.mcpdesc.json").write_text(json.dumps(older), encoding="utf-8")

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", "server.mcpdesc.json")
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "v1")
    git("tag", "v1")
    (root / "server.mcpdesc.json").write_text(current, encoding="utf-8")
    code, out, err = build(root, root / "site")
    assert code == 0, out + err
    assert parse(root / "site" / "changes.html").select_one("h1").get_text() == "Changes since 3.0.0"


def test_a_previous_description_that_cannot_be_read_fails_the_build(tmp_path: Path) -> None:
    root = project(tmp_path, None, "missing.mcpdesc.yaml")
    code, _, err = build(root, root / "site")
    assert code == 2
    assert "missing.mcpdesc.yaml: no such file" in err
    root = project(tmp_path, None, "git:v1")
    code, _, err = build(root, root / "site")
    assert code == 2
    assert "'previous' must be a file or git:REF:PATH" in err


def test_serve_validates_the_previous_description_again_only_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from mcpdesc_docs.devserver.project import ProjectBuilder
    from mcpdesc_docs.diff import load

    root = project(tmp_path, older_sample())
    validated: list[str] = []
    original = load.validate_source

    def counted(source: Any, *args: Any, **kwargs: Any) -> Any:
        validated.append(source.name)
        return original(source, *args, **kwargs)

    monkeypatch.setattr(load, "validate_source", counted)
    builder = ProjectBuilder(root, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    current = root / "server.mcpdesc.json"
    current.write_text(
        current.read_text(encoding="utf-8").replace("Search tickets", "Find tickets", 1), encoding="utf-8"
    )
    assert builder.build([str(current)]).ok
    assert len(validated) == 1  # the edit was to the current description
    previous = root / "previous.mcpdesc.json"
    older = older_sample()
    older["info"]["version"] = "2.9.0"
    previous.write_text(json.dumps(older), encoding="utf-8")
    rebuilt = builder.build([str(previous)])
    assert rebuilt.ok
    assert len(validated) == 2
    assert rebuilt.files is not None
    assert b"Changes since 2.9.0" in rebuilt.files["changes.html"]
