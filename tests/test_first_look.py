"""The overview's first look, as HTML: the index first, the install panel's configurations
and links, behaviour marks, the search index's extra entries and the 404 page."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from mcpdesc_docs.devserver.handler import rooted
from mcpdesc_docs.model.install import CLIENTS, build_install, config_key
from mcpdesc_docs.model.links import is_install_link, is_safe_link
from mcpdesc_docs.model.risk import risk_marks

from .helpers import base_document
from .sites import build, parse


def built(tmp_path: Path, document: dict[str, Any]) -> Path:
    (tmp_path / "d.json").write_text(json.dumps(document))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    return tmp_path / "site"


def secret_transport() -> dict[str, Any]:
    return {
        "type": "stdio",
        "command": "npx",
        "args": ["-y", "pagekeeper-mcp"],
        "env": {"PAGEKEEPER_TOKEN": "Your API token", "PAGEKEEPER_URL": "https://pages.example.com"},
    }


def test_config_keys_have_no_spaces():
    assert config_key("Microsoft Learn MCP Server") == "microsoft-learn-mcp-server"
    assert config_key("  ") == "server"
    assert config_key("Ünïcode  tools!") == "n-code-tools"


def test_a_secret_is_never_pasted_as_its_description():
    install = build_install("PageKeeper", "stdio", "npx", ["-y", "pagekeeper-mcp"], secret_transport()["env"], None)
    clients = {c.client: c for c in install.clients}
    assert tuple(clients) == CLIENTS
    for client in ("claude-desktop", "cursor", "json"):
        config = json.loads(clients[client].config or "")
        env = config["mcpServers"]["pagekeeper"]["env"]
        assert env == {"PAGEKEEPER_TOKEN": "<YOUR_PAGEKEEPER_TOKEN>", "PAGEKEEPER_URL": "https://pages.example.com"}
    vscode = json.loads(clients["vscode"].config or "")
    assert vscode["servers"]["pagekeeper"]["env"]["PAGEKEEPER_TOKEN"] == "${input:pagekeeper-token}"
    assert vscode["inputs"] == [
        {"type": "promptString", "id": "pagekeeper-token", "description": "Your API token", "password": True}
    ]
    assert clients["vscode"].link is not None
    assert "Your%20API%20token" in clients["vscode"].link
    command = clients["claude-code"].command or ""
    assert command.startswith("claude mcp add --transport stdio --env 'PAGEKEEPER_TOKEN=<YOUR_PAGEKEEPER_TOKEN>'")
    assert command.endswith("pagekeeper -- npx -y pagekeeper-mcp")
    assert "Your API token" not in json.dumps([c.config for c in install.clients if c.client != "vscode"])


def test_inputs_that_read_alike_get_ids_of_their_own():
    install = build_install("x", "stdio", "x", [], {"API_TOKEN": "", "api-token": "", "Api.Token": ""}, None)
    assert [s.input_id for s in install.secrets] == ["api-token", "api-token-2", "api-token-3"]


def test_prose_values_are_asked_for_but_plain_values_are_kept():
    env = {"PROJECT_DIR": "The folder to index", "MODE": "tab\there", "LEVEL": "debug"}
    install = build_install("x", "stdio", "x", [], env, None)
    assert [(s.name, s.password) for s in install.secrets] == [("PROJECT_DIR", False)]


def decoded_links(site: Path) -> tuple[dict[str, Any], dict[str, Any], Any]:
    overview = parse(site / "index.html")
    panel = overview.select_one("[data-install] .install-transport")
    assert panel is not None
    cursor = panel.select_one('[data-client="cursor"] a[data-install-link]')["href"]
    vscode = panel.select_one('[data-client="vscode"] a[data-install-link]')["href"]
    assert cursor.startswith("cursor://anysphere.cursor-deeplink/mcp/install?")
    query = parse_qs(urlsplit(cursor).query)
    cursor_config = json.loads(base64.b64decode(query["config"][0]))
    assert vscode.startswith("vscode:mcp/install?")
    vscode_config = json.loads(unquote(vscode.split("?", 1)[1]))
    return cursor_config, vscode_config, panel


def test_install_links_configure_what_the_json_tabs_show(tmp_path):
    site = built(tmp_path, base_document(info={"name": "Page Keeper", "version": "1"}, transports=[secret_transport()]))
    cursor_config, vscode_config, panel = decoded_links(site)
    shown = json.loads(panel.select_one('[data-client="json"] pre').get_text())
    assert shown == {"mcpServers": {"page-keeper": cursor_config}}
    assert json.loads(panel.select_one('[data-client="cursor"] pre').get_text()) == shown
    vscode_file = json.loads(panel.select_one('[data-client="vscode"] pre').get_text())
    assert vscode_config.pop("name") == "page-keeper"
    assert vscode_config.pop("inputs") == vscode_file["inputs"]
    assert vscode_config == vscode_file["servers"]["page-keeper"]
    assert panel.select_one('[data-client="claude-code"] pre').get_text().startswith("claude mcp add")


def test_install_links_over_http(tmp_path):
    document = base_document(transports=[{"type": "streamable-http", "url": "https://mcp.example.com/x?a=1&b=2"}])
    cursor_config, vscode_config, panel = decoded_links(built(tmp_path, document))
    assert cursor_config == {"type": "http", "url": "https://mcp.example.com/x?a=1&b=2"}
    assert vscode_config == {"name": "example", "type": "http", "url": "https://mcp.example.com/x?a=1&b=2"}
    code = panel.select_one('[data-client="claude-code"] pre').get_text()
    assert code == "claude mcp add --transport http example 'https://mcp.example.com/x?a=1&b=2'"


def test_install_schemes_are_links_only_where_the_build_makes_them(tmp_path):
    link = "cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=e30="
    assert not is_safe_link(link)
    assert not is_safe_link("vscode:mcp/install?%7B%7D")
    document = base_document(
        info={"name": "x", "version": "1", "description": f"[install]({link}) and [code](vscode:mcp/install?x)"},
        transports=[{"type": "stdio", "command": "x"}],
    )
    site = built(tmp_path, document)
    for page in site.rglob("*.html"):
        for anchor in parse(page).select("a[href]"):
            if is_install_link(anchor["href"]) or urlsplit(anchor["href"]).scheme in ("cursor", "vscode"):
                assert anchor.has_attr("data-install-link")
                assert anchor.find_parent(attrs={"data-install": True})


def test_index_comes_before_connect_and_the_details_fold(sample_site):
    overview = parse(sample_site / "index.html")
    order = [e.get("id") for e in overview.select("main section[id], main aside[id]")]
    assert order.index("catalogue") < order.index("install") < order.index("about") < order.index("connect")
    index = overview.select_one("[data-primitive-index]")
    names = [a.get_text() for a in index.select("li a code")]
    assert {"search_tickets", "delete_ticket", "sla_policy"} <= set(names)
    assert overview.select_one("#security details.flow > summary")  # OAuth flows folded
    assert overview.select_one("#protocol details.folded article.capabilities")
    header = overview.select_one(".page-header")
    assert not header.select(".badge-version")
    assert "id" not in header.get_text().split()


def test_risk_marks_follow_mcp_defaults():
    def keys(*hints: tuple[str, bool]) -> list[tuple[str, bool]]:
        return [(m.key, m.implied) for m in risk_marks(hints)]

    assert keys() == [("destructive", True), ("open-world", True)]
    assert keys(("readOnlyHint", True)) == [("read-only", False), ("open-world", True)]
    assert keys(("readOnlyHint", True), ("openWorldHint", False)) == [("read-only", False)]
    written = (("destructiveHint", False), ("idempotentHint", True), ("openWorldHint", True))
    assert keys(*written) == [("non-destructive", False), ("idempotent", False), ("open-world", False)]


def test_marks_titles_and_deprecation_in_every_list(sample_site):
    for path, item in (("index.html", "[data-primitive-index] li"), ("tags/tickets.html", "main .catalogue li")):
        page = parse(sample_site / path)
        rows = {li.select_one("a code").get_text(): li for li in page.select(item)}
        delete = rows["delete_ticket"]
        assert delete.select_one('.risk-danger[data-risk="destructive"]')
        assert delete.select_one(".badge-deprecated")
        assert "Delete ticket" in delete.get_text()
        assert rows["search_tickets"].select_one('.risk-ok[data-risk="read-only"]:not([data-implied])')
    nav = parse(sample_site / "index.html").select_one("#site-nav")
    entry = next(li for li in nav.select("li") if li.select_one("a").get_text() == "delete_ticket")
    assert entry.select_one(".risk-danger")
    assert entry.select_one(".badge-deprecated")
    assert "Delete ticket" in entry.get_text()


def test_serve_roots_its_404_page():
    page = b'<!doctype html>\n<html><head>\n<meta charset="utf-8">'
    assert rooted(page) == b'<!doctype html>\n<html><head>\n<base href="/">\n<meta charset="utf-8">'
    with_base = b'<html><head>\n<base href="/repo/">'
    assert rooted(with_base) == with_base


def test_search_indexes_enum_values_const_titles_and_template_variables(sample_site):
    text = (sample_site / "search-index.json").read_text(encoding="utf-8")
    entries = json.loads(text)
    priority = [e for e in entries if e["title"] == "priority"]
    assert priority
    assert all("urgent" in e["text"] for e in priority)
    assert any("Urgent – people cannot work" in e["text"] for e in priority)  # a const's title
    variables = {e["title"] for e in entries if e["kind"].startswith("URI template variable")}
    assert {"ticket_id", "team", "period"} <= variables


def test_a_parameter_is_found_by_its_values_and_their_titles(tmp_path):
    schema = {
        "type": "object",
        "properties": {
            "level": {"type": "string", "enum": ["quiet", "loud"]},
            "mode": {"oneOf": [{"const": "fast", "title": "Fast lane"}, {"const": "safe", "title": "Careful"}]},
        },
    }
    document = base_document(tools=[{"name": "tune", "inputSchema": schema}])
    entries = json.loads((built(tmp_path, document) / "search-index.json").read_text(encoding="utf-8"))
    texts = {e["title"]: e["text"] for e in entries if e["kind"].startswith("Parameter of")}
    assert "quiet" in texts["level"]
    assert "loud" in texts["level"]
    assert all(word in texts["mode"] for word in ("fast", "Fast lane", "safe", "Careful"))
