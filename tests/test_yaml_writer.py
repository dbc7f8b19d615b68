"""A JSON description's YAML download reads back, under the spec's YAML profile (our
loader), as exactly the data of the JSON: same values, same types, same member order."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcpdesc_docs.pipeline import description_downloads
from mcpdesc_docs.render.data_text import ItemTexts, json_text, yaml_download_text
from mcpdesc_docs.source.load import parse_text
from mcpdesc_docs.source.yaml_writer import yaml_text

from .rich_document import rich


def typed(data: object) -> str:
    """Data as text that tells 1 from 1.0 from True and keeps member order."""
    return json.dumps(data)


def reads_back(data: object, indent: int | None) -> None:
    text = yaml_text(data, indent)
    assert typed(parse_text(text, "download.yaml", fmt="yaml").data) == typed(data)


TRICKY_STRINGS = ["1e5", "no", "yes", "on", "~", "null", "2026-07-28", "0x1F", "1_000", "-.inf", "", " lead", "a: b"]
TRICKY_CHARACTERS = ["\x85", "\u2028", "\u2029", "\x7f", "\x9b", "\ufeff", "\ufffe", "\uffff", "\t", "\x1b", "😀", "é"]


def test_strings_that_look_like_other_values_stay_strings() -> None:
    for indent in (None, 2):
        reads_back({text: text for text in TRICKY_STRINGS}, indent)


def test_characters_yaml_reads_differently_survive() -> None:
    for indent in (None, 2):
        reads_back({"a": [f"x{c}y" for c in TRICKY_CHARACTERS], "k\x85": 1}, indent)


def test_member_names_too_long_for_a_yaml_key_survive() -> None:
    long_names = {"k" * 2000: ["1e5", 1.0, True, None], "\x1b" * 200: {"n" * 1100: "no"}}
    for indent in (None, 2):
        reads_back(long_names, indent)


def test_the_yaml_is_the_json_when_names_are_short() -> None:
    data = json.loads(json.dumps(rich()))
    assert json.loads(yaml_text(data, 2)) == data


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(
    data=st.dictionaries(st.text() | st.text(min_size=160, max_size=1100), JSON_VALUES, max_size=4),
    indent=st.sampled_from([None, 2]),
)
def test_any_json_data_reads_back_the_same(data: dict[str, Any], indent: int | None) -> None:
    reads_back(data, indent)


def test_a_json_descriptions_yaml_download_reads_back_as_its_data() -> None:
    text = json.dumps(rich(), indent=2).replace('"Search', '"1e5 Search', 1)
    source = parse_text(text, "helpdesk.mcpdesc.json", fmt="json")
    original, other = description_downloads(source)
    assert (original.path, other.path) == ("description/helpdesk.mcpdesc.json", "description/helpdesk.mcpdesc.yaml")
    back = parse_text(other.content.decode("utf-8"), "helpdesk.mcpdesc.yaml", fmt="yaml").data
    assert typed(back) == typed(source.data)


ROOTS = st.dictionaries(
    st.text() | st.text(min_size=160, max_size=1100),
    JSON_VALUES | st.lists(JSON_VALUES, max_size=4),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(data=ROOTS, replacement=JSON_VALUES)
def test_downloads_put_together_from_kept_texts_are_the_whole_documents_text(
    data: dict[str, Any], replacement: object
) -> None:
    items = ItemTexts()
    for _ in range(2):  # written out, then put together from what was kept
        assert json_text(data, None, items) == json.dumps(data, ensure_ascii=False) + "\n"
        assert yaml_download_text(data, None, items) == yaml_text(data, None)
    # An edit replaces one item: the new document's text, with the others' texts kept.
    edited = {
        key: [replacement, *value[1:]] if isinstance(value, list) and value else value for key, value in data.items()
    }
    assert json_text(edited, None, items) == json.dumps(edited, ensure_ascii=False) + "\n"
    assert yaml_download_text(edited, None, items) == yaml_text(edited, None)


def test_an_edit_writes_out_only_the_item_it_changed() -> None:
    data = json.loads(json.dumps(rich()))
    items = ItemTexts()
    json_text(data, None, items)
    kept = len(items.json)
    edited = dict(data, tools=[{**data["tools"][0], "title": "Edited"}, *data["tools"][1:]])
    assert json.loads(json_text(edited, None, items)) == edited
    assert len(items.json) == kept + 1  # the edited tool alone is written out (the lists are not kept, their items are)
