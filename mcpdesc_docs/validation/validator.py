"""The validate stage: detect the specification, check structure, run every semantic rule."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, count, error
from ..errors import DescriptionError
from ..kinds import KINDS
from ..source.load import DEFAULT_LIMITS, Limits, Source, read_source
from ..spec.versions import Specification, detect
from .document import Document
from .registry import run_rules
from .structural import validate_structure


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
    seen: dict[tuple[str, str, str, str], Diagnostic] = {}
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
        "mcpdesc.input.limits",
        "input-too-many-primitives",
        f"{total} tools, resources, resource templates and prompts; the limit is {limits.max_primitives} "
        "(raise it with limits.max_primitives in mcpdesc-docs.yml)",
        "",
    )


def validate_source(source: Source, limits: Limits = DEFAULT_LIMITS) -> ValidationResult:
    too_many = _too_many_primitives(source.data, limits)
    if too_many is not None:
        return ValidationResult(source.name, detect(source.data).specification, [source.place(too_many)], source)
    spec, diagnostics = check_document(source.data)
    placed = sorted((source.place(d) for d in diagnostics), key=Diagnostic.sort_key)
    return ValidationResult(source.name, spec, placed, source)


def validate_file(path: Path, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> ValidationResult:
    """Load and validate one description file. Raises UsageError for I/O problems."""
    display = name or str(path)
    try:
        source = read_source(path, limits=limits, name=display)
    except DescriptionError as exc:
        return ValidationResult(display, None, sorted(exc.diagnostics, key=Diagnostic.sort_key))
    return validate_source(source, limits)


__all__ = ["ValidationResult", "check_document", "validate_file", "validate_source"]
