"""The YAML loader reads data without positions and works them out only when a diagnostic
needs placing: both halves must agree with the one full walk (``walk_yaml_events``) that
records data and positions together, on every text, valid or refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.source.limits import DEFAULT_LIMITS, Limits
from mcpdesc_docs.source.load import parse_text
from mcpdesc_docs.source.yaml_events import read_yaml_data, walk_yaml_events, yaml_source_map

from .hostile_documents import SMALL_HOSTILE_CASES
from .rich_document import rich
from .shared_data import CORPUS

ROOT = Path(__file__).resolve().parents[1]
CORPUS_TEXTS = sorted(
    p
    for p in [*CORPUS.rglob("*.yaml"), *CORPUS.rglob("*.yml"), *(ROOT / "tests" / "fixtures").rglob("*.yaml")]
    if p.is_file()
)
REFUSED_TEXTS = [
    "a: 1\nb:\n  c: 1\n  c: 2\n",
    "a: &x [1]\nb: *x\n",
    "a: *x\n",
    "a: !!python/object:os.system x\n",
    "a: !custom x\n",
    "a: !custom [x]\n",
    "a: 1\n---\nb: 2\n",
    "1: one\n",
    "true: one\n",
    "null: one\n",
    "? [a]\n: b\n",
    "? {a: 1}\n: b\n",
    "a: 1e999\n",
    "a: -.inf\n",
    "a: " + "9" * 5000 + "\n",
    "a: [1,\n",
    "a: '\x07'\n",
    "",
    "# only a comment\n",
    "[" * 2000 + "]" * 2000,
]


def typed(data: object) -> str:
    """Data as text that tells 1 from 1.0 from True and keeps key order."""
    return json.dumps(data, default=repr)


def outcome_of_full_walk(text: str, limits: Limits) -> tuple[str, object]:
    try:
        data, source_map = walk_yaml_events(text, limits, "doc.yaml")
    except DescriptionError as refused:
        return "refused", [d.to_json() for d in refused.diagnostics]
    return typed(data), (source_map.keys, source_map.values)


def outcome_of_split_walks(text: str, limits: Limits) -> tuple[str, object]:
    try:
        data = read_yaml_data(text, limits, "doc.yaml")
    except DescriptionError as refused:
        return "refused", [d.to_json() for d in refused.diagnostics]
    source_map = yaml_source_map(text)
    return typed(data), (source_map.keys, source_map.values)


def check_agreement(text: str, limits: Limits = DEFAULT_LIMITS) -> None:
    assert outcome_of_split_walks(text, limits) == outcome_of_full_walk(text, limits)


@pytest.mark.parametrize("path", CORPUS_TEXTS, ids=lambda p: p.name)
def test_corpus_texts_load_and_locate_the_same(path: Path) -> None:
    check_agreement(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", REFUSED_TEXTS)
def test_refusals_are_the_same(text: str) -> None:
    check_agreement(text)


def test_the_limits_refuse_the_same() -> None:
    text = "a: [1, 2, 3]\nb: {c: {d: 'abcdefghij'}}\n"
    for limits in (Limits(max_nodes=5), Limits(max_depth=2), Limits(max_string_length=5)):
        check_agreement(text, limits)


@pytest.mark.parametrize("case", sorted(SMALL_HOSTILE_CASES, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_hostile_documents_load_and_locate_the_same(case) -> None:  # type: ignore[no-untyped-def]
    document = json.loads(json.dumps(case()))  # no shared values, so no anchors
    for text in (yaml.safe_dump(document, sort_keys=False, allow_unicode=True), json.dumps(document, indent=1)):
        check_agreement(text)


def test_diagnostics_are_placed_where_the_full_walk_places_them() -> None:
    text = yaml.safe_dump(json.loads(json.dumps(rich())), sort_keys=False)
    source = parse_text(text, "doc.yaml")
    _, full_map = walk_yaml_events(text, DEFAULT_LIMITS, "doc.yaml")
    assert source._source_map is None  # nothing needed a position yet
    for pointer in [*full_map.keys, *full_map.values, "/no/such/member", ""]:
        assert source.source_map.locate(pointer) == full_map.locate(pointer)


YAML_ALPHABET = st.sampled_from([*list("abc:-{}[],'\"#&*!|>%@`?\n \t0123456789.~enult"), "é", "\\", "\x07"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet=YAML_ALPHABET, max_size=120))
def test_arbitrary_texts_load_and_locate_the_same(text: str) -> None:
    check_agreement(text)
