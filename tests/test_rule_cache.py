"""``serve`` keeps what the local rules found per primitive (validation/rule_cache.py) and
checks again only the primitives an edit changed: after any edit, what it reports must be
what a full run of every rule reports."""

from __future__ import annotations

import copy
import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.diagnostics import Diagnostic
from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.kinds import BY_COLLECTION
from mcpdesc_docs.source.changes import Snapshot, SourceChange
from mcpdesc_docs.source.limits import LIMITS_RULE
from mcpdesc_docs.source.load import read_source
from mcpdesc_docs.spec.versions import SPEC_0_9_0_RC_3, Specification, detect
from mcpdesc_docs.validation import registry, rule_cache
from mcpdesc_docs.validation.document import Document
from mcpdesc_docs.validation.findings import INTERNAL_ERROR, TOO_MANY_FINDINGS, Finding
from mcpdesc_docs.validation.registry import Rule
from mcpdesc_docs.validation.rule_cache import RuleCache
from mcpdesc_docs.validation.validator import run_rules, validate_file

from .sites import SAMPLE, description_files

COLLECTIONS = frozenset(BY_COLLECTION)
Key = tuple[str, str, str | None, str, str, str | None, str | None]


class ToldRuleCache(RuleCache):
    """A rule cache told, before each run, what changed since the last (as serve's build
    session tells it once per rebuild)."""

    def __init__(self) -> None:
        super().__init__()
        self._last: Snapshot | None = None

    def run(self, document: Document, rules: Iterable[Rule]) -> list[Diagnostic]:
        snapshot = Snapshot.of(document.data)
        self.advance(SourceChange.between(self._last, snapshot))
        self._last = snapshot
        return super().run(document, rules)


def findings(diagnostics: list[Diagnostic]) -> list[Key]:
    """Everything a finding says, in an order of its own (reports sort by position anyway)."""
    return sorted((d.rule, d.code, d.path, d.message, d.severity.value, d.requirement, d.hint) for d in diagnostics)


def _holds_reference(value: object) -> bool:
    if isinstance(value, dict):
        return "$componentRef" in value or any(_holds_reference(v) for v in value.values())
    return isinstance(value, list) and any(_holds_reference(v) for v in value)


def _readable() -> Iterator[tuple[Path, dict[str, Any], Specification]]:
    for path in description_files():
        try:
            data = read_source(path).data
        except DescriptionError:
            continue
        specification = detect(data).specification
        if specification is not None and isinstance(data, dict):
            yield path, data, specification


def _cached_kind(data: dict[str, Any]) -> bool:
    """Whether the cache applies: no reference outside the components."""
    return not any(_holds_reference(value) for key, value in data.items() if key != "components")


READABLE = list(_readable())
CACHED = [(path, data, spec) for path, data, spec in READABLE if _cached_kind(data)]
"""Every description at hand the cache applies to (the corpus, the test fixtures)."""


def with_new_primitives(data: dict[str, Any]) -> dict[str, Any]:
    """The same description, its root members the same objects and every primitive a new
    (equal) one: each is then checked alone."""
    return {
        key: [copy.deepcopy(item) for item in value] if key in COLLECTIONS and isinstance(value, list) else value
        for key, value in data.items()
    }


def test_there_are_descriptions_to_check_alone() -> None:
    # The tests below run on these: with the corpus about a hundred, without it the fixtures.
    assert len(CACHED) >= 5


@pytest.mark.parametrize(("path", "data", "specification"), CACHED, ids=[p.name for p, _, _ in CACHED])
def test_every_local_rule_finds_in_each_primitive_alone_what_it_finds_in_the_whole(
    path: Path, data: dict[str, Any], specification: Specification, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rule_cache, "FEW_CHANGED", 10**6)  # however many primitives, each alone
    full = run_rules(Document.build(data, specification))
    cache = ToldRuleCache()
    assert findings(run_rules(Document.build(data, specification), cache)) == findings(full)
    assert cache.checked_in_full
    again = with_new_primitives(data)
    assert findings(run_rules(Document.build(again, specification), cache)) == findings(full)
    primitives = sum(len(v) for k, v in data.items() if k in COLLECTIONS and isinstance(v, list))
    assert (cache.checked_in_full, cache.checked_alone) == (False, primitives)


def _pool_items(collection: str) -> list[Any]:
    return [item for _, data, _ in CACHED for item in (data.get(collection) or []) if isinstance(item, dict)]


POOL = {collection: _pool_items(collection) for collection in sorted(COLLECTIONS)}
ROOT_MEMBERS = sorted({key for _, data, _ in CACHED for key in data if key not in COLLECTIONS and key != "mcpdesc"})
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


