"""The compiled structural validator (jsonschema-rs) may only say "valid" where jsonschema
does: checked on every corpus document, the hostile documents, random mutations of rich
ones, and the translated patterns against Python's ``re`` one string at a time."""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.source.load import read_source
from mcpdesc_docs.spec.schema import document_schema
from mcpdesc_docs.spec.versions import SPEC_0_7_0, SPEC_0_8_0, SPEC_0_9_0_RC_3, Specification, detect
from mcpdesc_docs.validation import structural
from mcpdesc_docs.validation.compiled_schema import compiled_validity, rust_pattern, structure_is_valid
from mcpdesc_docs.validation.linear_regex import LinearRegex, compile_linear

from .hostile_documents import SMALL_HOSTILE_CASES
from .rich_document import rich
from .shared_data import CORPUS
from .sites import SAMPLE, load_data

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import description

ROOT = Path(__file__).resolve().parents[1]
SPECS = [SPEC_0_7_0, SPEC_0_8_0, SPEC_0_9_0_RC_3]
DOCUMENTS = sorted(
    p
    for p in [*CORPUS.rglob("*"), *(ROOT / "tests" / "fixtures").rglob("*")]
    if p.is_file() and p.suffix in {".yaml", ".yml", ".json"} and "schemas" not in p.parts
)


def jsonschema_says_valid(data: object, spec: Specification) -> bool:
    return not any(True for _ in structural._validator(spec).iter_errors(data))  # type: ignore[arg-type]


def check_agreement(data: object) -> None:
    for spec in SPECS:
        assert structure_is_valid(data, spec) == jsonschema_says_valid(data, spec), spec.name


def test_every_schema_has_a_compiled_copy() -> None:
    # Else the fast path is silently off: our patterns must stay in the translatable subset.
    assert all(compiled_validity(spec) is not None for spec in SPECS)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_corpus_documents_get_the_same_verdict(path: Path) -> None:
    try:
        data = read_source(path).data
    except DescriptionError:  # refused by the loader: never validated
        return
    check_agreement(data)


@pytest.mark.parametrize("case", SMALL_HOSTILE_CASES, ids=lambda c: c.__name__)
def test_hostile_documents_get_the_same_verdict(case) -> None:  # type: ignore[no-untyped-def]
    check_agreement(case())


REPLACEMENTS: list[Any] = [None, 0, -1, 1.5, True, "", "x", "x\n", "a@b", "not a uri", {}, [], {"x-a": 1}, ["a", "a"]]


def mutated(document: Any, data: st.DataObject) -> Any:
    document = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 4))):
        places: list[tuple[Any, Any]] = []
        stack = [document]
        while stack:
            node = stack.pop()
            members = (
                list(node.items())
                if isinstance(node, dict)
                else list(enumerate(node))
                if isinstance(node, list)
                else []
            )
            for key, value in members:
                places.append((node, key))
                stack.append(value)
        if not places:
            break
        container, key = places[data.draw(st.integers(0, len(places) - 1))]
        action = data.draw(st.sampled_from(["replace", "newline", "delete", "add"]))
        if action == "replace":
            container[key] = copy.deepcopy(data.draw(st.sampled_from(REPLACEMENTS)))
        elif action == "newline" and isinstance(container[key], str):
            container[key] += "\n"  # where Python's `$` and Rust's differ
        elif action == "delete" and isinstance(container, dict):
            del container[key]
        elif action == "add" and isinstance(container, dict):
            container[data.draw(st.sampled_from(["x-ok", "x-\n", "unknown", "name\n"]))] = "v"
    return document


BASES = [load_data(SAMPLE), json.loads(json.dumps(rich()))]


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_documents_get_the_same_verdict(data: st.DataObject) -> None:
    check_agreement(mutated(data.draw(st.sampled_from(BASES)), data))


@pytest.mark.parametrize("document", [load_data(SAMPLE), description(100)], ids=["sample", "100 tools"])
def test_a_valid_document_is_decided_without_jsonschema(monkeypatch: pytest.MonkeyPatch, document: Any) -> None:
    spec = detect(document).specification
    assert spec is not None
    monkeypatch.setattr(structural, "_validator", None)  # any use of jsonschema would fail
    assert structural.validate_structure(document, spec) == []


def schema_patterns() -> list[str]:
    found: list[str] = []

    def walk(schema: Any) -> None:
        if isinstance(schema, dict):
            for keyword, value in schema.items():
                if keyword == "pattern":
                    found.append(value)
                elif keyword == "patternProperties":
                    found.extend(value)
                if keyword not in ("enum", "const"):
                    walk(value)
        elif isinstance(schema, list):
            for item in schema:
                walk(item)

    for spec in (SPEC_0_8_0, SPEC_0_9_0_RC_3):
        walk(document_schema(spec))
    return sorted(set(found))


PATTERNS = [*schema_patterns(), r"^[a-z]+\Z", r"^(?:ab|c)+$", r"^x-", r"[^/]+", r"a|b$"]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(pattern=st.sampled_from(PATTERNS), text=st.text(alphabet="abcxyz-_./#\n A0é", max_size=12))
def test_translated_property_patterns_match_what_python_matches(pattern: str, text: str) -> None:
    # patternProperties run on Python's re.search in the structural validator.
    translated = rust_pattern(pattern)
    assert translated is not None
    compiled = jsonschema_rs.Draft202012Validator({"pattern": translated})
    assert compiled.is_valid(text) == (re.search(pattern, text) is not None)


ECMA_PATTERNS = [p for p in PATTERNS if not p.endswith("\\Z")]


@settings(max_examples=300, deadline=None)
@given(pattern=st.sampled_from(ECMA_PATTERNS), text=st.text(alphabet="abcxyz-_./#\n A0é", max_size=12))
def test_translated_patterns_match_what_the_structural_validator_matches(pattern: str, text: str) -> None:
    # `pattern` runs on RE2 with ECMA-262's `$` (the end of the text, not before a final
    # newline): the compiled copy must not accept "ask\n" where the validator refuses it.
    translated = rust_pattern(pattern, ecma_end=True)
    assert translated is not None
    regex = compile_linear(pattern)
    assert isinstance(regex, LinearRegex)
    compiled = jsonschema_rs.Draft202012Validator({"pattern": translated})
    assert compiled.is_valid(text) == regex.search(text)


def test_ecma_patterns_ending_in_python_end_of_text_are_not_translated() -> None:
    assert rust_pattern(r"^a\Z", ecma_end=True) is None


@pytest.mark.parametrize("name", ["ask\n", "ask"])
def test_a_final_newline_gets_the_same_verdict_in_a_large_document(name: str) -> None:
    data = load_data(SAMPLE)
    template = next(t for t in data["tools"] if t.get("elicitations"))
    data["tools"] = [template] + [{"name": f"filler_{i}", "inputSchema": {"type": "object"}} for i in range(100)]
    template["elicitations"][0]["name"] = name
    assert jsonschema_says_valid(data, SPEC_0_9_0_RC_3) == (name == "ask")
    assert structure_is_valid(data, SPEC_0_9_0_RC_3) == (name == "ask")


@pytest.mark.parametrize("pattern", [r"^\d+$", r"^.+$", r"(?i)^a$", r"^a{2}$", r"^\w$", r"(?=a)a", r"^a$b", r"\bword"])
def test_patterns_whose_meaning_may_differ_are_not_translated(pattern: str) -> None:
    assert rust_pattern(pattern) is None
