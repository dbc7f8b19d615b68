"""Hostile descriptions build in bounded time, memory and site size (issue 15).

Growth is asserted by counts (rows, calls, bytes), never by time. Where a build as a whole
must be shown to finish, it runs in a subprocess with a memory limit and a generous
CPU-time budget, so a regression fails here instead of hanging the suite or the machine.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from mcpdesc_docs.config import Config
from mcpdesc_docs.model import schema_tree
from mcpdesc_docs.model.builder import build_site
from mcpdesc_docs.model.components import REPEAT_FLOOR
from mcpdesc_docs.model.navigation import GROUP_WINDOW
from mcpdesc_docs.model.schema_tree import MAX_ROWS, build_schema_tree
from mcpdesc_docs.model.site import MAX_LABEL
from mcpdesc_docs.render import markdown
from mcpdesc_docs.render.markdown import MAX_MARKDOWN, MAX_NESTING
from mcpdesc_docs.render.pages import render_site
from mcpdesc_docs.render.theme import load_theme
from mcpdesc_docs.validation.validator import check_document

from .bounded import run_bounded
from .sites import build, parse
from .work_counts import calls

MEMORY_LIMIT = 2 * 1024**3
"""Address space of a bounded build (issue 15 asks for a peak under 1 GB; Python's own
mappings make the address space larger than the resident set)."""
BUILD_CPU_SECONDS = 50
"""Ten times the issue's 5 s target for a 1 MB description, in CPU time."""


def document(**root: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "mcpdesc": "0.9.0",
        "info": {"name": "hostile", "version": "1.0.0"},
        "protocolVersions": ["2025-06-18"],
    }
    data.update(root)
    return data


def fan_out_schema(levels: int, width: int) -> dict[str, Any]:
    """``$defs`` levels whose ``width`` properties all refer to the next level: expanded
    at every use, a table would have width**levels rows."""
    definitions: dict[str, Any] = {}
    for level in range(levels):
        if level == levels - 1:
            definitions[f"L{level}"] = {"type": "string", "description": "The leaf."}
        else:
            properties = {f"p{n}": {"$ref": f"#/$defs/L{level + 1}"} for n in range(width)}
            definitions[f"L{level}"] = {"type": "object", "properties": properties}
    return {"type": "object", "properties": {"root": {"$ref": "#/$defs/L0"}}, "$defs": definitions}


def bounded_build(tmp_path: Path, data: dict[str, Any]) -> tuple[int, int, int, str]:
    """Build ``data`` in a subprocess under a memory limit and a CPU-time budget: (exit code,
    input bytes, site bytes, stderr)."""
    source = tmp_path / "hostile.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    site = tmp_path / "site"

    done = run_bounded(
        "build",
        str(source),
        "-o",
        str(site),
        seconds=BUILD_CPU_SECONDS,
        address_space=MEMORY_LIMIT,
        env={"MCPDESC_DOCS_CACHE_DIR": ""},
    )
    if done.returncode == 0:
        assert (site / "index.html").is_file(), done.stderr
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file()) if site.is_dir() else 0
    return done.returncode, source.stat().st_size, size, done.stderr


# Class 3: $ref fan-out in schema tables.


def test_a_definition_used_several_times_is_expanded_once_and_linked():
    schema_tree._tree_of_text.cache_clear()
    rows = build_schema_tree(fan_out_schema(10, 4), "input").rows
    # root, then per level one expanded property and three links: 1 + 9 * 4, not 4**10.
    assert len(rows) == 1 + 9 * 4
    anchors = {row.anchor: index for index, row in enumerate(rows)}
    links = [row for row in rows if row.listed_at is not None]
    assert len(links) == 9 * 3
    for index, row in enumerate(rows):
        if row.listed_at is not None:
            assert anchors[row.listed_at] < index  # points back at the first expansion
            assert row.listed_as == f"L{row.anchor.count('.')}"
            assert row.types == ("object",) or row.types == ("string",)
    assert rows[anchors["input-root.p0.p0"]].listed_at is None


