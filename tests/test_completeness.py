"""Nothing in the description is silently dropped: every string value appears in the site's text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from markdown_it import MarkdownIt

from .sites import EXAMPLES, SAMPLE, build, html_pages, load_data

MARKDOWN_KEYS = {"description", "instructions"}
"""Fields rendered as Markdown: their text is compared after rendering."""


def string_values(value: object, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, string) for every string value in a JSON document."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for member, item in value.items():
            yield from string_values(item, member)
    elif isinstance(value, list):
        for item in value:
            yield from string_values(item, key)


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def as_rendered(key: str, value: str) -> str:
    # Markdown syntax (backticks, link brackets) does not survive rendering; compare with
    # what a reader sees, rendered by markdown-it itself rather than by the code under test.
    if key in MARKDOWN_KEYS:
        return normalise(BeautifulSoup(MarkdownIt("js-default").render(value), "html.parser").get_text(" "))
    return normalise(value)


def site_text(site: Path) -> str:
    # <wbr> (a line-break opportunity inside an identifier) is no text: get_text(" ") would
    # put a space there.
    pages = (p.read_text().replace("<wbr>", "") for p in html_pages(site))
    return normalise(" ".join(BeautifulSoup(page, "html.parser").get_text(" ") for page in pages))


def missing_strings(description: Path, site: Path) -> list[tuple[str, str]]:
    text = site_text(site)
    missing = []
    for key, value in string_values(load_data(description)):
        wanted = as_rendered(key, value)
        # Inside JSON samples a string is shown JSON-escaped ("a \\"b\\"").
        as_json = normalise(json.dumps(value, ensure_ascii=False)[1:-1])
        if wanted not in text and as_json not in text:
            missing.append((key, value))
    return missing


COMPLETENESS_CASES = [SAMPLE, *(p for p in EXAMPLES if p.name == "0.8.0-full-featured.yaml")]


@pytest.mark.parametrize("description", COMPLETENESS_CASES, ids=[p.name for p in COMPLETENESS_CASES])
def test_every_string_value_appears_in_the_site(description, tmp_path):
    code, out, err = build(description, tmp_path / "site")
    assert code == 0, out + err
    assert missing_strings(description, tmp_path / "site") == []


def test_the_check_notices_a_dropped_value(tmp_path):
    data = load_data(SAMPLE)
    data["tools"][0]["x-acme-owner"] = "team-unmistakable-marker"
    description = tmp_path / "d.json"
    description.write_text(json.dumps(data))
    assert build(description, tmp_path / "site")[0] == 0
    page = tmp_path / "site" / "tools" / "search_tickets.html"
    page.write_text(page.read_text().replace("team-unmistakable-marker", "something else"))
    assert ("x-acme-owner", "team-unmistakable-marker") in missing_strings(description, tmp_path / "site")
