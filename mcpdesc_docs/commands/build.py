"""``mcpdesc-docs build [PATH]``: validate, then render the site and swap it in."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import yaml

from ..build_model import build_site
from ..config import Config, load_config
from ..load import Source
from ..output import check_site_dir, write_site
from ..render import Download, RenderCache, render_site
from ..theme import load_theme
from ..validate import ValidationResult, validate_file
from .validate import report

EXIT_OK = 0
EXIT_INVALID = 1


@dataclass(frozen=True, slots=True)
class BuildOutcome:
    validation: ValidationResult
    files: dict[str, bytes] | None
    """None when validation failed and nothing was rendered."""
    pages: int = 0


def description_downloads(source: Source) -> tuple[Download, ...]:
    """The description as written, and the same data in the other format."""
    name = Path(source.name).name
    stem = name.rsplit(".", 1)[0] if "." in name else name
    original = Download(source.format.upper(), f"description/{name}", source.text.encode("utf-8"))
    if source.format == "yaml":
        # Indented JSON goes through the pure-Python encoder; large descriptions stay compact.
        indent = 2 if len(source.text) < 256 * 1024 else None
        converted = json.dumps(source.data, indent=indent, ensure_ascii=False) + "\n"
        other = Download("JSON", f"description/{stem}.json", converted.encode("utf-8"))
    else:
        converted = yaml.dump(source.data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True)
        other = Download("YAML", f"description/{stem}.yaml", converted.encode("utf-8"))
    return (original, other) if other.path != original.path else (original,)


def protected_paths(config: Config) -> list[Path]:
    """What the site directory must never contain (it is replaced wholesale)."""
    paths = [config.description]
    if config.config_file is not None:
        paths.append(config.config_file)
    if config.theme.custom_dir is not None:
        paths.append(config.theme.custom_dir)
    paths.extend(config.project_dir / css for css in config.extra_css)
    return paths


def render_description(
    config: Config, validation: ValidationResult | None = None, cache: RenderCache | None = None
) -> BuildOutcome:
    """Validate (unless already done) and render in memory; nothing is written."""
    if validation is None:
        validation = validate_file(config.description, name=str(config.description), limits=config.limits)
    if not validation.passes(strict=config.strict) or validation.source is None or validation.specification is None:
        return BuildOutcome(validation, None)
    data = validation.source.data
    assert isinstance(data, dict)  # a valid description is an object
    site = build_site(data, validation.specification)
    files = render_site(site, load_theme(config.theme), config, description_downloads(validation.source), cache)
    return BuildOutcome(validation, files, len(site.pages) + 1)


def run(
    path: str,
    *,
    site_dir: str | None,
    strict: bool,
    output_format: str,
    out: TextIO,
    err: TextIO,
) -> int:
    started = time.perf_counter()
    config = load_config(Path(path), site_dir=Path(site_dir) if site_dir else None, strict=strict)
    check_site_dir(config.site_dir, protected_paths(config))
    validation = validate_file(config.description, name=str(config.description), limits=config.limits)
    report(validation, output_format, out)
    outcome = render_description(config, validation)
    if outcome.files is None:
        err.write(f"mcpdesc-docs: build aborted; {config.site_dir} was left unchanged\n")
        return EXIT_INVALID
    write_site(outcome.files, config.site_dir)
    elapsed = time.perf_counter() - started
    err.write(f"mcpdesc-docs: built {outcome.pages} pages into {config.site_dir} in {elapsed:.2f} s\n")
    return EXIT_OK