def test_rows_grow_with_the_schema_not_with_the_paths_through_it():
    counts = [len(build_schema_tree(fan_out_schema(levels, 6), "input").rows) for levels in (4, 8)]
    assert counts == [1 + 3 * 6, 1 + 7 * 6]


def test_definitions_shared_by_branches_of_a_combinator_are_listed_once():
    shared = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    schema = {
        "type": "object",
        "properties": {"x": {"anyOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/S"}]}, "y": {"$ref": "#/$defs/S"}},
        "$defs": {"S": shared},
    }
    rows = build_schema_tree(schema, "input").rows
    assert [(r.anchor, r.listed_at) for r in rows] == [
        ("input-x", None),
        ("input-x.anyOf1", None),
        ("input-x.anyOf1.a", None),
        ("input-x.anyOf1.b", None),
        ("input-x.anyOf2", "input-x.anyOf1"),
        ("input-y", "input-x.anyOf1"),
    ]


def test_members_written_beside_a_repeated_ref_are_still_listed():
    schema = {
        "type": "object",
        "properties": {
            "home": {"$ref": "#/$defs/Address"},
            "work": {"$ref": "#/$defs/Address", "properties": {"floor": {"type": "integer"}}},
        },
        "$defs": {"Address": {"type": "object", "properties": {"street": {"type": "string"}}}},
    }
    rows = build_schema_tree(schema, "input").rows
    assert [r.anchor for r in rows] == ["input-home", "input-home.street", "input-work", "input-work.floor"]
    assert rows[2].listed_as == "Address"


def test_a_reference_to_the_root_is_recursive():
    schema = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}}
    rows = build_schema_tree(schema, "input").rows
    assert [r.anchor for r in rows] == ["input-children", "input-children.items"]
    assert "recursive: see above" in rows[1].constraints


_ONE_SUBSCHEMA = ("items", "additionalProperties", "not", "if", "then", "else")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def _places(value: object) -> int:
    """Where a schema writes a subschema (or lists a required name), wherever it is."""
    if isinstance(value, list):
        return sum(_places(item) for item in value)
    if not isinstance(value, dict):
        return 0
    own = sum(
        len(value[k]) for k in ("properties", "patternProperties", "required") if isinstance(value.get(k), (dict, list))
    )
    own += sum(k in value for k in _ONE_SUBSCHEMA)
    own += sum(len(value[k]) for k in _SUBSCHEMA_LISTS if isinstance(value.get(k), list))
    return own + sum(_places(v) for v in value.values())


