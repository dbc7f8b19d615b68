"""Invisible and direction-changing characters in what a reader copies (a transport's
command, arguments, environment) are shown as the escapes Copy gives. (An endpoint with
them is no valid URI: validation refuses it before a page is made.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from .sites import build, parse

RLO, ZWSP, LRI, PDI, ZWJ = "\u202e", "\u200b", "\u2066", "\u2069", "\u200d"
COMMAND = f"npx{ZWSP}"
ARGS = [f"--endpoint=https://mcp.{RLO}live.example{ZWJ}", f"--token{LRI}x{PDI}", "a\nb"]
ENV = {f"API{ZWSP}_URL": f"https://{RLO}elpmaxe.evil", "MODE": "tab\there"}
HIDDEN = re.compile("[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\t\r]")
"""What a reader cannot see (a tab too: inside a value it passes for spaces). Newlines are
the layout of a JSON block; the command line is checked for them on its own."""


def hostile_description(path: Path) -> Path:
    data = {
        "mcpdesc": "0.9.0",
        "info": {"name": "hidden", "version": "1.0.0"},
        "protocolVersions": ["2025-06-18"],
        "transports": [
            {"type": "stdio", "command": COMMAND, "args": ARGS, "env": ENV},
            {"type": "streamable-http", "url": "https://mcp.example.com/v3"},
            {"type": "stdio", "command": "plain-server", "args": ["--port", "8080"], "env": {"LEVEL": "info"}},
        ],
        "tools": [{"name": "echo", "inputSchema": {"type": "object"}}],
    }
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("hidden")
    code, out, err = build(hostile_description(root / "hidden.mcpdesc.yaml"), root / "site")
    assert code == 0, out + err
    return parse(root / "site" / "index.html").select("article.transport")


def test_copyable_values_show_every_character_they_copy(cards):
    stdio = cards[0]
    # Everything a reader copies or reads as code: text (what Copy takes) without a hidden character.
    for element in stdio.select("[data-copy], code, pre"):
        assert not HIDDEN.search(element.get_text()), element
    command = stdio.select_one("pre.command code[data-copy]").get_text()
    assert command == (
        "'npx\\u200b' '--endpoint=https://mcp.\\u202elive.example\\u200d' '--token\\u2066x\\u2069' 'a\\nb'"
    )
    assert [code.get_text() for code in stdio.select("pre.command ~ p.muted code")] == [
        "--endpoint=https://mcp.\\u202elive.example\\u200d",
        "--token\\u2066x\\u2069",
        "a\\nb",
    ]
    rows = [[code.get_text() for code in row.select("code")] for row in stdio.select("table.env tbody tr")]
    assert rows == [["API\\u200b_URL", "https://\\u202eelpmaxe.evil"], ["MODE", "tab\\there"]]


def test_client_configs_escape_them_as_json_which_means_the_same(cards):
    text = cards[0].select_one("details.client-config pre code").get_text()
    assert not HIDDEN.search(text)
    assert "\\u202e" in text
    assert json.loads(text) == {"mcpServers": {"hidden": {"command": COMMAND, "args": ARGS, "env": ENV}}}


def test_a_card_with_hidden_characters_says_so_and_others_do_not(cards):
    stdio, http, plain = cards
    note = stdio.select_one("[data-hidden-characters]")
    assert note is not None
    assert "invisible or direction-changing characters" in note.get_text()
    assert http.select("[data-hidden-characters]") == plain.select("[data-hidden-characters]") == []
    assert plain.select_one("pre.command code").get_text() == "plain-server --port 8080"
