"""YAML blocks are highlighted in time linear in their length, with Pygments' own tokens
(issue 30, item 11)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers.data import YamlLexer

from mcpdesc_docs.render.yaml_lexer import linear_yaml_lexer

from .bounded import run_bounded

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import hostile

PIECES = [
    *" :#,?[]{}\"'\n!&*|>-%@`ab\t",
    ": ",
    "- ",
    "? ",
    "key: ",
    "\n  ",
    "'a'",
    '"b c"',
    "[a, b]",
    "{k: v}",
    "{a: [b, {c: d}]}",
    " #c",
    "--- ",
    "|\n  ",
    ">-\n  ",
    "!tag ",
    "&anchor ",
    "*alias ",
    "%YAML 1.2\n",
    "\r\n",
]


def reference() -> YamlLexer:
    lexer = YamlLexer()
    lexer.stripnl = False
    return lexer


def test_both_key_rules_of_the_installed_pygments_are_indexed():
    _, replaced = linear_yaml_lexer()
    assert replaced == 2  # 'block-line' and 'flow-mapping'


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80))
def test_the_tokens_are_pygments_own(pieces: list[str]):
    code = "".join(pieces)
    lexer, _ = linear_yaml_lexer()
    lexer.stripnl = False
    assert list(lexer.get_tokens(code)) == list(reference().get_tokens(code))


def test_the_class_table_is_left_to_other_yaml_lexers():
    linear_yaml_lexer()
    assert all(
        not type(match).__name__.startswith("_Indexed") for rules in reference()._tokens.values() for match, *_ in rules
    )


CPU_SECONDS = 20.0
"""Fifty blocks of ``! ! ! ...`` (1 MB) took 93 s of CPU with Pygments' lexer as it is,
1.6 s now; the budget leaves room for a slow, busy machine."""


@pytest.mark.timeout(15 * CPU_SECONDS)
def test_a_megabyte_of_yaml_fences_builds_in_bounded_cpu(tmp_path: Path):
    source = tmp_path / "fences.json"
    assert hostile.main(["yaml-fences", str(source)]) == 0
    done = run_bounded("build", str(source), "-o", str(tmp_path / "site"), seconds=10 * CPU_SECONDS)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.cpu_seconds < CPU_SECONDS, f"{done.cpu_seconds:.1f} s of CPU"
    page = (tmp_path / "site" / "tools" / "t0.html").read_text()
    assert page.count('<span class="kt">!</span>') == 19_980 // 2  # highlighted, each tag a token
