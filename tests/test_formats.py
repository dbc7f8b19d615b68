"""The formats the compiled validators call back are checked as jsonschema checks them
(issue 35: a valid description is decided without importing jsonschema)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema_specifications import REGISTRY

from mcpdesc_docs.spec.schema import document_schema
from mcpdesc_docs.spec.schema070 import document_schema_070
from mcpdesc_docs.spec.versions import SPEC_0_8_0, SPEC_0_9_0_RC_3
from mcpdesc_docs.validation import formats

CHECKED_HERE = ["email", "uri", "uri-reference"]
"""``regex`` is ours on both sides (jsonschema's checker is replaced by ``is_regex``)."""

STRINGS = [
    "",
    "a@b",
    "no at",
    "https://example.com/x?y=1#z",
    "https://json-schema.org/draft/2020-12/schema",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema#\n",
    "urn:isbn:0451450523",
    "mailto:someone@example.com",
    "#/$defs/a",
    "#",
    "../relative/path",
    "//host/x",
    "ht tp://bad",
    "http://[::1]:80/",
    "http://[::1",
    "http://x/%zz",
    "http://x/%41",
    "1http://x",
    "x:",
    "\u00e9:x",
    "http://example.com/\n",
]

URI_ALPHABET = "abcAZ09:/?#[]@!$&'()*+,;=-._~% \n\u00e9"


def formats_named(schema: Any) -> set[str]:
    found: set[str] = set()
    stack = [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("format"), str):
                found.add(value["format"])
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def test_every_format_our_schemas_and_the_meta_schemas_name_is_checked_here() -> None:
    named: set[str] = set()
    for schema in (document_schema_070(), document_schema(SPEC_0_8_0), document_schema(SPEC_0_9_0_RC_3)):
        named |= formats_named(schema)
    for uri in REGISTRY:
        if "2020-12" in uri or "draft-07" in uri:
            named |= formats_named(REGISTRY[uri].contents)
    assert named <= set(formats.FORMATS)
    assert {"uri", "email", "regex", "uri-reference"} <= named  # the walk found them


@pytest.mark.parametrize("dialect", [Draft202012Validator, Draft7Validator])
@pytest.mark.parametrize("name", CHECKED_HERE)
@pytest.mark.parametrize("value", [*STRINGS, 5, None, ["x"]])
def test_a_format_is_checked_as_jsonschema_checks_it(dialect: Any, name: str, value: object) -> None:
    assert formats.conforms(name, value) == dialect.FORMAT_CHECKER.conforms(value, name)


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(CHECKED_HERE), value=st.text(alphabet=URI_ALPHABET, max_size=24))
def test_random_strings_get_jsonschema_s_verdict(name: str, value: str) -> None:
    assert formats.conforms(name, value) == Draft202012Validator.FORMAT_CHECKER.conforms(value, name)


URL_CHARACTERS = "ab/%41!$'()*+,;=:@~-.é []#?"


def url_shaped() -> st.SearchStrategy[str]:
    """Strings built as URLs are, from right and wrong pieces: mostly ones the quick subset
    of plain URLs decides, and near misses it must leave to the full grammar."""
    pieces = st.tuples(
        st.sampled_from(["http", "https", "x+y", "1a", "", "h t"]),
        st.sampled_from(["://", ":/", ":", "//"]),
        st.text(alphabet="ab.-~[]:@%!é ", max_size=5),
        st.one_of(st.just(""), st.text(alphabet="0189x", max_size=3).map(lambda port: ":" + port)),
        st.text(alphabet=URL_CHARACTERS, max_size=6),
        st.one_of(st.just(""), st.text(alphabet=URL_CHARACTERS, max_size=4).map(lambda q: "?" + q)),
        st.one_of(st.just(""), st.text(alphabet=URL_CHARACTERS, max_size=4).map(lambda f: "#" + f)),
    )
    return pieces.map("".join)


@settings(max_examples=3000, deadline=None)
@given(name=st.sampled_from(["uri", "uri-reference"]), value=url_shaped())
def test_url_shaped_strings_get_jsonschema_s_verdict(name: str, value: str) -> None:
    assert formats.conforms(name, value) == Draft202012Validator.FORMAT_CHECKER.conforms(value, name), value


def test_plain_urls_do_not_load_the_full_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> None:
        raise AssertionError("the RFC 3986 grammar was loaded")

    monkeypatch.setattr(formats, "_rfc3986", refuse)
    plain = ["https://example.com/a/b?c=d&e=f#g", "http://localhost:8080", "https://a.b/"]
    dialects = ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"]
    for value in plain + dialects:
        assert formats.conforms("uri", value)
    assert formats.conforms("uri-reference", "#/$defs/item")


def test_formats_not_asserted_here_pass() -> None:
    assert formats.conforms("date-time", "not a date")
