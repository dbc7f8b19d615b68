"""``serve`` re-parses only the edited item of a YAML description when it can: whatever the
edit, the data must be exactly a full parse's, and a text a full parse refuses must be
refused with the very same diagnostic."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.source.incremental import IncrementalJson, IncrementalYaml, SameObjects
from mcpdesc_docs.source.json_text import parse_json
from mcpdesc_docs.source.limits import DEFAULT_LIMITS, Limits
from mcpdesc_docs.source.yaml_events import read_yaml_data

from .sites import EXAMPLES, SAMPLE

BASES = [SAMPLE, *EXAMPLES]
SNIPPETS = [
    " ",
    "  ",
    "\n",
    "\n  ",
    "x",
    "é😀",
    "- ",
    "\n- name: added\n",
    "    extra: 1\n",
    "  extra: true\n",
    "extra: 1\n",
    ": ",
    "#",
    "# note\n",
    '"',
    "'",
    "{",
    "[",
    "}",
    "|\n",
    "\t",
    "---\n",
    "...\n",
    "&a ",
    "*a",
    "!!int ",
    "\u2028",
    "\r\n",
    "1e999",
]


def outcome(read: object) -> str:
    """A read's result, compared exactly: JSON tells 1, 1.0 and true apart (``==`` does not)."""
    return json.dumps(read, ensure_ascii=False)


def full(text: str, limits: Limits = DEFAULT_LIMITS) -> str:
    try:
        return outcome(read_yaml_data(text, limits, "d.yaml"))
    except DescriptionError as exc:
        return "refused: " + repr([(d.code, d.message, d.line, d.column) for d in exc.diagnostics])


