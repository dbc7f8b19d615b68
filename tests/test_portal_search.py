"""The portal's search (one index in chunks, loaded only by the search page, filtered by
server, kind and tag) and its pages by tag and by capability."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mcpdesc_docs.errors import ExitCode
from mcpdesc_docs.portal import assemble

from .portal_projects import generated_portal
from .sites import parse, run


def chunk_entries(site: Path) -> list[dict[str, object]]:
    entries: list[dict[str, object]] = []
    for number, chunk in enumerate(sorted(site.glob("search/chunk-*.js"), key=lambda p: int(p.stem[6:]))):
        text = chunk.read_text(encoding="utf-8")
        match = re.fullmatch(rf"window\.mcpdescPortalChunk\({number}, (.*)\);\n", text, re.DOTALL)
        assert match is not None, chunk
        entries.extend(json.loads(match[1]))
    return entries


@pytest.fixture(scope="module")
def portal(example_portal_site: Path) -> Path:
    return example_portal_site


def test_search_finds_a_tool_of_every_server(portal: Path) -> None:
    entries = chunk_entries(portal)
    servers = {li["data-server"] for li in parse(portal / "index.html").select("li[data-server]")}
    for slug in servers:
        server_entry = json.loads((portal / slug / "portal-entry.json").read_text(encoding="utf-8"))
        tools = [p for p in server_entry["pages"] if p["kind"] == "tool"]
        assert [e["title"] for e in entries if e["server"] == slug and e["kind"] == "server"] == [server_entry["title"]]
        found = [e for e in entries if e["server"] == slug and e["kind"] == "tool"]
        assert {e["names"] for e in found} == {t["name"] for t in tools}
        for entry in found:
            assert (portal / str(entry["url"])).is_file()
            assert entry["serverTitle"] == server_entry["title"]
    with_tools = {e["server"] for e in entries if e["kind"] == "tool"}
    assert len(with_tools) >= 10  # every server but the minimal example offers tools


def test_entries_carry_what_the_filters_need(portal: Path) -> None:
    entries = chunk_entries(portal)
    assert {e["kind"] for e in entries} >= {"server", "tool", "resource", "prompt"}
    tagged = [e for e in entries if e["kind"] == "tool" and e["tags"]]
    assert tagged
    page = parse(portal / "search.html")
    servers = page.select("select[data-portal-filter=server] option[data-chunk]")
    assert len(servers) == 11
    tags = {o["value"] for o in page.select("select[data-portal-filter=tag] option") if o["value"]}
    assert {t for e in entries for t in e["tags"]} <= tags  # type: ignore[attr-defined]
    kinds = {o["value"] for o in page.select("select[data-portal-filter=kind] option")}
    assert kinds == {"", "server", "tool", "resource", "resource-template", "prompt"}


def test_only_the_search_page_loads_the_index_and_only_when_asked(portal: Path) -> None:
    for page in portal.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "search/chunk-" not in text, page  # chunks are loaded by the script, on use
        assert "mcpdesc-portal.js" not in text or page.name == "search.html"
    home = (portal / "index.html").stat().st_size
    assert home < sum(p.stat().st_size for p in portal.glob("search/chunk-*.js")) + home  # not inlined
    assert "<script src" not in (portal / "index.html").read_text(encoding="utf-8").split("</head>")[1]


def test_chunks_hold_a_fixed_number_of_servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assemble, "SERVERS_PER_CHUNK", 2)
    config = generated_portal(tmp_path, 5, tools=1)
    assert run("build", str(config), "-j", "1")[0] == ExitCode.OK
    site = tmp_path / "site"
    assert len(list(site.glob("search/chunk-*.js"))) == 3
    options = parse(site / "search.html").select("option[data-chunk]")
    assert [(o["value"], o["data-chunk"]) for o in options] == [
        ("s0000", "0"),
        ("s0001", "0"),
        ("s0002", "1"),
        ("s0003", "1"),
        ("s0004", "2"),
    ]
    assert parse(site / "search.html").select_one("[data-portal-search]")["data-chunks"] == "3"
    for entry in chunk_entries(site):
        assert options[int(str(entry["server"])[1:])]["data-chunk"] in "012"


def test_tag_pages_gather_servers_and_pages(portal: Path) -> None:
    tags = parse(portal / "tags" / "index.html")
    links = {a.get_text(): a["href"] for a in tags.select("main li a")}
    assert "analysis" in links
    analysis = parse(portal / "tags" / links["analysis"])
    sections = analysis.select("section[data-server]")
    assert len(sections) >= 2  # a cross-server page
    for section in sections:
        for link in section.select("li a"):
            assert (portal / "tags" / link["href"]).resolve().is_file()


def test_capability_pages_list_the_servers_declaring_them(portal: Path) -> None:
    page = parse(portal / "capabilities" / "tools.html")
    listed = {li["data-server"] for li in page.select("li[data-server]")}
    declaring = {
        p.parent.name
        for p in portal.glob("*/portal-entry.json")
        if "tools" in json.loads(p.read_text(encoding="utf-8"))["capabilities"]
    }
    assert listed == declaring
    assert len(listed) >= 2


def test_hostile_tag_names_get_safe_distinct_files(tmp_path: Path) -> None:
    from mcpdesc_docs.portal.assemble import file_names

    paths = file_names(["A b", "a-b", "../x", "index", "<script>"], "tags")
    assert len(set(paths.values())) == 5
    assert paths["index"] != "tags/index.html"
    assert all(re.fullmatch(r"tags/[a-z0-9._-]+\.html", p) and ".." not in p for p in paths.values())


HOSTILE = """\
mcpdesc: "0.9.0"
info:
  name: "x</code><script>alert(1)</script>"
  title: "<img src=x onerror=alert(1)> Evil"
  version: "1<b>"
  description: "<script>alert(2)</script> one line"
protocolVersions: [2025-11-25]
capabilities:
  - tools: {listChanged: false}
    "x-<i>cap</i>": {}
tags:
  - name: "<svg onload=alert(3)>"
tools:
  - name: evil_tool
    title: "<u>Title</u>"
    description: "<iframe src=//evil></iframe> text"
    tags: ["<svg onload=alert(3)>"]
    inputSchema: {type: object}
"""


def test_what_a_description_says_is_text_on_every_portal_page(tmp_path: Path) -> None:
    (tmp_path / "evil.yaml").write_text(HOSTILE, encoding="utf-8")
    (tmp_path / "mcpdesc-docs.yml").write_text("descriptions: [evil.yaml]\n", encoding="utf-8")
    code, out, err = run("build", str(tmp_path), "-j", "1")
    assert code == ExitCode.OK, out + err
    site = tmp_path / "site"
    portal_pages = [p for p in site.rglob("*.html") if p.relative_to(site).parts[0] != "evil"]
    assert len(portal_pages) >= 6
    for page in portal_pages:
        soup = parse(page)
        assert not soup.select("main script, main img, main svg, main iframe, main u, main i, main b"), page
        assert all(script.get("src") for script in soup.select("script"))
    home = parse(site / "index.html")
    assert "<img src=x onerror=alert(1)> Evil" in home.select_one("li[data-server] strong").get_text()
    for chunk in site.glob("search/*.js"):
        assert chunk.read_text(encoding="utf-8").startswith("window.mcpdescPortalChunk(")
    assert all(p.resolve().is_relative_to(site.resolve()) for p in site.rglob("*"))