_REFS = st.sampled_from(
    ["#", "#/$defs/A", "#/$defs/B", "#/$defs/A/properties/x", "#/$defs/missing", "#/", "#/properties"]
)
_SUBSCHEMAS = st.recursive(
    # Fresh objects on every draw (st.just would hand every case the same dict).
    st.one_of(st.booleans(), st.builds(lambda r: {"$ref": r}, _REFS), st.builds(lambda: {"type": "string"})),
    lambda inner: st.one_of(
        st.dictionaries(st.sampled_from(["x", "y", "z"]), inner, max_size=3).map(
            lambda props: {"type": "object", "properties": props, "required": ["x", "w"]}
        ),
        st.builds(lambda item: {"type": "array", "items": item}, inner),
        st.lists(inner, max_size=3).map(lambda branches: {"anyOf": branches}),
        st.builds(lambda r, sub: {"$ref": r, "properties": {"extra": sub}}, _REFS, inner),
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(root=_SUBSCHEMAS, a=_SUBSCHEMAS, b=_SUBSCHEMAS)
def test_every_row_comes_from_its_own_place_in_the_schema(root, a, b):
    schema = {"type": "object", "properties": {"r": root}, "$defs": {"A": a, "B": b}}
    tree = build_schema_tree(schema, "input")
    # Each subschema is expanded at most once, so at most a row per place where one is
    # written (or a required name is listed), however many ways lead there.
    assert len(tree.rows) + tree.omitted_rows <= _places(schema)
    anchors = [row.anchor for row in tree.rows]
    assert len(set(anchors)) == len(anchors)
    for index, row in enumerate(tree.rows):
        if row.listed_at is not None:
            assert row.listed_at in anchors[:index]


def test_a_wide_schema_shows_a_bounded_number_of_rows_and_says_how_many_are_left_out():
    wide = {"type": "object", "properties": {f"p{n}": {"type": "string"} for n in range(MAX_ROWS + 345)}}
    tree = build_schema_tree(wide, "input")
    assert len(tree.rows) == MAX_ROWS
    assert tree.omitted_rows == 345
    assert '"p2344"' in tree.json  # the JSON view keeps everything


def test_rows_past_the_cap_are_counted_without_expanding_shared_definitions_again():
    schema = fan_out_schema(60, 40)  # 59 * 40 rows: past the cap, still linear
    tree = build_schema_tree(schema, "input")
    assert len(tree.rows) + tree.omitted_rows == 1 + 12 * 40  # MAX_DEPTH cuts the levels off


def test_schema_tables_link_repeats_and_count_what_is_left_out(tmp_path):
    wide = {"type": "object", "properties": {f"p{n}": {"type": "string"} for n in range(MAX_ROWS + 5)}}
    data = document(
        tools=[
            {"name": "fan", "inputSchema": fan_out_schema(10, 4)},
            {"name": "wide", "inputSchema": wide},
        ]
    )
    (tmp_path / "d.json").write_text(json.dumps(data))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    page = parse(tmp_path / "site" / "tools" / "fan.html")
    link = page.select_one('tr[id="input-root.p1"] a[href="#input-root.p0"]')
    assert link is not None
    assert link.get_text() == "L1"
    assert len(page.select("table.params tbody tr[id]")) == 37  # schema rows, not the folds holding them
    wide_page = parse(tmp_path / "site" / "tools" / "wide.html")
    assert len(wide_page.select("table.params tbody tr[id]")) == MAX_ROWS
    assert "… 5 more rows not shown" in wide_page.select_one("table.params tr.more").get_text()
    twin = (tmp_path / "site" / "tools" / "fan.md").read_text()
    assert "- `p1` (object; see L1 above)" in twin
    assert "- … 5 more rows not shown" in (tmp_path / "site" / "tools" / "wide.md").read_text()


@pytest.mark.parametrize(("levels", "width"), [(10, 4), (24, 8)])
def test_fan_out_schemas_build_within_bounds(tmp_path, levels, width):
    data = document(tools=[{"name": "t", "inputSchema": fan_out_schema(levels, width)}])
    code, size_in, size_out, err = bounded_build(tmp_path, data)
    assert code == 0, err
    assert size_out < 100 * size_in + 200_000, (size_in, size_out)


# Class 9: Markdown cost.

PATHOLOGICAL_MARKDOWN = {
    "brackets": lambda n: "[" * n,
    "nested link labels": lambda n: "[a" * (n // 2) + "](b)",
    "emphasis delimiters": lambda n: "*a _" * (n // 4),
    "nested list markers": lambda n: "* " * (n // 2) + "x",
    "quotes": lambda n: "> " * (n // 2) + "x",
    "list items": lambda n: "- a\n" * (n // 4),
    "backtick runs": lambda n: "".join("`" * (i % 50 + 1) + "a" for i in range(n // 26)),
    "prose": lambda n: "Some *emphasis*, a [link](https://example.com) and `code`.\n\n" * (n // 60),
    "image brackets": lambda n: "![" * (n // 2),
    "emphasised brackets": lambda n: "*![" * (n // 3),
    "bracket lines": lambda n: "!\n[" * (n // 3),
}
LINK_LABEL_CLASSES = ["brackets", "nested link labels", "image brackets", "emphasised brackets", "bracket lines"]


def markdown_calls(text: str) -> int:
    return calls(lambda: markdown.render_markdown(text))


@pytest.mark.parametrize("name", PATHOLOGICAL_MARKDOWN)
def test_markdown_work_is_linear_and_bounded_per_character(name):
    make = PATHOLOGICAL_MARKDOWN[name]
    small, large = markdown_calls(make(6000)), markdown_calls(make(12000))
    assert large / small <= 2.1, (small, large)
    # markdown-it's default nesting limit (100) costs about 330 calls per "[".
    assert large / 12000 <= 120, large


@pytest.mark.parametrize("name", LINK_LABEL_CLASSES)
def test_link_labels_look_ahead_within_a_budget(name):
    # Every "[" made markdown-it step over the tokens after it, MAX_NESTING deep: 77 to 109
    # calls a character; the look-ahead budget stops such a text at under half of that.
    large = markdown_calls(PATHOLOGICAL_MARKDOWN[name](12000))
    assert large / 12000 <= 50, large


def test_a_text_over_its_look_ahead_budget_is_shown_as_escaped_paragraphs():
    text = "![<b>" * 2000 + "\n\n" + "[" * 3000
    markdown.clear_caches()
    assert markdown.render_markdown(text) == Markup(f"<p>{escape('![<b>' * 2000)}</p>\n<p>{'[' * 3000}</p>\n")
    assert markdown.render_inline(text) == escape(text)
    # Links nested as prose nests them, many of them, stay links.
    prose = "See [the [full] guide](https://example.com/g) and [*x* `]` z][r].\n" * 1000
    html = markdown.render_markdown(prose + "\n[r]: https://example.com/z\n")
    assert html.count('<a href="https://example.com/g">the [full] guide</a>') == 1000
    assert html.count('<a href="https://example.com/z"><em>x</em> <code>]</code> z</a>') == 1000


def test_deep_nesting_stops_at_the_limit():
    html = markdown.render_markdown("> " * (MAX_NESTING + 10) + "deep\n\nafter")
    assert html.count("<blockquote>") == MAX_NESTING
    assert "<p>after</p>" in html


def test_a_field_too_long_to_parse_is_shown_as_escaped_paragraphs():
    paragraph = "Some *emphasis* <script>alert(1)</script> [x](javascript:alert(2))"
    text = "\n\n".join([paragraph] * (MAX_MARKDOWN // len(paragraph) + 1))
    assert len(text) > MAX_MARKDOWN
    html = markdown.render_markdown(text)
    assert "<em>" not in html
    assert "<script>" not in html
    assert "href" not in html
    assert html.count("<p>") == text.count("\n\n") + 1
    assert html.startswith("<p>Some *emphasis* &lt;script&gt;")
    assert markdown.render_inline(text) == escape(text)
    assert markdown.plain_text(text) == " ".join(text.split())
    short = "Some *emphasis*"
    assert "<em>emphasis</em>" in markdown.render_markdown(short)


def test_each_text_is_parsed_once_per_build(tmp_path, monkeypatch):
    parsed: Counter[tuple[str, str]] = Counter()
    block, inline = MarkdownIt.parse, MarkdownIt.parseInline

    def parse(self: MarkdownIt, src: str, env: Any = None) -> Any:
        parsed[("block", src)] += 1
        return block(self, src, env)

    def parse_inline(self: MarkdownIt, src: str, env: Any = None) -> Any:
        parsed[("inline", src)] += 1
        return inline(self, src, env)

    monkeypatch.setattr(MarkdownIt, "parse", parse)
    monkeypatch.setattr(MarkdownIt, "parseInline", parse_inline)
    markdown.clear_caches()
    description = "Finds **tickets**. Quotes match a phrase."
    data = document(
        tags=[{"name": "work", "description": "All the *work*."}],
        tools=[
            {
                "name": f"t{n}",
                "description": description,
                "tags": ["work"],
                "inputSchema": {
                    "type": "object",
                    "properties": {"q": {"type": "string", "description": "The *query*."}},
                },
            }
            for n in range(3)
        ],
    )
    (tmp_path / "d.json").write_text(json.dumps(data))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    # Shown on three pages, in the search index and (its first sentence) in the catalogue.
    assert parsed[("block", description)] == 1
    assert parsed[("inline", "The *query*.")] == 1
    assert parsed[("block", "All the *work*.")] == 1
    assert max(parsed.values()) == 1
    index = json.loads((tmp_path / "site" / "search-index.json").read_text())
    assert {"The query.", "Finds tickets."} <= {entry["text"] for entry in index}


def test_a_megabyte_of_pathological_markdown_builds_within_bounds(tmp_path):
    fields = [make(90_000) for make in PATHOLOGICAL_MARKDOWN.values()]
    tools = [
        {
            "name": f"t{n}",
            "description": text,
            "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "description": text[:40_000]}}},
        }
        for n, text in enumerate(fields)
    ]
    tools.append({"name": "one_field", "description": "[" * 1_000_000, "inputSchema": {"type": "object"}})
    code, size_in, size_out, err = bounded_build(tmp_path, document(tools=tools))
    assert code == 0, err
    assert size_in > 1_900_000
    assert size_out < 10 * size_in + 500_000, (size_in, size_out)


# Class 10a: names that slug alike, through the whole build.

_PUNCTUATION = "!#$%&()*+,/:;<=>?@[]^{|}~ "


def alike(count: int, stem: str) -> list[str]:
    """``count`` different names that all slug (and anchor) to ``stem``."""
    names = (stem + "".join(p) for p in itertools.product(_PUNCTUATION, repeat=3))
    return [stem.upper(), *itertools.islice(names, count - 1)]


def alike_description(n: int) -> dict[str, Any]:
    tags = alike(n, "tag")
    return document(
        tags=[{"name": tag, "description": "Tagged."} for tag in tags],
        tools=[
            {
                "name": name,
                "description": "Does it.",
                "tags": list(dict.fromkeys([tag, tags[0]])),
                "inputSchema": {"type": "object"},
            }
            for name, tag in zip(alike(n, "tool"), tags, strict=True)
        ],
        resources=[{"uri": f"docs://{i}", "name": "doc"} for i in range(n)],
        prompts=[{"name": name} for name in alike(n, "prompt")],
    )


def whole_build_calls(data: dict[str, Any], config: Config) -> int:
    checked = check_document(data)
    assert checked.document is not None
    assert not [d for d in checked.diagnostics if d.is_error]
    theme = load_theme(config.theme)
    return calls(lambda: render_site(build_site(checked.document), theme, config))


def test_names_that_slug_alike_cost_linear_work_through_the_whole_build(tmp_path):
    # Sizes above the sidebar's full-listing limit, each name shared by every kind of
    # page and anchor: paths, tag pages, sidebar groups, search entries, twins, llms.txt.
    config = Config(description=tmp_path / "d.yaml", site_dir=tmp_path / "site")
    whole_build_calls(alike_description(10), config)  # compile the templates
    small = whole_build_calls(alike_description(100), config)
    large = whole_build_calls(alike_description(200), config)
    assert large / small <= 2.1, (small, large)


def test_many_tags_keep_every_sidebar_a_bounded_size(tmp_path):
    data = alike_description(400)
    (tmp_path / "d.json").write_text(json.dumps(data))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    site = tmp_path / "site"
    assert {p.name for p in (site / "tags").iterdir()} == {"tag.html", *(f"tag-{n}.html" for n in range(2, 401))}
    middle = parse(site / "tools" / "tool-201.html").select_one("#site-nav .nav-kind")
    headings = [h.get_text(strip=True) for h in middle.select(".nav-tag")]
    assert len(headings) == 2 * GROUP_WINDOW + 1
    assert [a.get_text() for a in middle.select("a.nav-more")][:1] == [f"{200 - GROUP_WINDOW} more groups…"]
    assert middle.select("a.nav-more")[-1].get_text() == f"{400 - 201 - GROUP_WINDOW} more groups…"
    tag_page = parse(site / "tags" / "tag-301.html").select_one("#site-nav .nav-kind")
    assert tag_page.select_one('.nav-tag a[aria-current="page"]') is not None
    sizes = [p.stat().st_size for p in (site / "tools").glob("*.html")]
    assert max(sizes) < 2 * min(sizes)


# The site-size bound: what one place in the description may make every page repeat.


def shared_components(uses: int, size: int) -> dict[str, Any]:
    """One large schema, form and example, each named by ``uses`` tools."""
    properties = {f"p{n}": {"type": "string", "description": f"Field {n} of the shared schema."} for n in range(size)}
    form = {"type": "object", "properties": {f"f{n}": {"type": "string", "title": f"Field {n}"} for n in range(size)}}
    example = {"input": {}, "result": {"content": [{"type": "text", "text": "Done. " * size * 20}]}}
    return document(
        components={
            "schemas": {"Big": {"type": "object", "properties": properties}, "Form": form},
            "toolExamples": {"Run": example},
        },
        tools=[
            {
                "name": f"tool_{n}",
                "inputSchema": {"$componentRef": "#/components/schemas/Big"},
                "elicitations": [
                    {
                        "name": "ask",
                        "mode": "form",
                        "message": "Fill it in.",
                        "requestedSchema": {"$componentRef": "#/components/schemas/Form"},
                    }
                ],
                "examples": {"run": {"$componentRef": "#/components/toolExamples/Run"}},
            }
            for n in range(uses)
        ],
    )


def long_site_strings(pages: int, length: int) -> dict[str, Any]:
    """Strings every page shows (title, version, $schema, an inherited requirement with
    many scopes, many transports with their own), each written once."""
    scopes = [f"scope.{n:06d}" for n in range(length // 12)]
    data = document(
        securitySchemes={
            "oauth": {
                "type": "oauth2",
                "flows": {
                    "clientCredentials": {"tokenUrl": "https://id.example.com/t", "scopes": dict.fromkeys(scopes, "")}
                },
            }
        },
        security=[{"oauth": scopes}],
        transports=[{"type": "stdio", "command": f"run{n}", "security": []} for n in range(length // 40)],
        tools=[{"name": f"t{n}", "inputSchema": {"type": "object"}} for n in range(pages)],
    )
    data["$schema"] = "https://schemas.example.com/" + "s" * length
    data["info"].update(title="T" * length, version="1." + "9" * length)
    return data


def long_names_with_many_tags(tools: int, tags: int, length: int) -> dict[str, Any]:
    """Long names listed on every tag page of the tool's, and in its neighbours' sidebars."""
    names = [f"tag{n}" for n in range(tags)]
    return document(
        tags=[{"name": name} for name in names],
        tools=[
            {"name": f"{n}" + "n" * length, "title": "T" * length, "tags": names, "inputSchema": {"type": "object"}}
            for n in range(tools)
        ],
    )


def test_a_large_component_used_everywhere_is_shown_in_full_until_the_budget_then_linked(tmp_path):
    data = shared_components(40, 300)
    (tmp_path / "d.json").write_text(json.dumps(data))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    tools = tmp_path / "site" / "tools"
    first = parse(tools / "tool_0.html")
    assert len(first.select("#parameters table.params tbody tr")) == 300
    assert first.select_one("#elicitation-ask form[data-form-preview]") is not None
    assert first.select_one("#example-run pre.json") is not None
    last = parse(tools / "tool_39.html")
    assert last.select("#parameters table.params") == []
    links = {a["href"] for a in last.select(".shown-elsewhere a")}
    assert links == {"tool_0.html#parameters", "tool_0.html#elicitation-ask", "tool_0.html#example-run"}
    for link in links:
        page, _, anchor = link.partition("#")
        assert parse(tools / page).find(id=anchor) is not None
    assert last.select_one("#elicitation-ask form[data-form-preview]") is None
    assert "shown in full in tools/tool_0.md" in (tools / "tool_39.md").read_text()
    shown = [p for p in tools.glob("*.html") if parse(p).select("#parameters table.params")]
    assert 2 <= len(shown) < 20
    index = json.loads((tmp_path / "site" / "search-index.json").read_text())
    assert sum(entry["kind"].startswith("Parameter of") for entry in index) == 300 * len(shown)


def test_a_small_component_is_shown_in_full_at_every_use(tmp_path):
    small = {"type": "object", "properties": {"page": {"type": "integer"}, "size": {"type": "integer"}}}
    data = document(
        components={"schemas": {"Paging": small}},
        tools=[{"name": f"t{n}", "inputSchema": {"$componentRef": "#/components/schemas/Paging"}} for n in range(5)],
    )
    (tmp_path / "d.json").write_text(json.dumps(data))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    for n in range(5):
        page = parse(tmp_path / "site" / "tools" / f"t{n}.html")
        assert [tr["id"] for tr in page.select("#parameters tbody tr")] == ["input-page", "input-size"]
        assert page.select(".shown-elsewhere") == []


def test_strings_every_page_shows_are_clipped_or_linked_there(tmp_path):
    data = long_site_strings(3, 20_000)
    (tmp_path / "d.json").write_text(json.dumps(data))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    index = parse(tmp_path / "site" / "index.html")
    assert index.select_one("h1").get_text() == "T" * 20_000  # in full on the overview
    page = parse(tmp_path / "site" / "tools" / "t1.html")
    assert page.select_one(".site-title").get_text() == "T" * (MAX_LABEL - 1) + "…"
    assert len(page.select_one(".site-version").get_text()) == MAX_LABEL + 1  # "v" and the label
    assert len(page.select_one(".site-footer code").get_text()) == MAX_LABEL
    security = page.select_one("#security")
    assert "scope.000001" not in security.get_text()
    assert security.select_one('a[href="../index.html#security"]') is not None
    assert "the transport's requirement applies where it declares one" in security.get_text()
    assert "scope.000001" in index.select_one("#security").get_text()
    assert "(index.html#security)" in (tmp_path / "site" / "tools" / "t1.md").read_text()


def test_long_names_are_clipped_where_other_pages_list_them(tmp_path):
    data = long_names_with_many_tags(3, 4, 5_000)
    (tmp_path / "d.json").write_text(json.dumps(data))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    site = tmp_path / "site"
    own = next(site.glob("tools/1*.html"))
    assert parse(own).select_one("main")["data-name"] == "1" + "n" * 5_000
    for listing in (site / "tags" / "tag3.html", site / "index.html", own):  # the overview's tag lists
        listed = parse(listing)
        for link in (listed.select_one("#tags") or listed).select('a[href$=".html"]'):
            assert len(link.get_text(strip=True)) <= MAX_LABEL + 20, (listing, link.get_text()[:40])
    index = json.loads((site / "search-index.json").read_text())
    assert max(len(entry["kind"]) for entry in index) < MAX_LABEL + 40


HOSTILE_SITES = {
    # name: (description, site bytes allowed per input byte)
    "fan-out schema": (lambda: document(tools=[{"name": "t", "inputSchema": fan_out_schema(30, 30)}]), 60),
    "shared components": (lambda: shared_components(500, 300), 60),
    "strings on every page": (lambda: long_site_strings(1000, 100_000), 30),
    "long names, many tags": (lambda: long_names_with_many_tags(60, 300, 20_000), 30),
    "names that slug alike": (lambda: alike_description(1000), 250),
}


@pytest.mark.parametrize("name", HOSTILE_SITES)
def test_hostile_descriptions_write_a_site_bounded_by_their_size(tmp_path, name):
    make, factor = HOSTILE_SITES[name]
    code, size_in, size_out, err = bounded_build(tmp_path, make())
    assert code == 0, err
    # The constant: the theme's assets and pages every site has, about 50 KB, and the
    # budget for repeats (components.REPEAT_FLOOR).
    assert size_out <= factor * size_in + REPEAT_FLOOR + 1_000_000, (size_in, size_out, size_out / size_in)
