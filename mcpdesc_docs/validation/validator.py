"""The validate stage: detect the specification, check structure, run every semantic rule."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..diagnostics import Diagnostic, count, error
from ..errors import DescriptionError
from ..kinds import KINDS
from ..records import record
from ..source.limits import DEFAULT_LIMITS, LIMITS_RULE, Limits
from ..source.load import FULL_READERS, Readers, Source, read_source
from ..source.positions import PROFILE_RULE as YAML_PROFILE_RULE
from ..source.positions import SYNTAX_RULE
from ..spec.versions import Specification, detect
from .document import Document
from .memo import Memos
from .registry import findings_of, load_rules, rules_for
from .rule_cache import RuleCache
from .structural import STRUCTURAL_RULES, legacy_rule_id, validate_structure


class CheckSession(Protocol):
    """What a build session (``serve``'s, held for all its rebuilds) lends this stage: the
    readers that re-parse only an edited item, the hand-over of unchanged values as the
    objects of the last read (which also works out, once, what changed), the findings of
    the local rules kept per primitive, and the rules' identity memos."""

    @property
    def readers(self) -> Readers: ...

    @property
    def rule_cache(self) -> RuleCache: ...

    @property
    def memos(self) -> Memos: ...

    def same_objects(self, data: object) -> object: ...


@record
class Checked:
    """What validation made of a readable description: the stage hand-off that the page
    model reuses (the Document is built once per build)."""

    source: Source
    specification: Specification
    document: Document


@record
class ValidationResult:
    file: str
    specification: Specification | None
    diagnostics: list[Diagnostic]
    """Located and sorted by position."""
    checked: Checked | None = None
    """None when the description could not be read, is no object, or names no supported version."""
    text: str | None = None
    """The description's text, when it could be decoded (text reports quote its lines)."""

    @property
    def source(self) -> Source | None:
        return self.checked.source if self.checked is not None else None

    @property
    def errors(self) -> int:
        return count(self.diagnostics)[0]

    @property
    def warnings(self) -> int:
        return count(self.diagnostics)[1]

    def passes(self, *, strict: bool = False) -> bool:
        errors, warnings = count(self.diagnostics)
        return errors == 0 and not (strict and warnings)

    def accepted(self, *, strict: bool = False) -> Checked | None:
        """The checked description when it passes (and so may be rendered), else None."""
        return self.checked if self.passes(strict=strict) else None


@record
class DocumentCheck:
    specification: Specification | None
    diagnostics: list[Diagnostic]
    """Not yet located."""
    document: Document | None
    """The view the rules shared; None when no rules could run."""


def run_rules(document: Document, kept: RuleCache | None = None) -> list[Diagnostic]:
    """What every rule of the document's format finds, rule by rule in registration order.
    With ``kept`` (serve's), local rules check again only the primitives that changed since
    the last run; the findings are the same, though not always in the same order (reports
    sort them by position)."""
    rules = rules_for(document.specification).values()
    found = kept.run(document, rules) if kept is not None else findings_of(rules, document)
    document.drop_walks()  # the page model is built from the same Document; it needs none of them
    return found


def check_document(data: object, session: CheckSession | None = None) -> DocumentCheck:
    """Validate already-loaded data (``session``: serve's, see ``CheckSession``)."""
    detection = detect(data)
    diagnostics = list(detection.diagnostics)
    spec = detection.specification
    if spec is None or not isinstance(data, dict):
        return DocumentCheck(spec, diagnostics, None)
    diagnostics.extend(validate_structure(data, spec))
    document = Document.build(data, spec, session.memos if session is not None else None)
    diagnostics.extend(run_rules(document, session.rule_cache if session is not None else None))
    return DocumentCheck(spec, _unique(diagnostics), document)


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: dict[tuple[str, str, str | None, str], Diagnostic] = {}
    for diagnostic in diagnostics:
        seen.setdefault((diagnostic.rule, diagnostic.code, diagnostic.path, diagnostic.message), diagnostic)
    return list(seen.values())


def _too_many_primitives(data: object, limits: Limits) -> Diagnostic | None:
    if not isinstance(data, dict):
        return None
    # Each of these becomes a page (tags too), so together they bound the size of the site.
    collections = [*(kind.collection for kind in KINDS), "tags"]
    total = sum(len(v) for collection in collections if isinstance(v := data.get(collection), list))
    if total <= limits.max_primitives:
        return None
    return error(
        LIMITS_RULE,
        "input-too-many-primitives",
        f"{total} tools, resources, resource templates, prompts and tags; the limit is {limits.max_primitives} "
        "(raise it with limits.max_primitives in mcpdesc-docs.yml)",
        "",
    )


def validate_source(
    source: Source,
    limits: Limits = DEFAULT_LIMITS,
    *,
    suppress: tuple[str, ...] = (),
    session: CheckSession | None = None,
) -> ValidationResult:
    """Validate loaded data; warnings of the rules ``suppress`` names (see :func:`suppresses`) are left out."""
    too_many = _too_many_primitives(source.data, limits)
    if too_many is not None:
        return ValidationResult(
            source.name, detect(source.data).specification, [source.place(too_many)], text=source.text
        )
    check = check_document(source.data, session)
    silenced = [d for d in check.diagnostics if d.is_error or not any(suppresses(e, d.rule) for e in suppress)]
    placed = sorted((source.place(d) for d in silenced), key=Diagnostic.sort_key)
    checked = (
        Checked(source, check.specification, check.document)
        if check.specification is not None and check.document is not None
        else None
    )
    return ValidationResult(source.name, check.specification, placed, checked, source.text)


def validate_file(
    path: Path,
    *,
    name: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    suppress: tuple[str, ...] = (),
    session: CheckSession | None = None,
) -> ValidationResult:
    """Load and validate one description file. Raises UsageError for I/O problems.
    ``serve`` passes its build ``session`` (see ``CheckSession``)."""
    display = name or str(path)
    try:
        source = read_source(path, limits=limits, name=display, readers=session.readers if session else FULL_READERS)
        if session is not None:
            source.data = session.same_objects(source.data)
    except DescriptionError as exc:
        # Loading stops at its first problem, always an error: there is nothing to suppress.
        return ValidationResult(display, None, sorted(exc.diagnostics, key=Diagnostic.sort_key), text=exc.text)
    return validate_source(source, limits, suppress=suppress, session=session)


def suppresses(entry: str, rule_id: str) -> bool:
    """Whether a ``suppress`` entry silences a rule's warnings: it is the rule id, or a dotted
    prefix of it (``mcp.meta`` silences ``mcp.meta.key-grammar``, not ``mcp.metadata``).
    Errors are never silenced."""
    return rule_id == entry or rule_id.startswith(entry + ".")


def known_rule_ids() -> frozenset[str]:
    """Every rule id validation can report, so that a ``suppress`` entry can be checked."""
    structural = {*STRUCTURAL_RULES, *(legacy_rule_id(rule_id) for rule_id in STRUCTURAL_RULES)}
    return frozenset({*load_rules(), *structural, LIMITS_RULE, SYNTAX_RULE, YAML_PROFILE_RULE})


__all__ = [
    "Checked",
    "DocumentCheck",
    "ValidationResult",
    "check_document",
    "known_rule_ids",
    "suppresses",
    "validate_file",
    "validate_source",
]
