"""``ByObject``: results kept by the identity of the (never mutated) value they came from;
``Replayed``: the sites several rules walk, walked once per document."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mcpdesc_docs.spec.versions import SPEC_0_9_0_RC_3
from mcpdesc_docs.validation.document import Document, Replayed
from mcpdesc_docs.validation.memo import ByObject, ByObjectAt, Memos
from mcpdesc_docs.validation.rules import elicitation, meta, results, tool_schemas
from mcpdesc_docs.validation.validator import run_rules

from .rich_document import rich


def test_a_result_is_computed_once_per_object_not_per_equal_value() -> None:
    calls: list[object] = []

    def compute(value: object) -> int:
        calls.append(value)
        return len(calls)

    memo: ByObject[int] = ByObject(compute)
    schema = {"type": "string"}
    assert memo(schema) == memo(schema) == 1
    twin = {"type": "string"}  # equal, but another object: its own entry
    assert memo(twin) == 2
    assert calls == [schema, twin]


def test_entries_keep_their_objects_and_the_memo_stays_bounded() -> None:
    # Each value is dropped right after use; were its id reused by the next value while an
    # entry still named it, the next value would get the old result.
    counter = iter(range(1000))
    memo: ByObject[int] = ByObject(lambda value: next(counter), limit=3)
    seen: set[int] = set()
    for _ in range(50):
        result = memo({"n": 1})
        assert result not in seen
        seen.add(result)
        assert len(memo) <= 3


def test_a_replayed_walk_runs_once_and_each_iteration_sees_all_of_it() -> None:
    steps: list[int] = []

    def walk() -> Iterator[int]:
        for n in range(4):
            steps.append(n)
            yield n

    replayed = Replayed(walk())
    first = iter(replayed)
    assert [next(first), next(first)] == [0, 1]
    assert steps == [0, 1]  # the first iteration drives the walk, step by step
    assert list(replayed) == [0, 1, 2, 3]  # a second one reads, then walks on
    assert list(first) == [2, 3]
    assert list(replayed) == [0, 1, 2, 3]
    assert steps == [0, 1, 2, 3]


def test_a_walk_that_raised_raises_again_for_every_iteration() -> None:
    def walk() -> Iterator[int]:
        yield 1
        raise KeyError("bug")

    replayed = Replayed(walk())
    for _ in range(2):
        items = iter(replayed)
        assert next(items) == 1
        with pytest.raises(KeyError):
            next(items)


def test_the_rules_walk_shared_sites_once_per_document(monkeypatch: pytest.MonkeyPatch) -> None:
    walks: Counter[tuple[str, tuple[object, ...]]] = Counter()

    def counted(module: object, name: str) -> None:
        original = getattr(module, name)

        def wrapper(document: Document, *arguments: str) -> Iterator[object]:
            walks[(name, arguments)] += 1
            return original(document, *arguments)  # type: ignore[no-any-return]

        monkeypatch.setattr(module, name, wrapper)

    for module, name in (
        (results, "_walk_examples"),
        (meta, "_walk_meta_sites"),
        (tool_schemas, "_tool_schemas"),
        (elicitation, "_walk_form_schemas"),
    ):
        counted(module, name)
    document = Document.build(rich(), SPEC_0_9_0_RC_3)
    run_rules(document)
    # Each is asked for by several rules (tool schemas by six, examples of a tool by five).
    assert walks[("_tool_schemas", ())] == 1
    assert walks[("_walk_form_schemas", ())] == 1
    assert walks[("_walk_meta_sites", ())] == 1
    assert walks[("_walk_examples", ("tool", "examples"))] == 1
    assert set(walks.values()) == {1}


def test_a_result_by_object_and_place_is_kept_for_that_pair() -> None:
    calls: list[str] = []
    memo: ByObjectAt[int] = ByObjectAt()

    def compute(label: str) -> Callable[[], int]:
        return lambda: calls.append(label) or len(calls)

    schema = {"type": "object"}
    assert memo.get(schema, "/a", compute("a")) == memo.get(schema, "/a", compute("again")) == 1
    assert memo.get(schema, "/b", compute("b")) == 2  # the same schema shown elsewhere
    assert memo.get({"type": "object"}, "/a", compute("twin")) == 3  # an equal schema, another object
    assert calls == ["a", "b", "twin"]


def test_form_schemas_are_checked_again_only_when_they_change(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    for name in ("_member_findings", "_consistency_findings"):
        original = getattr(elicitation, name)

        def counted(form: Any, original: Any = original) -> Iterator[object]:
            checked.append(form.pointer)
            return original(form)  # type: ignore[no-any-return]

        monkeypatch.setattr(elicitation, name, counted)
    data = rich()
    memos = Memos()  # serve's build session holds one for all its rebuilds
    first = run_rules(Document.build(data, SPEC_0_9_0_RC_3, memos))
    forms = len(checked)
    assert forms >= 2  # two checks of each form schema
    checked.clear()
    assert run_rules(Document.build(data, SPEC_0_9_0_RC_3, memos)) == first
    assert checked == []  # the same schema objects: nothing checked again
    tools = data["tools"]
    index, tool = next(
        (i, t) for i, t in enumerate(tools) if any("requestedSchema" in e for e in t.get("elicitations", []))
    )
    edited = copy.deepcopy(tool)  # equal, but new objects: an edited tool as serve reads it
    edited_data = {**data, "tools": [*tools[:index], edited, *tools[index + 1 :]]}
    again = run_rules(Document.build(edited_data, SPEC_0_9_0_RC_3, memos))
    assert again == first
    assert len(checked) >= 2
    assert all(pointer.startswith(f"/tools/{index}/") for pointer in checked)
    # Without the session's memos a document keeps its own: nothing outlives it.
    checked.clear()
    assert run_rules(Document.build(data, SPEC_0_9_0_RC_3)) == first
    assert len(checked) == forms


def test_no_identity_memo_lives_at_module_level() -> None:
    # A module-level memo would keep up to DEFAULT_LIMIT objects of past descriptions alive
    # for the life of the process, owned by nobody (serve's build session owns them now).
    import importlib
    import pkgutil

    import mcpdesc_docs

    found = []
    for info in pkgutil.walk_packages(mcpdesc_docs.__path__, "mcpdesc_docs."):
        if info.name.endswith("__main__"):
            continue  # running it is the command line
        module = importlib.import_module(info.name)
        found.extend(
            f"{info.name}.{name}"
            for name, value in vars(module).items()
            if isinstance(value, ByObject | ByObjectAt | Memos)
        )
    assert found == []
