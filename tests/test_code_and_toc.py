"""The table of contents, highlighted code and request samples as written into the pages
(issue 17); tests/test_browser_reading.py drives them in Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from mcpdesc_docs.model.sample_values import MAX_VALUES, sample_arguments
from mcpdesc_docs.render.highlight import MAX_HIGHLIGHT, highlight

from .helpers import base_document
from .sites import build, parse


def built(tmp_path: Path, document: dict[str, Any]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "d.json").write_text(json.dumps(document))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    return tmp_path / "site"


def request_of(page: Any, prefix: str = "") -> dict[str, Any]:
    return json.loads(page.select_one(f"#{prefix}request pre").get_text())


def test_every_toc_entry_lands_on_the_page_and_every_section_is_listed(sample_site):
    pages = [p for p in sample_site.rglob("*.html") if p.name != "404.html"]
    assert len(pages) > 10
    for path in pages:
        page = parse(path)
        toc = page.select_one("nav[data-toc]")
        assert toc is not None, path
        targets = [a["href"][1:] for a in toc.select("a")]
        assert len(targets) == len(set(targets)), path
        ids = {element["id"] for element in page.select("[id]")}
        assert set(targets) <= ids, (path, set(targets) - ids)
        # Every section of the page (an h2 with an anchor of its own) has its entry.
        sections = {s["id"] for s in page.select("main section[id]") if s.find(["h2", "h3"], recursive=False)}
        assert sections <= set(targets), (path, sections - set(targets))


def test_the_toc_lists_parameters_and_elicitation_cards(sample_site):
    toc = parse(sample_site / "tools" / "escalate_ticket.html").select_one("nav[data-toc]")
    entries = [a.get_text() for a in toc.select("a")]
    assert "Parameters" in entries
    assert "May ask the user" in entries
    assert "choose_team" in entries
    card = toc.select_one('a[href="#elicitation-choose_team"]').parent
    assert card.has_attr("data-protocol-versions")  # follows the version view
    assert toc.select_one("details")["open"] == ""  # readable without the script


def test_json_blocks_are_highlighted_at_build_time_and_stay_escaped(tmp_path):
    document = base_document()
    document["tools"][0]["description"] = 'Call it.\n\n```json\n{"a": "<b>"}\n```\n\n```yaml\nk: v\n```'
    document["tools"][0]["inputSchema"]["properties"]["issue"]["description"] = "</code><script>x</script>"
    page = parse(built(tmp_path, document) / "tools" / "assign_issue.html")
    fences = page.select(".prose pre code")
    assert [f["class"] for f in fences] == [["language-json"], ["language-yaml"]]
    assert fences[0].select_one(".nt").get_text() == '"a"'
    assert fences[0].select_one(".s2").get_text() == '"<b>"'
    assert fences[1].select_one(".nt").get_text() == "k"
    schema = page.select_one("#parameters pre.json code")
    assert schema.select(".nt")
    assert not page.select("script:not([src])")  # the description's text stays text
    assert json.loads(schema.get_text())["properties"]["issue"]["description"] == "</code><script>x</script>"


def test_a_block_too_long_to_highlight_is_escaped_plain_text():
    long = json.dumps({"k": "<" * MAX_HIGHLIGHT})
    assert highlight(long, "json") == escape(long)
    assert "<span" in str(highlight('{"k": 1}', "json"))
    assert str(highlight("<x>", "python")) == "&lt;x&gt;"


def test_one_lexer_and_formatter_serve_every_block_with_the_output_of_fresh_ones(monkeypatch):
    from pygments import highlight as pygments_highlight
    from pygments.formatters import html as pygments_html
    from pygments.lexers.data import JsonLexer, YamlLexer

    from mcpdesc_docs.render import highlight as module

    made = 0
    original_init = pygments_html.HtmlFormatter.__init__

    def counting_init(self: Any, **options: Any) -> None:
        nonlocal made
        made += 1
        original_init(self, **options)

    monkeypatch.setattr(pygments_html.HtmlFormatter, "__init__", counting_init)
    module.highlight.cache_clear()
    module._tools.cache_clear()
    # Interleaved, with YAML whose lexer keeps state within a block (block scalars, indents).
    blocks = [
        ('{"a": [1, {"b": "<c>"}]}', "json"),
        ("k: |\n  text\n  more\nl:\n  - 1\n", "yaml"),
        ("\n\n{}\n", "json"),
        ("a: >\n  folded\nb: 'q'\n", "yml"),
        ('{"unterminated": ', "jsonc"),
        ("- x\n- [y, z]", "yaml"),
    ] * 3
    for i, (code, language) in enumerate(blocks):
        code = code + " " * i  # distinct blocks: the result cache must not answer
        lexer = JsonLexer() if module.LANGUAGES[language] == "json" else YamlLexer()
        lexer.stripnl = False
        expected = pygments_highlight(code, lexer, pygments_html.HtmlFormatter(nowrap=True))
        if not code.endswith("\n"):
            expected = expected.removesuffix("\n")
        made -= 1  # the reference's own formatter
        assert str(module.highlight(code, language)) == expected
    assert made == 2  # one per language (JSON, YAML), for all 18 blocks
    module._tools.cache_clear()  # nothing patched stays behind


def test_breakable_names_are_worked_out_once_and_stay_escaped():
    from mcpdesc_docs.render.pages import breakable

    breakable.cache_clear()
    first = breakable("search_tickets<b>Now")
    assert str(first) == "search_<wbr>tickets&lt;b&gt;Now"
    for _ in range(5):  # every page's sidebar asks again
        assert breakable("search_tickets<b>Now") is first
    assert breakable.cache_info().misses == 1
    # Markup compares equal to its text, so it shares the entry: the result is the same,
    # as the parts are escaped whatever the input's type.
    assert str(breakable(Markup("search_tickets<b>Now"))) == str(first)


def test_a_tool_request_carries_its_first_example_or_schema_placeholders(tmp_path):
    document = base_document()
    tool = document["tools"][0]
    tool["inputSchema"]["properties"]["note"] = {"type": "string", "default": "hi"}
    tool["inputSchema"]["properties"]["tags"] = {"type": "array", "items": {"enum": ["a", "b"]}}
    page = parse(built(tmp_path / "a", document) / "tools" / "assign_issue.html")
    request = request_of(page)
    assert request == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        # Optional arguments with nothing but a placeholder to give are left out (issue, tags).
        "params": {"name": "assign_issue", "arguments": {"note": "hi"}},
    }
    assert "placeholders" in page.select_one("#request .muted").get_text()
    document["protocolVersions"] = ["2025-11-25"]  # the results below are shaped for it
    result = {"content": []}
    tool["examples"] = {
        "first": {"input": {"issue": 42}, "result": result},
        "second": {"input": {"issue": 7}, "result": result},
    }
    page = parse(built(tmp_path / "b", document) / "tools" / "assign_issue.html")
    assert request_of(page)["params"]["arguments"] == {"issue": 42}
    assert "example first" in page.select_one("#request .muted").get_text()


def test_resource_and_prompt_requests(tmp_path):
    document = base_document(
        resources=[{"uri": "file:///board.json", "name": "board"}],
        prompts=[{"name": "triage", "arguments": [{"name": "issue", "required": True}, {"name": "tone"}]}],
    )
    site = built(tmp_path, document)
    resource = request_of(parse(site / "resources" / "board.html"))
    assert resource["method"] == "resources/read"
    assert resource["params"] == {"uri": "file:///board.json"}
    prompt = request_of(parse(site / "prompts" / "triage.html"))
    assert prompt["method"] == "prompts/get"
    # Optional arguments are left out, as a client would leave them.
    assert prompt["params"] == {"name": "triage", "arguments": {"issue": "value"}}


def test_a_placeholder_of_a_fanning_out_schema_stays_small():
    names = [f"p{i}" for i in range(30)]
    wide = {"type": "object", "properties": {name: {"$ref": "#/$defs/wide"} for name in names}, "required": names}
    schema = {"$defs": {"wide": wide}, **wide}
    text = json.dumps(sample_arguments(schema))
    assert text.count('"p') <= MAX_VALUES
    loop = {"$defs": {"a": {"oneOf": [{"$ref": "#/$defs/a"}]}}, "properties": {"x": {"$ref": "#/$defs/a"}}}
    assert sample_arguments({**loop, "type": "object", "required": ["x"]}) == {"x": "value"}


def test_each_transport_gives_a_client_configuration(tmp_path):
    document = base_document(
        transports=[
            {"type": "stdio", "command": "example-mcp", "args": ["--quiet"], "env": {"TOKEN": "${TOKEN}"}},
            {"type": "streamable-http", "url": "https://mcp.example.com/"},
        ]
    )
    overview = parse(built(tmp_path, document) / "index.html")
    configs = [json.loads(pre.get_text()) for pre in overview.select(".client-config pre")]
    assert configs == [
        # A secret's value is never pasted: a placeholder stands for it.
        {"mcpServers": {"example": {"command": "example-mcp", "args": ["--quiet"], "env": {"TOKEN": "<YOUR_TOKEN>"}}}},
        {"mcpServers": {"example": {"type": "http", "url": "https://mcp.example.com/"}}},
    ]


def nested_schema() -> dict[str, Any]:
    leaf = {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}
    return {
        "type": "object",
        "properties": {
            "customer": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "home": {"type": "object", "properties": {"address": leaf}}},
            },
            "note": {"type": "string"},
        },
    }


def test_nested_schema_rows_fold_under_their_row_open_to_a_depth(tmp_path):
    document = base_document()
    document["tools"][0]["inputSchema"] = nested_schema()
    page = parse(built(tmp_path, document) / "tools" / "assign_issue.html")
    table = page.select_one("#parameters table.params")
    top = [tr["id"] for tr in table.select(":scope > tbody > tr[id]")]
    assert top == ["input-customer", "input-note"]
    folds = table.select("details.nested-rows")
    summaries = [(d.summary.get_text(strip=True), d.has_attr("open")) for d in folds]
    assert summaries == [
        ("2 properties of customer", True),
        ("1 property of home", True),
        ("2 properties of address", False),  # third level: folded
    ]
    street = page.select_one("#input-customer\\.home\\.address\\.street")
    assert street is not None
    assert len(street.find_parents("details")) == 3  # under customer, home and address
    # Every row is still on the page, in order, for readers without a script and for search.
    rows = [tr["id"] for tr in table.select("tr[id]")]
    assert rows[:3] == ["input-customer", "input-customer.name", "input-customer.home"]


def test_a_later_variant_says_what_differs_from_the_one_before(tmp_path):
    document = base_document()
    first = document["tools"][0]
    first["protocolVersions"] = ["2025-06-18"]
    second = json.loads(json.dumps(first))
    second["protocolVersions"] = ["2025-11-25", "2026-07-28"]
    second["description"] = "Now with a note."
    second["inputSchema"]["properties"]["note"] = {"type": "string"}
    second["inputSchema"]["properties"]["issue"] = {"type": "string"}
    third = json.loads(json.dumps(second))
    document["tools"] = [first, second]
    page = parse(built(tmp_path / "a", document) / "tools" / "assign_issue.html")
    # The newest first (the tab a reader sees first); the oldest says nothing of changes.
    newer, older = page.select("section.variant")
    assert (newer["id"], older["id"]) == ("variant-2", "variant-1")
    assert older.select_one("[data-variant-changes]") is None
    changes = newer.select_one("[data-variant-changes]")
    assert changes.p.get_text() == "What differs from the declaration for MCP 2025-06-18:"
    assert [li.get_text() for li in changes.select("li")] == [
        "Description: added",
        "Parameters: added note; changed issue",
    ]
    # Identical but for the versions: said in one line.
    first["description"] = third["description"] = "Same."
    third["protocolVersions"] = ["2025-11-25", "2026-07-28"]
    third["inputSchema"] = first["inputSchema"]
    document["tools"] = [first, third]
    page = parse(built(tmp_path / "b", document) / "tools" / "assign_issue.html")
    same = page.select("section.variant")[0].select_one("[data-variant-changes]")
    assert same.get_text(strip=True) == "The same declaration as for MCP 2025-06-18, for other protocol versions."


def test_variant_notes_say_what_was_added_removed_or_changed(tmp_path):
    # Listed oldest last: the notes compare by protocol version, not by document order.
    document = base_document()
    old = document["tools"][0]
    old["protocolVersions"] = ["2025-06-18"]
    old["_meta"] = {"a": 1}
    new = json.loads(json.dumps(old))
    new["protocolVersions"] = ["2025-11-25"]
    new["title"] = "Assign an issue"
    new["execution"] = {"taskSupport": "optional"}
    del new["_meta"]
    document["tools"] = [new, old]
    page = parse(built(tmp_path, document) / "tools" / "assign_issue.html")
    newest = page.select("section.variant")[0]
    assert newest["data-protocol-versions"] == "2025-11-25"
    notes = [li.get_text() for li in newest.select("[data-variant-changes] li")]
    assert notes == ["Title: added", "Task support (execution): added", "_meta: removed"]
    assert page.h1.get_text(strip=True) == "Assign an issue"  # the newest variant's title


def test_sections_that_differ_say_since_which_version_and_none_fold(tmp_path):
    document = base_document()
    first = document["tools"][0]
    first["protocolVersions"] = ["2025-06-18"]
    second = json.loads(json.dumps(first))
    second["protocolVersions"] = ["2025-11-25", "2026-07-28"]
    second["inputSchema"]["properties"]["note"] = {"type": "string"}
    second["elicitations"][0]["onDecline"] = "The issue stays unassigned."
    document["tools"] = [first, second]
    page = parse(built(tmp_path, document) / "tools" / "assign_issue.html")
    later, earlier = page.select("section.variant")
    changes = [li.get_text() for li in later.select("[data-variant-changes] li")]
    assert changes == ["Parameters: added note", "What it may ask the user: changed choose_assignee"]
    marked = {m.find_parent("section")["id"] for m in later.select("[data-changed-in]")}
    assert marked == {"variant-2-parameters", "variant-2-elicitations"}
    assert {m["data-changed-in"] for m in later.select("[data-changed-in]")} == {"2025-11-25"}
    assert later.select_one("[data-changed-in]").get_text() == "changed in 2025-11-25"
    assert not earlier.select("[data-changed-in]")
    # Each variant shows all of itself (a tab at a time): nothing hides behind "Same as".
    assert not page.select("details[data-unchanged]")
    assert later.select_one("#variant-2-security .security, #variant-2-security p") is not None