def incremental(reader: IncrementalYaml, text: str, limits: Limits = DEFAULT_LIMITS) -> str:
    try:
        return outcome(reader.read(text, limits, "d.yaml"))
    except DescriptionError as exc:
        return "refused: " + repr([(d.code, d.message, d.line, d.column) for d in exc.diagnostics])


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    """The text after one edit: something inserted, deleted, replaced or re-indented, most
    often inside an item (where the incremental read applies)."""
    at = draw(st.integers(0, len(text)))
    action = draw(st.sampled_from(["insert", "delete", "replace", "indent", "dedent", "duplicate"]))
    if action == "insert":
        return text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
    if action in ("delete", "replace"):
        end = min(len(text), at + draw(st.integers(1, 40)))
        inserted = draw(st.sampled_from(SNIPPETS)) if action == "replace" else ""
        return text[:at] + inserted + text[end:]
    line_start = text.rfind("\n", 0, at) + 1
    if action == "indent":
        return text[:line_start] + "  " + text[line_start:]
    if action == "dedent":
        return text[:line_start] + text[line_start:].removeprefix("  ")
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end + 1
    return text[:line_end] + text[line_start:line_end] + text[line_end:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_edit_reads_as_a_full_parse(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(BASES)).read_text(encoding="utf-8")
    reader = IncrementalYaml()
    assert incremental(reader, text) == full(text)
    for _ in range(data.draw(st.integers(1, 4))):
        text = data.draw(edited(text))
        assert incremental(reader, text) == full(text)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_limits_are_kept_as_in_a_full_parse(data: st.DataObject) -> None:
    # The depth and node limits count the whole document: an edited item read alone must
    # cross them exactly where the whole text would.
    # Limits changed in the config between two reads apply to the whole text again.
    text = SAMPLE.read_text(encoding="utf-8")
    reader = IncrementalYaml()
    limits = replace(
        DEFAULT_LIMITS,
        max_depth=data.draw(st.integers(1, 12)),
        max_nodes=data.draw(st.integers(len(text) // 40, len(text) // 4)),
    )
    first = data.draw(st.sampled_from([DEFAULT_LIMITS, limits]))
    assert incremental(reader, text, first) == full(text, first)
    for _ in range(data.draw(st.integers(1, 3))):
        text = data.draw(edited(text))
        assert incremental(reader, text, limits) == full(text, limits)


def tool_text(count: int) -> str:
    tools = "".join(
        f"- name: tool_{i}\n  description: Tool {i}.\n  inputSchema:\n    type: object\n" for i in range(count)
    )
    return f"mcpdesc: 0.9.0\ninfo:\n  name: t\n  version: '1'\ntools:\n{tools}prompts:\n- name: p\n"


def test_an_edit_inside_one_item_parses_only_that_item() -> None:
    text = tool_text(50)
    reader = IncrementalYaml()
    reader.read(text, DEFAULT_LIMITS, "d.yaml")
    edits = [
        ("Tool 7.", "Tool seven, edited."),
        ("Tool 49.\n", "Tool 49.\n  title: Last\n"),  # a line added at the end of the last tool
        ("- name: p\n", "- name: prompt\n"),
        ("Tool seven, edited.", "Tool 7."),
    ]
    for old, new in edits:
        text = text.replace(old, new)
        assert outcome(reader.read(text, DEFAULT_LIMITS, "d.yaml")) == full(text)
    assert reader.reparsed_items == len(edits)


@pytest.mark.parametrize(
    "edit",
    [
        ("- name: tool_8\n", "- name: tool_8b\n- name: tool_8\n"),  # an item added
        ("  description: Tool 3.\n", "description: Tool 3.\n"),  # a line moved out of its item
        ("- name: tool_5\n", "  - name: tool_5\n"),  # the next item's "-" re-indented
        ("info:\n  name: t\n", "info:\n  name: u\n"),  # outside every sequence
        ("Tool 2.\n  inputSchema:\n    type: object\n- name: tool_3", "Tool 2 and 3"),  # across two items
    ],
)
def test_an_edit_beyond_one_item_parses_everything(edit: tuple[str, str]) -> None:
    text = tool_text(10)
    reader = IncrementalYaml()
    reader.read(text, DEFAULT_LIMITS, "d.yaml")
    changed = text.replace(*edit, 1)
    assert changed != text
    assert incremental(reader, changed) == full(changed)
    assert reader.reparsed_items == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_same_objects_keeps_the_data_and_reuses_only_equal_values(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(BASES)).read_text(encoding="utf-8")
    first = read_yaml_data(text, DEFAULT_LIMITS, "d.yaml")
    same = SameObjects()
    assert same.keep(first) is not None
    edited_text = data.draw(edited(text))
    try:
        second = read_yaml_data(edited_text, DEFAULT_LIMITS, "d.yaml")
    except DescriptionError:
        return
    kept = same.keep(second)
    assert outcome(kept) == outcome(second)  # the same data, exactly
    assert isinstance(first, dict)
    if not isinstance(kept, dict):
        return
    if edited_text == text:
        assert all(kept[key] is first[key] for key in first)


JSON_SNIPPETS = [
    "1",
    "true",
    '"x"',
    '"\\ud800"',
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    " ",
    "\n",
    '{"a": 1, "a": 2}',
    "1e999",
    "null",
]


def json_full(text: str, limits: Limits = DEFAULT_LIMITS) -> str:
    try:
        return outcome(parse_json(text, "d.json", limits))
    except DescriptionError as exc:
        return "refused: " + repr([(d.code, d.message, d.line, d.column) for d in exc.diagnostics])


def json_incremental(reader: IncrementalJson, text: str, limits: Limits = DEFAULT_LIMITS) -> str:
    try:
        return outcome(reader.read(text, "d.json", limits))
    except DescriptionError as exc:
        return "refused: " + repr([(d.code, d.message, d.line, d.column) for d in exc.diagnostics])


@st.composite
def json_edited(draw: st.DrawFn, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    action = draw(st.sampled_from(["insert", "delete", "replace", "word", "retype"]))
    if action == "insert":
        return text[:at] + draw(st.sampled_from(JSON_SNIPPETS)) + text[at:]
    if action in ("word", "retype"):
        # Edits that keep the text JSON, most often inside one item: a word in a string,
        # or a value of another type that Python's == would not tell apart.
        marker = ': "' if action == "word" else ": true"
        found = [i for i in range(len(text)) if text.startswith(marker, i)] or [0]
        where = found[draw(st.integers(0, len(found) - 1))]
        if action == "word":
            return text[: where + 3] + draw(st.sampled_from(["x", "é", "\\n"])) + text[where + 3 :]
        return text[:where] + text[where:].replace(": true", draw(st.sampled_from([": 1", ": 1.0"])), 1)
    end = min(len(text), at + draw(st.integers(1, 12)))
    return text[:at] + (draw(st.sampled_from(JSON_SNIPPETS)) if action == "replace" else "") + text[end:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_edit_of_a_json_description_reads_as_a_full_parse(data: st.DataObject) -> None:
    base = read_yaml_data(data.draw(st.sampled_from(BASES)).read_text(encoding="utf-8"), DEFAULT_LIMITS, "d")
    text = json.dumps(base, indent=data.draw(st.sampled_from([None, 2])), ensure_ascii=data.draw(st.booleans()))
    limits = data.draw(st.sampled_from([DEFAULT_LIMITS, replace(DEFAULT_LIMITS, max_depth=8, max_nodes=400)]))
    reader = IncrementalJson()
    assert json_incremental(reader, text, limits) == json_full(text, limits)
    for _ in range(data.draw(st.integers(1, 4))):
        text = data.draw(json_edited(text))
        assert json_incremental(reader, text, limits) == json_full(text, limits)


def test_an_edit_inside_one_json_item_decodes_only_that_item() -> None:
    document = read_yaml_data(tool_text(20), DEFAULT_LIMITS, "d")
    text = json.dumps(document, indent=2)
    reader = IncrementalJson()
    reader.read(text, "d.json", DEFAULT_LIMITS)
    for old, new in (('"Tool 7."', '"Tool seven."'), ('"name": "p"', '"name": "prompt", "title": "P"')):
        text = text.replace(old, new)
        assert json_incremental(reader, text) == json_full(text)
    assert reader.reparsed_items == 2
    merged = text.replace('"Tool 3.",\n      "inputSchema"', '"Tool 3 and 4.",\n      "inputSchema"', 1)
    start = merged.index('"Tool 3 and 4.",') + len('"Tool 3 and 4.",')
    cut = merged.index('"Tool 4.",') + len('"Tool 4.",')
    merged = merged[:start] + merged[cut:]  # two items become one: decoded in full
    assert json.loads(merged)["tools"][3]["description"] == "Tool 3 and 4."
    assert json_incremental(reader, merged) == json_full(merged)
    assert reader.reparsed_items == 2