def edited(data: dict[str, Any], draw: st.DataObject) -> dict[str, Any]:
    """One edit as serve sees it: a new root, and new objects only for what changed."""
    data = dict(data)
    collection = draw.draw(st.sampled_from([c for c in sorted(COLLECTIONS) if POOL[c]]))
    items = list(data[collection]) if isinstance(data.get(collection), list) else []
    action = draw.draw(st.sampled_from(["replace", "insert", "remove", "scope", "elicitation", "equal", "root"]))
    index = draw.draw(st.integers(0, max(len(items) - 1, 0)))
    if action == "replace" and items:
        items[index] = draw.draw(st.sampled_from(POOL[collection]))
    elif action == "insert" or not items:
        items.insert(draw.draw(st.integers(0, len(items))), draw.draw(st.sampled_from(POOL[collection])))
    elif action == "remove":
        del items[index]
    elif action == "scope":
        changed = dict(items[index])
        changed["protocolVersions"] = draw.draw(st.lists(st.sampled_from(REVISIONS), max_size=3, unique=True))
        items[index] = changed
    elif action == "elicitation" and isinstance(items[index].get("elicitations"), list):
        changed = copy.deepcopy(items[index])
        declaration = draw.draw(st.sampled_from(changed["elicitations"])) if changed["elicitations"] else None
        if isinstance(declaration, dict):
            declaration["protocolVersions"] = draw.draw(st.lists(st.sampled_from(REVISIONS), max_size=2, unique=True))
            declaration["mode"] = draw.draw(st.sampled_from(["form", "url"]))
        items[index] = changed
    elif action == "equal":
        items[index] = copy.deepcopy(items[index])
    elif action == "root":
        member = draw.draw(st.sampled_from(ROOT_MEMBERS))
        donors = [d[member] for _, d, _ in CACHED if member in d]
        if member in data and draw.draw(st.booleans()):
            del data[member]
        else:
            data[member] = draw.draw(st.sampled_from(donors))
    data[collection] = items
    return data


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(draw=st.data())
def test_after_any_edits_the_kept_findings_are_those_of_a_full_run(draw: st.DataObject) -> None:
    _, data, specification = draw.draw(st.sampled_from(CACHED))
    cache = ToldRuleCache()
    run_rules(Document.build(data, specification), cache)
    for _ in range(draw.draw(st.integers(1, 6))):
        data = edited(data, draw)
        kept = run_rules(Document.build(data, specification), cache)
        assert findings(kept) == findings(run_rules(Document.build(data, specification)))


def tools(count: int, *, misspelt: int | None = None) -> dict[str, Any]:
    return {
        "mcpdesc": "0.9.0",
        "info": {"name": "t", "version": "1"},
        "protocolVersions": ["2025-11-25"],
        "transports": [{"type": "stdio", "command": "t"}],
        "tools": [
            {
                "name": f"tool_{i}",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHnt": True} if i == misspelt else {},
            }
            for i in range(count)
        ],
    }


def test_an_edit_of_one_tool_checks_that_tool_alone() -> None:
    data = tools(200)
    cache = ToldRuleCache()
    assert run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache) == []
    tools_now = list(data["tools"])
    tools_now[57] = {**tools_now[57], "annotations": {"readOnlyHnt": True}}
    data = {**data, "tools": tools_now}
    found = run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache)
    assert (cache.checked_in_full, cache.checked_alone) == (False, 1)
    assert [(d.rule, d.path) for d in found] == [
        ("mcpdesc-docs.annotation-spelling", "/tools/57/annotations/readOnlyHnt")
    ]
    # Mended again: nothing is left of the finding.
    tools_now = list(tools_now)
    tools_now[57] = {**tools_now[57], "annotations": {}}
    assert run_rules(Document.build({**data, "tools": tools_now}, SPEC_0_9_0_RC_3), cache) == []
    assert cache.checked_alone == 1


def test_a_removed_primitive_takes_its_findings_with_it() -> None:
    data = tools(40, misspelt=39)
    cache = ToldRuleCache()
    assert [d.path for d in run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache)] == [
        "/tools/39/annotations/readOnlyHnt"
    ]
    assert run_rules(Document.build({**data, "tools": data["tools"][:39]}, SPEC_0_9_0_RC_3), cache) == []
    assert (cache.checked_in_full, cache.checked_alone) == (False, 0)


def test_a_changed_root_or_many_moved_primitives_check_everything() -> None:
    data = tools(200, misspelt=3)
    cache = ToldRuleCache()
    first = run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache)
    run_rules(Document.build({**data, "protocolVersions": ["2025-11-25"]}, SPEC_0_9_0_RC_3), cache)
    assert cache.checked_in_full  # an equal root, but new objects: nothing is known of it
    moved = {**data, "tools": [{"name": "first", "inputSchema": {"type": "object"}}, *data["tools"]]}
    found = run_rules(Document.build(moved, SPEC_0_9_0_RC_3), cache)
    assert cache.checked_in_full  # every pointer moved: one pass costs less than 201 alone
    assert [d.path for d in first] == ["/tools/3/annotations/readOnlyHnt"]
    assert [d.path for d in found] == ["/tools/4/annotations/readOnlyHnt"]


def test_a_description_with_references_is_checked_in_full_each_time() -> None:
    data = read_source(SAMPLE).data
    assert isinstance(data, dict)
    specification = detect(data).specification
    assert specification is not None
    cache = ToldRuleCache()
    for _ in range(2):
        run_rules(Document.build(data, specification), cache)
        assert (cache.checked_in_full, cache.checked_alone) == (True, 0)


