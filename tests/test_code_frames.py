"""Text reports quote the offending line with a caret under the column, and YAML syntax
errors say in plain words what is wrong and how to fix it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpdesc_docs.diagnostics import FRAME_WIDTH, code_frame, error, format_text
from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.source.load import parse_text

from .sites import run


def test_a_frame_shows_the_line_before_and_a_caret_under_the_column() -> None:
    lines = ["first: 1", "second: [1, 2", "third: 3"]
    assert code_frame(lines, 2, 9) == [
        "      |",
        "    1 | first: 1",
        "    2 | second: [1, 2",
        "      |         ^",
    ]


def test_the_first_line_has_no_line_before_and_the_gutter_fits_the_number() -> None:
    assert code_frame(["only"], 1, 1) == ["      |", "    1 | only", "      | ^"]
    lines = [f"line{n}" for n in range(1, 121)]
    assert code_frame(lines, 100, 2)[1:] == ["     99 | line99", "    100 | line100", "        |  ^"]


def test_a_line_outside_the_text_gets_no_frame() -> None:
    assert code_frame(["a"], 3, 1) == []


def test_a_long_line_is_cut_around_the_column_and_the_caret_still_points_at_it() -> None:
    row = "x" * 5000 + "HERE" + "y" * 5000
    frame = code_frame([row], 1, 5001)
    shown, caret = frame[1], frame[2]
    assert len(shown) < FRAME_WIDTH + 20
    assert shown.startswith("    1 | ...")
    assert shown.endswith("...")
    assert shown[caret.index("^") : caret.index("^") + 4] == "HERE"


def test_control_characters_in_the_line_are_escaped_and_the_caret_follows_them() -> None:
    frame = code_frame(["\tkey: \x1b[31mred: x"], 1, 15)
    assert "\x1b" not in "".join(frame)
    shown, caret = frame[1], frame[2]
    assert shown == "    1 | \\tkey: \\x1b[31mred: x"
    assert shown[caret.index("^")] == ":"


def test_only_diagnostics_of_the_quoted_file_get_a_frame() -> None:
    here = error("r", "c", "m", "/a").located("d.yaml", 1, 1)
    elsewhere = error("r", "c", "m", "/b").located("mcpdesc-docs.yml", 1, 1)
    text = format_text([here, elsewhere], "a: 1\n", "d.yaml")
    assert text.count(" | a: 1") == 1
    assert format_text([here]) == "d.yaml:1:1: error[r] m\n    at /a; code c\n    see: mcpdesc-docs rules r\n"


def _hint(text: str) -> str | None:
    with pytest.raises(DescriptionError) as raised:
        parse_text(text, "d.yaml", fmt="yaml")
    [diagnostic] = raised.value.diagnostics
    assert raised.value.text == text
    return diagnostic.hint


def test_a_colon_inside_an_unquoted_value_says_to_quote_it() -> None:
    hint = _hint("info:\n  name: x\n  description: Note: this breaks\n")
    assert hint is not None
    assert "contains ': '" in hint
    assert 'description: "Note: this breaks"' in hint


def test_inconsistent_indentation_is_named() -> None:
    assert _hint("info:\n  name: x\n   version: 1\n") == (
        "line 3 is indented 3 spaces and the line before it 2: members of one mapping must line up exactly, "
        "and a member's own members go one level deeper (indent with spaces only)"
    )
    hint = _hint("tools:\n  - name: a\n   inputSchema: {}\n")
    assert hint is not None
    assert hint.startswith("line 3 is indented 3 spaces")


def test_a_tab_says_to_indent_with_spaces() -> None:
    assert _hint("info:\n\tname: x\n") == "YAML does not allow tabs for indentation: indent with spaces"


def test_an_unclosed_quote_names_the_line_it_opens_on() -> None:
    assert _hint('info:\n  name: x\n  description: "unclosed\n') == (
        "the quoted value that starts on line 3 is not closed: add the closing quote (or escape a quote inside it)"
    )


def test_an_unrecognised_syntax_error_gets_no_made_up_hint() -> None:
    assert _hint("info: [1, 2\n") is None


def test_validate_prints_the_frame_and_the_hint(tmp_path: Path) -> None:
    path = tmp_path / "d.mcpdesc.yaml"
    path.write_text('mcpdesc: "0.9.0"\ninfo:\n  name: x\n  description: a: b\n', encoding="utf-8")
    code, out, _ = run("validate", str(path))
    assert code == 1
    assert "    4 |   description: a: b\n      |                 ^\n    hint: the value of 'description'" in out


def test_a_json_syntax_error_is_framed_too(tmp_path: Path) -> None:
    path = tmp_path / "d.mcpdesc.json"
    path.write_text('{\n  "mcpdesc": "0.9.0",\n  "info": {"name": "x",}\n}\n', encoding="utf-8")
    code, out, _ = run("validate", str(path))
    assert code == 1
    assert '    3 |   "info": {"name": "x",}\n' in out


def test_json_and_github_formats_carry_no_frame(tmp_path: Path) -> None:
    path = tmp_path / "d.mcpdesc.yaml"
    path.write_text('mcpdesc: "0.9.0"\ninfo:\n  name: x\n  description: a: b\n', encoding="utf-8")
    for output_format in ("json", "github"):
        _, out, _ = run("validate", str(path), "--format", output_format)
        assert " | " not in out
