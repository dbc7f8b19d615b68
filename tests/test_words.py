"""The page model states facts; templates/partials/words.html words them. Each case here is
a fact pattern the corpus does not all cover, with the sentence readers get for it."""

from __future__ import annotations

from typing import Any

import pytest

from mcpdesc_docs.config import Config, ThemeConfig
from mcpdesc_docs.model.builder import build_site
from mcpdesc_docs.render.pages import render_site
from mcpdesc_docs.render.theme import create_environment, load_theme
from mcpdesc_docs.render.words import Words
from mcpdesc_docs.validation.validator import check_document

from .helpers import base_document, describe, errors_of
from .sites import parse

SCHEMES = {"bearer": {"type": "http", "scheme": "bearer"}, "key": {"type": "apiKey", "name": "k", "in": "header"}}
HTTP = {"type": "streamable-http", "url": "https://example.com/mcp"}
HTTP_WITH_KEY = {**HTTP, "security": [{"key": []}]}
STDIO = {"type": "stdio", "command": "server"}
OWN = [{"bearer": []}]


def site_of(document: dict[str, Any]) -> Any:
    assert not errors_of(document), describe(errors_of(document))
    checked = check_document(document).document
    assert checked is not None
    return build_site(checked)


def document(root: Any = None, transports: Any = None, tool: Any = None) -> dict[str, Any]:
    doc = base_document(securitySchemes=SCHEMES, transports=transports or [STDIO])
    if root is not None:
        doc["security"] = root
    if tool is not None:
        doc["tools"][0]["security"] = tool
    return doc


@pytest.fixture(scope="module")
def words() -> Words:
    return Words(create_environment(load_theme(ThemeConfig())))


@pytest.mark.parametrize(
    ("root", "transports", "tool", "tool_words", "server_words"),
    [
        (
            None,
            None,
            None,
            "No security requirement is declared.",
            "The server declares no default security requirement.",
        ),
        (
            None,
            [STDIO, HTTP_WITH_KEY],
            None,
            "Inherited from the transport used to connect.",
            "The server declares no default security requirement. Some transports declare their own:",
        ),
        (
            OWN,
            None,
            None,
            "Inherited from the server.",
            "The server's default: it applies wherever no other requirement is declared.",
        ),
        (
            OWN,
            [STDIO, HTTP_WITH_KEY],
            None,
            "Inherited: the transport's requirement applies where it declares one, else the server's.",
            "The server's default: it applies wherever no other requirement is declared.",
        ),
        (OWN, None, [{"key": []}], "Overrides the server default.", None),
        (None, None, OWN, "Declared on this tool.", None),
        (OWN, None, [], "No authentication: this tool explicitly clears the server's requirement.", None),
        (None, None, [], "No authentication: this tool explicitly declares none.", None),
        ([], None, None, "Inherited from the server.", "The server explicitly requires no authentication."),
    ],
)
def test_security_origins_in_words(words, root, transports, tool, tool_words, server_words):
    site = site_of(document(root, transports, tool))
    assert words.security(site.pages[0].variants[0].security) == tool_words
    if server_words is not None:
        assert words.security(site.security) == server_words


def test_transport_and_subject_words(words):
    cleared = {**HTTP, "security": []}
    site = site_of(document(OWN, [cleared, HTTP_WITH_KEY]))
    assert [words.security(t.security) for t in site.transports] == [
        "No authentication on this transport: it explicitly clears any inherited requirement.",
        "This transport declares its own requirement, which replaces the server's default.",
    ]
    doc = document(tool=OWN)
    doc["resourceTemplates"] = [{"uriTemplate": "docs://{page}", "name": "page", "security": OWN}]
    assert words.security(site_of(doc).pages_of("resource-template")[0].variants[0].security) == (
        "Declared on this resource template."
    )


def test_steps_annotations_and_flags_in_words(tmp_path):
    doc = base_document(
        capabilities=[{"tools": {"listChanged": True}, "resources": {"subscribe": False, "listChanged": True}}],
        resources=[
            {"uri": "docs://a", "name": "a", "annotations": {"audience": ["user", "assistant"], "priority": 0.5}},
            {"uri": "docs://b", "name": "b", "annotations": {"audience": [], "lastModified": "2025-01-02T03:04:05Z"}},
        ],
    )
    doc["tools"][0]["protocolVersions"] = ["2025-11-25"]  # a result shape of one protocol version
    declared = doc["tools"][0]["elicitations"][0]
    request = {"mode": "form", "message": declared["message"], "requestedSchema": declared["requestedSchema"]}
    step = {"type": "elicitation", "declaration": declared["name"], "request": request}
    doc["tools"][0]["interactionExamples"] = {
        "flow": {
            "input": {"issue": 1},
            "steps": [
                {**step, "response": {"action": "decline"}},
                {**step, "response": {"action": "cancel"}},
                {**step, "response": {"action": "accept", "content": {"assignee": "ada"}}},
            ],
            "result": {"content": [{"type": "text", "text": "done"}]},
        }
    }
    config = Config(description=tmp_path / "d.yaml", site_dir=tmp_path / "site")
    files = render_site(site_of(doc), load_theme(config.theme), config)

    def page(path: str) -> Any:
        (tmp_path / "page.html").write_bytes(files[path])
        return parse(tmp_path / "page.html")

    tool = page("tools/assign_issue.html")
    assert [p.get_text() for p in tool.select(".step-elicitation .outcome")] == [
        "The user declines.",
        "The user cancels.",
        "The user accepts.",
    ]
    assert (
        tool.select_one(".step-elicitation .who").get_text().startswith("The server asks the user (form elicitation)")
    )
    assert [dd.get_text() for dd in page("resources/a.html").select(".facts dd")][1:] == [  # after the URI
        "Intended for: user, assistant",
        "Priority 0.5 (0 = optional, 1 = required)",
    ]
    assert [dd.get_text() for dd in page("resources/b.html").select(".facts dd")][1:] == [  # after the URI
        "Intended for: nobody listed",
        "Last modified 2025-01-02T03:04:05Z",
    ]
    overview = page("index.html")
    assert [dd.get_text(strip=True) for dd in overview.select(".capabilities dd")] == [
        "notifies when the list changes",
        "supports subscriptions (declared false); notifies when the list changes",
    ]