def _counting_rule(monkeypatch: pytest.MonkeyPatch, check: Any) -> None:
    """Put a local rule of the test's own in the registry, for these tests only."""
    registry.load_rules()
    rules = dict(registry.REGISTRY)
    rules["test.local"] = Rule("test.local", check, registry.CURRENT_FORMATS, local=True)
    monkeypatch.setattr(registry, "REGISTRY", rules)


def test_a_rule_that_crashes_on_an_edited_primitive_reports_as_a_full_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def check(document: Document) -> Iterator[Finding]:
        for primitive in document.primitives:
            if primitive.identity == "boom":
                raise ValueError("boom")
            yield Finding.warning("seen", f"{primitive.label} seen", primitive.pointer)

    _counting_rule(monkeypatch, check)
    data = tools(40)
    cache = ToldRuleCache()
    run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache)
    changed = list(data["tools"])
    changed[10] = {**changed[10], "name": "boom"}
    data = {**data, "tools": changed}
    kept = run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache)
    full = run_rules(Document.build(data, SPEC_0_9_0_RC_3))
    assert findings(kept) == findings(full)
    ours = [d for d in full if d.rule == "test.local"]
    assert len(ours) == 11  # the ten before it, then the crash
    assert ours[-1].code == INTERNAL_ERROR


def test_a_rule_that_finds_too_many_after_an_edit_reports_as_a_full_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "MAX_FINDINGS", 5)
    monkeypatch.setattr(rule_cache, "MAX_FINDINGS", 5)

    def check(document: Document) -> Iterator[Finding]:
        for primitive in document.primitives:
            if primitive.data.get("description") == "flagged":
                yield Finding.warning("flagged", f"{primitive.label} is flagged", primitive.pointer)

    _counting_rule(monkeypatch, check)
    data = tools(40)
    data["tools"] = [{**tool, "description": "flagged"} if i < 5 else tool for i, tool in enumerate(data["tools"])]
    cache = ToldRuleCache()
    assert len([d for d in run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache) if d.rule == "test.local"]) == 5
    for flagged in (20, 21):  # the sixth finding stops the rule; the seventh is still stopped
        changed = list(data["tools"])
        changed[flagged] = {**changed[flagged], "description": "flagged"}
        data = {**data, "tools": changed}
        kept = run_rules(Document.build(data, SPEC_0_9_0_RC_3), cache)
        assert findings(kept) == findings(run_rules(Document.build(data, SPEC_0_9_0_RC_3)))
        assert [d.code for d in kept if d.rule in ("test.local", LIMITS_RULE)][-1] == TOO_MANY_FINDINGS


def test_serve_checks_an_edited_tool_alone(tmp_path: Path) -> None:
    description = tmp_path / "tools.mcpdesc.yaml"
    lines = ['mcpdesc: "0.9.0"', "info: {name: t, version: '1'}", "protocolVersions: [2025-11-25]", "tools:"]
    lines += [f"  - name: tool_{i}\n    description: Tool {i}.\n    inputSchema: {{type: object}}" for i in range(100)]
    description.write_text("\n".join(lines) + "\n", encoding="utf-8")
    builder = ProjectBuilder(description, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    assert builder.rule_cache.checked_in_full
    description.write_text(
        description.read_text(encoding="utf-8").replace("description: Tool 42.", "description: Tool 42, edited."),
        encoding="utf-8",
    )
    assert builder.build([str(description)]).ok
    assert (builder.rule_cache.checked_in_full, builder.rule_cache.checked_alone) == (False, 1)
    # The way serve reads an edit (one item re-parsed, the rest the same objects) and the
    # kept findings give what a fresh validation gives, as the tool is broken and mended.
    text = description.read_text(encoding="utf-8")
    for old, new in (
        ("description: Tool 7.", "description: Tool 7.\n    annotations: {readOnlyHnt: true}"),
        ("description: Tool 90.", "description: Tool 90.\n    protocolVersions: [2024-11-05]"),
        ("\n    annotations: {readOnlyHnt: true}", ""),
    ):
        text = text.replace(old, new)
        description.write_text(text, encoding="utf-8")
        rebuilt = builder.build([str(description)])
        assert not builder.rule_cache.checked_in_full
        fresh = validate_file(description)
        assert findings(list(rebuilt.diagnostics)) == findings(fresh.diagnostics)
        assert [d.sort_key() for d in rebuilt.diagnostics] == [d.sort_key() for d in fresh.diagnostics]
    assert [d.path for d in fresh.diagnostics] == ["/tools/90/protocolVersions/0"]


def test_views_hold_no_other_primitive() -> None:
    # A local rule that read another primitive through the root would find nothing alone:
    # the view's root has no primitive collections at all.
    data = tools(3)
    document = Document.build(data, SPEC_0_9_0_RC_3)
    cache = ToldRuleCache()
    views = cache._views(document, tuple((k, v) for k, v in data.items() if k not in COLLECTIONS), document.primitives)
    for (pointer, view), primitive in zip(views, document.primitives, strict=True):
        assert pointer == primitive.pointer
        assert view.primitives == [primitive]
        assert not COLLECTIONS & set(view.data)
