"""What a reader reads (issue 17): hints that agree with each other, description headings below
the page's sections, words that say what applies, schema types and defaults in words, JSON
texts formatted, form previews that say they are previews, tag pages and the page count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .helpers import base_document
from .sites import build, parse, run


def built(tmp_path: Path, document: dict[str, Any], name: str = "d.json") -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / name
    source.write_text(json.dumps(document))
    code, out, err = build(source, tmp_path / "site")
    assert code == 0, out + err
    return tmp_path / "site"


def tool_document(**tool: Any) -> dict[str, Any]:
    document = base_document()
    document["tools"][0].update(tool)
    return document


def test_a_read_only_tool_shows_no_write_hints_and_its_annotation_title_is_its_title(tmp_path):
    annotations = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "title": "Assign"}
    site = built(tmp_path, tool_document(annotations=annotations))
    page = parse(site / "tools" / "assign_issue.html")
    assert [h["title"] for h in page.select(".hint")] == ["readOnlyHint: true"]
    assert page.select_one("h1").get_text(strip=True) == "Assign"
    assert not page.select("[id$=annotations]")  # no "Other annotations" holding the title as JSON
    twin = (site / "tools" / "assign_issue.md").read_text()
    assert "destructiveHint" not in twin
    assert "idempotentHint" not in twin


def test_write_hints_of_a_tool_that_may_write_are_shown(tmp_path):
    annotations = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True}
    page = parse(built(tmp_path, tool_document(annotations=annotations)) / "tools" / "assign_issue.html")
    assert [h["title"] for h in page.select(".hint")] == [
        "readOnlyHint: false",
        "destructiveHint: false",
        "idempotentHint: true",
    ]


def test_an_annotation_title_beside_a_title_of_its_own_is_shown_as_a_fact(tmp_path):
    site = built(tmp_path, tool_document(title="Assign an issue", annotations={"title": "Assign"}))
    facts = parse(site / "tools" / "assign_issue.html").select_one(".facts").get_text(" ", strip=True)
    assert "Annotation title Assign" in facts


def test_description_headings_rank_below_the_page_sections(tmp_path):
    site = built(tmp_path, tool_document(description="Intro.\n\n# Usage\n\nText.\n\n## Details\n\nMore."))
    page = parse(site / "tools" / "assign_issue.html")
    prose = page.select_one(".variant .prose")
    assert [h.name for h in prose.select("h1, h2, h3, h4, h5, h6")] == ["h3", "h4"]
    assert page.select_one("#parameters h2")  # the section stays above them


def test_description_headings_of_a_variant_rank_below_its_sections(tmp_path):
    document = base_document()
    first = document["tools"][0]
    first["protocolVersions"] = ["2025-06-18"]
    second = json.loads(json.dumps(first))
    second["protocolVersions"] = ["2025-11-25", "2026-07-28"]
    second["description"] = "## Usage\n\nText."
    document["tools"].append(second)
    page = parse(built(tmp_path, document) / "tools" / "assign_issue.html")
    assert [h.name for h in page.select(".variant .prose :is(h1, h2, h3, h4, h5, h6)")] == ["h4"]


def test_security_by_transport_says_what_applies_and_the_twin_keeps_the_requirement(tmp_path):
    document = base_document(
        securitySchemes={"key": {"type": "apiKey", "name": "X-Key", "in": "header"}},
        security=[{"key": []}],
        transports=[
            {"type": "streamable-http", "url": "https://mcp.example.com/"},
            {"type": "stdio", "command": "example-mcp", "security": []},
        ],
    )
    site = built(tmp_path, document)
    security = parse(site / "tools" / "assign_issue.html").select_one("#security").get_text(" ", strip=True)
    assert "Via Streamable HTTP: the server's default (above) applies" in security
    assert "no requirement declared" not in security
    twin = (site / "tools" / "assign_issue.md").read_text()
    assert "Requirement: key" in twin
    assert "- Via stdio: No authentication is required." in twin


def test_an_override_twin_says_what_replaces_the_default(tmp_path):
    document = base_document(
        securitySchemes={"key": {"type": "apiKey", "name": "X-Key", "in": "header"}, "oauth": oauth_scheme()},
        security=[{"key": []}],
    )
    document["tools"][0]["security"] = [{"oauth": ["issues.write", "issues.read"]}]
    twin = (built(tmp_path, document) / "tools" / "assign_issue.md").read_text()
    assert "Security: Overrides the server default." in twin
    assert "Requirement: oauth with scopes issues.write, issues.read" in twin


def oauth_scheme() -> dict[str, Any]:
    return {
        "type": "oauth2",
        "flows": {
            "clientCredentials": {
                "tokenUrl": "https://id.example.com/token",
                "scopes": {"issues.read": "Read issues", "issues.write": "Change issues"},
            }
        },
    }


def test_the_authentication_explainer_appears_only_with_schemes(tmp_path):
    overview = parse(built(tmp_path, base_document()) / "index.html")
    assert "Alternatives are listed" not in overview.select_one("#security").get_text()
    with_schemes = base_document(securitySchemes={"oauth": oauth_scheme()}, security=[{"oauth": []}])
    overview = parse(built(tmp_path / "b", with_schemes) / "index.html")
    assert "Alternatives are listed" in overview.select_one("#security").get_text()


def test_schema_types_and_defaults_in_words(tmp_path):
    schema = {
        "type": "object",
        "properties": {
            "id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "nothing": {"type": "string", "default": None},
            "maybe": {"type": ["string", "null"], "default": None},
            "mode": {"anyOf": [{"const": "a"}, {"const": 2}]},
        },
    }
    site = built(tmp_path, tool_document(inputSchema=schema))
    page = parse(site / "tools" / "assign_issue.html")
    rows = {row["id"]: row for row in page.select("#parameters tr[id]")}
    assert rows["input-id"].select_one(".param-type").get_text(strip=True) == "string or integer"
    assert rows["input-mode"].select_one(".param-type").get_text(strip=True) == "string or integer"
    assert rows["input-maybe"].select_one(".param-type").get_text(strip=True) == "string or null"
    nothing = rows["input-nothing"].select_one(".default").get_text(" ", strip=True)
    assert "in effect the parameter has no default" in nothing
    assert "no default" not in rows["input-maybe"].select_one(".default").get_text()
    twin = (site / "tools" / "assign_issue.md").read_text()
    assert "- `id` (string or integer)" in twin
    assert "in effect the parameter has no default" in twin


def test_json_text_in_an_example_result_is_formatted_by_its_media_type(tmp_path):
    document = base_document()
    document["resources"] = [
        {
            "uri": "example://board",
            "name": "board",
            "protocolVersions": ["2025-11-25"],  # the read result below is shaped for it
            "examples": {
                "top": {
                    "result": {
                        "contents": [
                            {"uri": "example://board", "mimeType": "application/json", "text": '{"players":[1,2]}'},
                            {"uri": "example://board/raw", "mimeType": "text/plain", "text": '{"not":"parsed"}'},
                        ]
                    }
                }
            },
        }
    ]
    page = parse(built(tmp_path, document) / "resources" / "board.html")
    example = page.select_one("#example-top")
    labels = [p.get_text(strip=True) for p in example.select(".part-label")]
    assert labels == ["Result", "The application/json text at /result/contents/0/text, formatted"]
    formatted = example.select("pre.json")[-1].get_text()
    assert json.loads(formatted) == {"players": [1, 2]}
    assert '\n  "players": [\n' in formatted


def test_the_form_preview_says_it_is_one_and_names_each_property(tmp_path):
    page = parse(built(tmp_path, base_document()) / "tools" / "assign_issue.html")
    form = page.select_one("form[data-form-preview]")
    assert form.select_one(".form-preview-caption").get_text(strip=True) == "Preview of the form the client shows"
    field = form.select_one(".field")
    assert field.select_one("label").get_text(" ", strip=True) == "Assignee *"
    assert field.select_one(".field-name").get_text() == "assignee"
    assert not form.select("button, input[type=submit]")  # nothing that could send it
    assert form["method"] == "dialog"
    assert not form.has_attr("action")


def test_identifiers_break_only_between_words(tmp_path):
    document = base_document()
    document["tools"][0]["name"] = "assign_issueToTeam"
    site = built(tmp_path, document)
    page = parse(site / "tools" / "assign_issuetoteam.html")
    link = page.select_one('#site-nav a[aria-current="page"]')
    assert str(link).count("<wbr/>") == 3  # after "_", and before "To" and "Team"
    assert link.get_text() == "assign_issueToTeam"


def test_a_tag_page_heads_with_the_tag_name_and_the_picker_needs_two_versions(tmp_path):
    document = base_document(
        tags=[{"name": "triage", "description": "Sorting issues."}], protocolVersions=["2025-11-25"]
    )
    document["tools"][0]["tags"] = ["triage"]
    site = built(tmp_path, document)
    tag = parse(site / "tags" / "triage.html")
    assert tag.select_one("h1").get_text(strip=True) == "triage"
    assert tag.select_one(".page-header .meta").get_text(strip=True) == "1 page with this tag"
    assert not tag.select("[data-protocol-version]")
    assert not tag.select_one("html").has_attr("data-versions")


def test_the_build_counts_every_page_it_writes(tmp_path):
    document = base_document(tags=[{"name": "triage"}])
    source = tmp_path / "d.json"
    source.write_text(json.dumps(document))
    code, _, err = run("build", str(source), "-o", str(tmp_path / "site"))
    assert code == 0
    written = sorted(p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("*.html"))
    assert written == ["404.html", "index.html", "tags/triage.html", "tools/assign_issue.html"]
    assert f"built {len(written)} pages into" in err
