"""The rule reference: every rule id validation can report, with the explanation declared
where the rule is defined, as ``mcpdesc-docs rules`` lists and explains them and as
docs/rules.md shows them (both written from here, so they cannot drift apart)."""

from __future__ import annotations

import re
from functools import cache

from ..records import record
from ..rule_docs import RuleDoc
from ..source.rule_docs import SOURCE_DOCS
from ..spec.versions import SPEC_0_7_0, SUPPORTED, Specification
from .registry import CURRENT_FORMATS, load_rules
from .structural import STRUCTURAL_RULES, legacy_rule_id
from .structural_docs import STRUCTURAL_DOCS

_MINIMAL_BODY = """info:
  name: example
  version: 1.0.0
protocolVersions: ["2025-11-25"]
"""
_MINIMAL_070 = """mcpdesc: "0.7.0"
info:
  name: example
  version: 1.0.0
transports:
  - type: stdio
    command: example
tools:
  - name: search
    inputSchema: {type: object}
"""


def minimal_description(specification: Specification) -> str:
    """The smallest valid description of a format, which examples complete."""
    if specification == SPEC_0_7_0:
        return _MINIMAL_070
    return f'mcpdesc: "{specification.mcpdesc}"\n{_MINIMAL_BODY}'


_TOP_LEVEL_MEMBER = re.compile(r"^(\"[^\"]*\"|'[^']*'|[^\s#:\"'-][^:]*):", re.MULTILINE)


def example_description(fragment: str, specification: Specification) -> str:
    """The description an example stands for: the minimal description, whose top-level
    members the fragment's replace, then the fragment (text, so that an example may show a
    problem of the text itself)."""
    replaced = {name.strip("\"'") for name in _TOP_LEVEL_MEMBER.findall(fragment)}
    kept: list[str] = []
    keep = True
    for line in minimal_description(specification).splitlines(keepends=True):
        member = _TOP_LEVEL_MEMBER.match(line)
        if member is not None:
            keep = member.group(1).strip("\"'") not in replaced
        if keep:
            kept.append(line)
    return "".join(kept) + fragment


@record
class RuleEntry:
    """One rule id as users see it."""

    id: str
    doc: RuleDoc
    formats: tuple[Specification, ...]
    counterpart: str | None = None
    """For the 0.7.0 ids the structural check reports under: the 0.8/0.9 rule whose
    explanation (and examples) it shares."""
    subject: str = "description"
    """What the examples are: fragments of a description, or for the rules of this tool's
    own files what those files hold."""

    @property
    def example_format(self) -> Specification:
        """The format the examples are written in."""
        return self.formats[0]


_EVERY_FORMAT = SUPPORTED


@cache
def reference() -> dict[str, RuleEntry]:
    """Every rule id validation can report, sorted. Raises if one has no explanation, or two."""
    entries: dict[str, RuleEntry] = {}

    def add(entry: RuleEntry) -> None:
        if entry.id in entries:
            raise RuntimeError(f"rule {entry.id} is explained twice")
        entries[entry.id] = entry

    for registered in load_rules().values():
        if registered.doc is None:
            raise RuntimeError(f"rule {registered.id} has no explanation")
        add(RuleEntry(registered.id, registered.doc, registered.formats))
    registered_ids = set(entries)
    for rule_id, doc in STRUCTURAL_DOCS.items():
        if rule_id not in registered_ids:
            add(RuleEntry(rule_id, doc, CURRENT_FORMATS))
    for rule_id in sorted(STRUCTURAL_RULES):
        modern = entries.get(rule_id)
        if modern is None:
            raise RuntimeError(f"structural rule {rule_id} has no explanation")
        add(RuleEntry(legacy_rule_id(rule_id), modern.doc, (SPEC_0_7_0,), counterpart=rule_id))
    for rule_id, doc in SOURCE_DOCS.items():
        add(RuleEntry(rule_id, doc, _EVERY_FORMAT))
    return dict(sorted(entries.items()))
