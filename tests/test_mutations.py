"""Property-based: mutated valid documents never crash the validator; untouched valid ones
get no error; mutations that are invalid by construction always get at least one."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.spec.revisions import REVISIONS

from .helpers import Path, describe, diagnostics_of, walk
from .rich_document import rich
from .sites import EXAMPLES, SAMPLE, load_data

Doc = dict[str, Any]

BASES: list[Doc] = [rich(), load_data(SAMPLE), *(load_data(p) for p in EXAMPLES)]
REQUIRED = {
    "info": ("name", "version"),
    "tools": ("name", "inputSchema"),
    "resources": ("uri", "name"),
    "resourceTemplates": ("uriTemplate", "name"),
    "prompts": ("name",),
    "elicitations": ("name", "mode", "message"),
}


def get(document: Doc, path: Path) -> Any:
    value: Any = document
    for part in path:
        value = value[part]
    return value


def required_members(document: Doc) -> list[Path]:
    found: list[Path] = [("info", member) for member in REQUIRED["info"]]
    for path, value in walk(document):
        is_declaration = len(path) >= 2 and isinstance(path[-1], int) and path[-2] in REQUIRED
        if is_declaration and isinstance(value, dict) and (path[-2] == "elicitations" or len(path) == 2):
            found.extend((*path, member) for member in REQUIRED[str(path[-2])] if member in value)
    return found


def drop_required(document: Doc, choice: st.DataObject) -> None:
    path = choice.draw(st.sampled_from(required_members(document)))
    del get(document, path[:-1])[path[-1]]


def widen_scope(document: Doc, choice: st.DataObject) -> None:
    declarations = [
        (collection, index)
        for collection in ("tools", "resources", "resourceTemplates", "prompts", "transports", "capabilities")
        for index in range(len(document.get(collection, [])))
    ]
    assume(declarations)
    collection, index = choice.draw(st.sampled_from(declarations))
    outside = [r for r in REVISIONS if r not in document["protocolVersions"]] or ["2031-01-01"]
    document[collection][index]["protocolVersions"] = [choice.draw(st.sampled_from(outside))]


def break_reference(document: Doc, choice: st.DataObject) -> None:
    references = [path for path, value in walk(document) if isinstance(value, dict) and "$componentRef" in value]
    assume(references)
    path = choice.draw(st.sampled_from(references))
    namespace = get(document, path)["$componentRef"].split("/")[2]
    get(document, path)["$componentRef"] = f"#/components/{namespace}/no-such-component"


def perturb_example(document: Doc, choice: st.DataObject) -> None:
    results = [
        path
        for path, value in walk(document)
        if len(path) >= 3
        and path[-1] == "result"
        and path[-3] in ("examples", "interactionExamples", "toolExamples")
        and path[0] in ("tools", "components")
        and isinstance(value, dict)
    ]
    assume(results)
    path = choice.draw(st.sampled_from(results))
    member = choice.draw(st.sampled_from(["jsonrpc", "task", "requestState"]))
    get(document, path)[member] = choice.draw(st.sampled_from(["2.0", 1, {}]))


INVALID_MUTATIONS = [drop_required, widen_scope, break_reference, perturb_example]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_invalid_by_construction_always_reports_an_error(data: st.DataObject) -> None:
    document = copy.deepcopy(data.draw(st.sampled_from(BASES)))
    mutation = data.draw(st.sampled_from(INVALID_MUTATIONS))
    mutation(document, data)
    found = diagnostics_of(document)
    assert any(d.is_error for d in found), f"{mutation.__name__}: {describe(found)}"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_replacements_never_crash(data: st.DataObject) -> None:
    document = copy.deepcopy(data.draw(st.sampled_from(BASES)))
    paths = [path for path, _ in walk(document) if path]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        try:
            parent = get(document, path[:-1])
            if isinstance(parent, dict) and not isinstance(path[-1], str):
                continue  # an earlier replacement made this array an object: an int key is not JSON
            parent[path[-1]] = data.draw(JSON_VALUES)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier replacement removed this path
    crashes = [d for d in diagnostics_of(document) if d.code == "internal-error"]  # and must not raise
    assert crashes == [], describe(crashes)


def test_untouched_bases_are_valid() -> None:
    for base in BASES:
        assert [d for d in diagnostics_of(copy.deepcopy(base)) if d.is_error] == [], describe(diagnostics_of(base))
