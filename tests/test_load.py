"""The loader: the YAML profile, JSON strictness, limits and the source map."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.source.json_text import SURROGATE_ESCAPE, has_surrogate_escape
from mcpdesc_docs.source.limits import Limits
from mcpdesc_docs.source.load import parse_bytes, parse_text


def load_error(text: str | bytes, name: str = "doc.yaml", **kwargs: object) -> tuple[str, int | None, int | None]:
    raw = text if isinstance(text, bytes) else text.encode("utf-8")
    with pytest.raises(DescriptionError) as caught:
        parse_bytes(raw, name, **kwargs)  # type: ignore[arg-type]
    diagnostic = caught.value.diagnostics[0]
    return diagnostic.code, diagnostic.line, diagnostic.column


def test_scalars_resolve_like_json() -> None:
    source = parse_text(
        "date: 2026-07-28\nyes_: yes\non_: on\nfloat: 1.0\nint: 42\nneg: -3\nnull_: null\nempty:\n"
        "tilde: ~\nbool: true\nhex: 0x1F\noctal: 0o17\nquoted: '12'\n",
        "doc.yaml",
    )
    assert source.data == {
        "date": "2026-07-28",
        "yes_": "yes",
        "on_": "on",
        "float": 1.0,
        "int": 42,
        "neg": -3,
        "null_": None,
        "empty": None,
        "tilde": "~",
        "bool": True,
        "hex": "0x1F",
        "octal": "0o17",
        "quoted": "12",
    }
    assert isinstance(source.data["float"], float)  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "code", "line", "column"),
    [
        ("a: 1\nb:\n  c: 1\n  c: 2\n", "duplicate-key", 4, 3),
        ("a: &x [1]\nb: *x\n", "yaml-anchor", 1, 4),
        ("a: !!python/object:os.system x\n", "yaml-tag", 1, 4),
        ("a: !custom x\n", "yaml-tag", 1, 4),
        ("a: 1\n---\nb: 2\n", "multiple-documents", 2, 1),
        ("1: one\n", "non-string-key", 1, 1),
        ("? [a]\n: b\n", "non-string-key", 1, 3),
        ("a: 1e999\n", "non-finite-number", 1, 4),
        ("a: [1,\n", "yaml-syntax", 2, 1),
        ("", "empty-document", 1, 1),
    ],
)
def test_yaml_profile_violations_are_located(text: str, code: str, line: int, column: int) -> None:
    assert load_error(text) == (code, line, column)


def test_alias_without_anchor_check_reports_alias() -> None:
    # Without an anchor in front of it, the alias itself is what is refused.
    assert load_error("a: 1\nb: *missing\n") == ("yaml-alias", 2, 4)


def test_str_tag_is_allowed_and_keeps_text() -> None:
    assert parse_text("a: !!str 2026-07-28\nb: !!str 12\n", "doc.yaml").data == {"a": "2026-07-28", "b": "12"}


def test_invalid_utf8_is_located() -> None:
    assert load_error(b"a: 1\nb: caf\xe9\n") == ("invalid-utf-8", 2, 7)


def test_json_is_strict() -> None:
    assert load_error('{"a": 1,\n "a": 2}', "doc.json") == ("duplicate-key", 2, 2)
    assert load_error('{"a": NaN}', "doc.json")[0] == "non-finite-number"
    assert load_error('{"a": 1e400}', "doc.json")[0] == "non-finite-number"
    assert load_error('{"a": 1,}', "doc.json")[0] == "json-syntax"
    assert load_error('{"a": 1}\n{"b": 2}', "doc.json")[:2] == ("json-syntax", 2)


def test_json_positions_come_from_the_source() -> None:
    source = parse_text('{\n  "tools": [\n    {"name": "x"},\n    {"name": "y"}\n  ]\n}\n', "doc.json")
    assert source.source_map.locate("/tools/1/name") == (4, 6)
    assert source.source_map.locate("/tools/1") == (4, 5)
    # A pointer below a located node falls back to the nearest ancestor.
    assert source.source_map.locate("/tools/1/name/deeper") == (4, 6)


def test_yaml_positions_for_keys_and_items() -> None:
    source = parse_text("tools:\n  - name: a\n    inputSchema: {type: object}\n", "doc.yaml")
    assert source.source_map.locate("/tools/0/inputSchema/type") == (3, 19)
    assert source.source_map.locate("/tools/0") == (2, 5)
    assert source.source_map.locate("/tools") == (1, 1)


@pytest.mark.parametrize(
    ("text", "name", "code"),
    [
        ("[" * 100_000, "deep.yaml", "input-too-deep"),
        ("[" * 100_000, "deep.json", "input-too-deep"),
        ("a:\n" + "".join("  " * i + "- \n" for i in range(1, 3000)), "deep2.yaml", "input-too-deep"),
        (
            "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
            "laughs.yaml",
            "yaml-anchor",
        ),
    ],
)
def test_hostile_input_is_refused_fast(text: str, name: str, code: str) -> None:
    started = time.process_time()
    assert load_error(text, name)[0] == code
    assert time.process_time() - started < 1.0  # CPU time, which a loaded machine does not stretch


def test_limits_are_configurable() -> None:
    assert load_error("a: [1, 2, 3]\n", limits=Limits(max_nodes=3))[0] == "input-too-many-nodes"
    assert load_error(b"a: 1\n", limits=Limits(max_bytes=2))[0] == "input-too-large"
    assert parse_text("a: [[1]]\n", "doc.yaml", limits=Limits(max_depth=3)).data == {"a": [[1]]}
    assert load_error("a: [[1]]\n", limits=Limits(max_depth=2))[0] == "input-too-deep"


def test_json_positions_survive_escapes_libyaml_refuses() -> None:
    text = '{\n  "a": "x\\/y \\ud83d\\ude00 \\\\ud83d",\n\t"b": [1,\n\t\t2]\n}'
    source = parse_text(text, "doc.json")
    assert source.data == {"a": "x/y \U0001f600 \\ud83d", "b": [1, 2]}
    assert source.source_map.locate("/b/1") == (4, 3)


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ('{"a": "x\\ud800"}', (1, 9)),  # high half alone
        ('{"a": "\\udc00\\ud83d"}', (1, 8)),  # low half first: neither is paired
        ('{"a": "\\ud83d\\ude00",\n "b": "\\ud83d"}', (2, 8)),  # a good pair, then a lone half
        ('{"\\udfff": 1}', (1, 3)),  # in a key
    ],
)
def test_json_lone_surrogate_escapes_are_refused_where_they_are(text: str, position: tuple[int, int]) -> None:
    # json decodes these into str values no UTF-8 file can hold; found by the build fuzz test.
    assert load_error(text, "doc.json") == ("lone-surrogate", *position)


def test_json_surrogate_pairs_and_escaped_backslashes_stay_valid() -> None:
    assert parse_text('{"a": "\\ud83d\\ude00 \\\\ud800"}', "doc.json").data == {"a": "\U0001f600 \\ud800"}


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=["\\", "u", "d", "D", "8", "9", "b", "0", "f", "x", '"'], max_size=24))
def test_the_quick_surrogate_check_finds_what_the_escape_pattern_finds(text: str) -> None:
    # The pattern's look-behind is slow on large texts; the check that replaces it for
    # deciding whether to look further must agree with it on every text.
    assert has_surrogate_escape(text) == (SURROGATE_ESCAPE.search(text) is not None)


def test_json_nested_past_the_limit_is_refused_at_its_bracket_whatever_else_is_wrong() -> None:
    # Nesting is reported first, as when it was checked before parsing: here the text is
    # also not JSON at all after the deep part.
    deep = "[" * 200 + "]" * 200
    for text in (deep, '{"a": ' + deep + ", }", '{"a": 1, "a": ' + deep + "}"):
        with pytest.raises(DescriptionError) as raised:
            parse_text(text, "d.json", fmt="json", limits=Limits(max_depth=100))
        (found,) = raised.value.diagnostics
        assert found.code == "input-too-deep"
        assert found.message == "nesting deeper than 100 levels"
