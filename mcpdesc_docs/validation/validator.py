"""The validate stage: detect the specification, check structure, run every semantic rule."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, count, error
from ..errors import DescriptionError
from ..kinds import KINDS
from ..source.limits import DEFAULT_LIMITS, LIMITS_RULE, Limits
from ..source.load import Source, read_source
from ..source.positions import PROFILE_RULE as YAML_PROFILE_RULE
from ..source.positions import SYNTAX_RULE
from ..spec.versions import Specification, detect
from .document import Document
from .registry import load_rules, run_rules
from .structural import STRUCTURAL_RULES, legacy_rule_id, validate_structure


@dataclass(frozen=True, slots=True)
class ValidationResult:
    file: str
    specification: Specification | None
    diagnostics: list[Diagnostic]
    """Located and sorted by position."""
    source: Source | None = None

    @property
    def errors(self) -> int:
        return count(self.diagnostics)[0]

    @property
    def warnings(self) -> int:
        return count(self.diagnostics)[1]

    def passes(self, *, strict: bool = False) -> bool:
        errors, warnings = count(self.diagnostics)
        return errors == 0 and not (strict and warnings)


def check_document(data: object) -> tuple[Specification | None, list[Diagnostic]]:
    """Validate already-loaded data; diagnostics are not yet located."""
    detection = detect(data)
    diagnostics = list(detection.diagnostics)
    spec = detection.specification
    if spec is None or not isinstance(data, dict):
        return spec, diagnostics
    diagnostics.extend(validate_structure(data, spec))
    diagnostics.extend(run_rules(Document.build(data, spec)))
    return spec, _unique(diagnostics)


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: dict[tuple[str, str, str | None, str], Diagnostic] = {}
    for diagnostic in diagnostics:
        seen.setdefault((diagnostic.rule, diagnostic.code, diagnostic.path, diagnostic.message), diagnostic)
    return list(seen.values())


def _too_many_primitives(data: object, limits: Limits) -> Diagnostic | None:
    if not isinstance(data, dict):
        return None
    total = sum(len(v) for kind in KINDS if isinstance(v := data.get(kind.collection), list))
    if total <= limits.max_primitives:
        return None
    return error(
        LIMITS_RULE,
        "input-too-many-primitives",
        f"{total} tools, resources, resource templates and prompts; the limit is {limits.max_primitives} "
        "(raise it with limits.max_primitives in mcpdesc-docs.yml)",
        "",
    )


def validate_source(
    source: Source, limits: Limits = DEFAULT_LIMITS, *, suppress: tuple[str, ...] = ()
) -> ValidationResult:
    """Validate loaded data; warnings of the rules ``suppress`` names (see :func:`suppresses`) are left out."""
    too_many = _too_many_primitives(source.data, limits)
    if too_many is not None:
        return ValidationResult(source.name, detect(source.data).specification, [source.place(too_many)], source)
    spec, diagnostics = check_document(source.data)
    reported = [d for d in diagnostics if d.is_error or not any(suppresses(entry, d.rule) for entry in suppress)]
    placed = sorted((source.place(d) for d in reported), key=Diagnostic.sort_key)
    return ValidationResult(source.name, spec, placed, source)


def validate_file(
    path: Path, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS, suppress: tuple[str, ...] = ()
) -> ValidationResult:
    """Load and validate one description file. Raises UsageError for I/O problems."""
    display = name or str(path)
    try:
        source = read_source(path, limits=limits, name=display)
    except DescriptionError as exc:
        # Loading stops at its first problem, always an error: there is nothing to suppress.
        return ValidationResult(display, None, sorted(exc.diagnostics, key=Diagnostic.sort_key))
    return validate_source(source, limits, suppress=suppress)


def suppresses(entry: str, rule_id: str) -> bool:
    """Whether a ``suppress`` entry silences a rule's warnings: it is the rule id, or a dotted
    prefix of it (``mcp.meta`` silences ``mcp.meta.key-grammar``, not ``mcp.metadata``).
    Errors are never silenced."""
    return rule_id == entry or rule_id.startswith(entry + ".")


def known_rule_ids() -> frozenset[str]:
    """Every rule id validation can report, so that a ``suppress`` entry can be checked."""
    structural = {*STRUCTURAL_RULES, *(legacy_rule_id(rule_id) for rule_id in STRUCTURAL_RULES)}
    return frozenset({*load_rules(), *structural, LIMITS_RULE, SYNTAX_RULE, YAML_PROFILE_RULE})


__all__ = ["ValidationResult", "check_document", "known_rule_ids", "suppresses", "validate_file", "validate_source"]
