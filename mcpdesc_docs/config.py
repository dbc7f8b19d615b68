"""``mcpdesc-docs.yml`` -> a typed Config; every mistake reported with file:line:column."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from .diagnostics import Diagnostic, error
from .errors import DescriptionError, ProjectError, UsageError
from .resources import available_themes
from .rule_docs import RuleDoc
from .source import pointer as jp
from .source.git_spec import GIT_PREFIX, split_git_spec
from .source.limits import DEFAULT_LIMITS, LIMIT_CEILINGS, Limits, ceiling_reason
from .source.load import Source, read_source
from .validation.validator import known_rule_ids, suppresses

CONFIG_NAMES = ("mcpdesc-docs.yml", "mcpdesc-docs.yaml")
# Configs are small; a generous but far smaller bound than for descriptions.
CONFIG_LIMITS = Limits(max_bytes=1024 * 1024, max_depth=16, max_nodes=10_000)


CONFIG_RULE = "mcpdesc-docs.config"
CONFIG_DOC = RuleDoc(
    summary="mcpdesc-docs.yml holds only known settings, each of its type, and names files that exist.",
    rationale=(
        "The settings decide what is built and how strictly it is checked; a misspelt one would be ignored "
        "silently, so every problem stops the command (exit 2) before anything is written."
    ),
    bad="description: api.mcpdesc.yaml\nsite_nmae: Example API\n",
    good="description: api.mcpdesc.yaml\nsite_name: Example API\n",
    requirements=("mcpdesc-docs configuration (not a format rule)",),
    codes=("unknown-setting", "invalid-setting", "missing-setting", "missing-file"),
)
"""The rule id of every configuration problem (ours: the configuration is not part of the spec)."""


class ConfigError(ProjectError):
    """The configuration file is wrong (exit 2); every problem is a located diagnostic."""


@dataclass(frozen=True, slots=True)
class ThemeConfig:
    name: str = "default"
    custom_dir: Path | None = None
    """A directory whose templates and assets override the theme's."""


@dataclass(frozen=True, slots=True)
class Config:
    description: Path
    """The description file to document."""
    site_dir: Path
    config_file: Path | None = None
    """None when PATH named a description directly and defaults apply."""
    site_name: str | None = None
    """Overrides the server's title in page headers."""
    site_url: str | None = None
    """The published address (https://...); only used for canonical links and the sitemap."""
    theme: ThemeConfig = field(default_factory=ThemeConfig)
    repo_url: str | None = None
    copyright: str | None = None
    strict: bool = False
    extra_css: tuple[str, ...] = ()
    """Stylesheets relative to the config file, copied into the site and linked from every page."""
    cname: str | None = None
    """A custom domain for GitHub Pages (written to CNAME by gh-deploy)."""
    limits: Limits = DEFAULT_LIMITS
    """Bounds on the description (size, depth, values, string length, primitives)."""
    suppress: tuple[str, ...] = ()
    """Rule ids, or dotted prefixes of them, whose warnings are not reported (errors always are)."""
    jobs: int | None = None
    """Worker processes ``build`` may render pages in (None: as many as the usable cores;
    1: in its own process)."""
    previous: str | None = None
    """The description to list changes since (``changes.html``): a file (made relative to
    the config's directory here), or ``git:REF:PATH``, read from the project's repository."""

    @property
    def project_dir(self) -> Path:
        return (self.config_file or self.description).parent


@dataclass(slots=True)
class _Problems:
    source: Source
    found: list[Diagnostic] = field(default_factory=list)

    def add(self, pointer: str, message: str, code: str = "invalid-setting") -> None:
        self.found.append(self.source.place(error(CONFIG_RULE, code, message, pointer)))

    def fail(self) -> ConfigError:
        return ConfigError(self.found)


def find_config(path: Path) -> Path | None:
    """The config file PATH names, or None when PATH is a description file."""
    if path.is_dir():
        for name in CONFIG_NAMES:
            candidate = path / name
            if candidate.is_file():
                return candidate
        raise UsageError(f"{path}: no {CONFIG_NAMES[0]} in this directory")
    if path.name in CONFIG_NAMES:
        return path
    return None


def load_config(path: Path, *, site_dir: Path | None = None, strict: bool | None = None) -> Config:
    """Read the configuration PATH points at (see the CLI contract); command-line options win."""
    if not path.exists():
        raise UsageError(f"{path}: no such file or directory")
    config_file = find_config(path)
    if config_file is None:
        config = Config(description=path, site_dir=path.parent / "site")
    else:
        config = _read_config_file(config_file)
    if site_dir is not None:
        config = replace(config, site_dir=site_dir)
    if strict:
        config = replace(config, strict=True)
    return config


def _read_config_file(config_file: Path) -> Config:
    try:
        source = read_source(config_file, limits=CONFIG_LIMITS, name=str(config_file))
    except DescriptionError as exc:
        raise ConfigError(exc.diagnostics) from None
    problems = _Problems(source)
    data = source.data
    if not isinstance(data, dict):
        problems.add("", "the configuration must be a mapping of settings")
        raise problems.fail()
    base = config_file.parent
    values: dict[str, Any] = {}
    for key, value in data.items():
        reader = _READERS.get(key)
        if reader is None:
            known = ", ".join(sorted(_READERS))
            problems.add(jp.join("", key), f"unknown setting {key!r} (known settings: {known})", "unknown-setting")
            continue
        converted = reader(value, jp.join("", key), base, problems)
        if converted is not None:
            values[key] = converted
    if "description" not in values and "description" not in data:
        problems.add("", "missing setting 'description' (the path of the description file)", "missing-setting")
    if problems.found:
        raise problems.fail()
    description: Path = values.pop("description")
    if not description.is_file():
        problems.add("/description", f"description file {description} does not exist", "missing-file")
        raise problems.fail()
    site_dir_value: Path = values.pop("site_dir", base / "site")
    return Config(description=description, site_dir=site_dir_value, config_file=config_file, **values)


_Reader = Callable[[object, str, Path, _Problems], Any]


def _string(value: object, at: str, base: Path, problems: _Problems) -> str | None:
    if isinstance(value, str) and value.strip():
        return value
    problems.add(at, f"{jp.split(at)[-1]!r} must be a non-empty string")
    return None


def _boolean(value: object, at: str, base: Path, problems: _Problems) -> bool | None:
    if isinstance(value, bool):
        return value
    problems.add(at, f"{jp.split(at)[-1]!r} must be true or false")
    return None


def _path(value: object, at: str, base: Path, problems: _Problems) -> Path | None:
    text = _string(value, at, base, problems)
    return None if text is None else (base / text)


def _http_url(value: object, at: str, base: Path, problems: _Problems) -> str | None:
    text = _string(value, at, base, problems)
    if text is None:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        problems.add(at, f"{jp.split(at)[-1]!r} must be an http:// or https:// URL")
        return None
    return text


def _site_url(value: object, at: str, base: Path, problems: _Problems) -> str | None:
    text = _http_url(value, at, base, problems)
    # Canonical links are built by appending page paths.
    return None if text is None else text.rstrip("/") + "/"


_DOMAIN_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def is_domain_name(text: str) -> bool:
    """A DNS name of two or more ASCII labels (IDNs in their xn-- form), as GitHub Pages takes."""
    labels = text.split(".")
    return len(text) <= 253 and len(labels) >= 2 and all(_DOMAIN_LABEL.fullmatch(label) for label in labels)


def _cname(value: object, at: str, base: Path, problems: _Problems) -> str | None:
    text = _string(value, at, base, problems)
    if text is None:
        return None
    if not is_domain_name(text):
        problems.add(at, "'cname' must be a domain name such as docs.example.com")
        return None
    return text


MAX_JOBS = 256


def _jobs(value: object, at: str, base: Path, problems: _Problems) -> int | None:
    if value == "auto":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_JOBS:
        return value
    problems.add(at, f"'jobs' must be auto or a whole number from 1 to {MAX_JOBS}")
    return None


def _previous(value: object, at: str, base: Path, problems: _Problems) -> str | None:
    text = _string(value, at, base, problems)
    if text is None:
        return None
    if text.startswith(GIT_PREFIX):
        if split_git_spec(text) is None:
            problems.add(at, "'previous' must be a file or git:REF:PATH (such as git:v1.2.0:server.mcpdesc.yaml)")
            return None
        return text
    return str(base / text)


def _relative_files(value: object, at: str, base: Path, problems: _Problems) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        problems.add(at, "'extra_css' must be a list of paths relative to the config file")
        return None
    paths: list[str] = []
    for index, item in enumerate(value):
        item_at = jp.join(at, index)
        if not isinstance(item, str) or not item:
            problems.add(item_at, "each 'extra_css' entry must be a non-empty string")
            continue
        relative = PurePosixPath(item)
        # Nothing may load from another host, and nothing outside the project may be copied.
        if urlsplit(item).scheme or relative.is_absolute() or ".." in relative.parts:
            problems.add(item_at, f"{item!r} must be a path inside the project, not a URL or a path leaving it")
            continue
        if relative.suffix.lower() != ".css" or relative.parts[0] == "assets":
            # Copied to the same path in the site: a stylesheet may not replace a page,
            # the search index or the theme's own assets.
            problems.add(item_at, f"{item!r} must be a .css file outside assets/ (the theme's own)")
            continue
        if not (base / relative).is_file():
            problems.add(item_at, f"{item!r} does not exist", "missing-file")
            continue
        if not (base / relative).resolve().is_relative_to(base.resolve()):
            problems.add(item_at, f"{item!r} leads outside the project (through a symbolic link)")
            continue
        paths.append(relative.as_posix())
    return tuple(paths)


def _theme(value: object, at: str, base: Path, problems: _Problems) -> ThemeConfig | None:
    shorthand = isinstance(value, str)  # `theme: default` names the theme
    if isinstance(value, str):
        value = {"name": value}
    if not isinstance(value, Mapping):
        problems.add(at, "'theme' must be a theme name or a mapping with 'name' and 'custom_dir'")
        return None
    name = "default"
    custom_dir: Path | None = None
    for key, item in value.items():
        item_at = at if shorthand else jp.join(at, key)
        if key == "name":
            name = _string(item, item_at, base, problems) or name
            if name not in available_themes():
                problems.add(item_at, f"unknown theme {name!r} (available: {', '.join(available_themes())})")
        elif key == "custom_dir":
            custom_dir = _path(item, item_at, base, problems)
            if custom_dir is not None and not custom_dir.is_dir():
                problems.add(item_at, f"custom_dir {custom_dir} is not a directory")
        else:
            problems.add(item_at, f"unknown theme setting {key!r} (known: name, custom_dir)", "unknown-setting")
    return ThemeConfig(name=name, custom_dir=custom_dir)


def _limits(value: object, at: str, base: Path, problems: _Problems) -> Limits | None:
    if not isinstance(value, Mapping):
        problems.add(at, f"'limits' must be a mapping of {', '.join(Limits.field_names())}")
        return None
    values: dict[str, int] = {}
    for key, item in value.items():
        item_at = jp.join(at, key)
        if key not in Limits.field_names():
            problems.add(
                item_at, f"unknown limit {key!r} (known: {', '.join(Limits.field_names())})", "unknown-setting"
            )
        elif isinstance(item, bool) or not isinstance(item, int) or item < 1:
            problems.add(item_at, f"limit {key!r} must be a positive whole number")
        elif item > LIMIT_CEILINGS[key]:
            problems.add(item_at, f"limit {key!r} can be at most {LIMIT_CEILINGS[key]} ({ceiling_reason(key)})")
        else:
            values[key] = item
    return replace(DEFAULT_LIMITS, **values)


def _suppress(value: object, at: str, base: Path, problems: _Problems) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        problems.add(at, "'suppress' must be a list of rule ids, such as [mcpdesc.security.scope-catalogue, mcp.meta]")
        return None
    known = known_rule_ids()
    entries: list[str] = []
    for index, item in enumerate(value):
        item_at = jp.join(at, index)
        if not isinstance(item, str) or not item:
            problems.add(item_at, "each 'suppress' entry must be a rule id, or a dotted prefix of rule ids")
        elif not any(suppresses(item, rule_id) for rule_id in known):
            problems.add(
                item_at,
                f"unknown rule id {item!r}: no rule is named so or starts with {item + '.'!r}{_closest(item, known)}",
            )
        else:
            entries.append(item)
    return tuple(entries)


def _closest(entry: str, known: frozenset[str]) -> str:
    """A hint for a misspelt entry; entries may be prefixes, so it is matched against those too."""
    parts = [rule_id.split(".") for rule_id in known]
    spellings = {".".join(split[:end]) for split in parts for end in range(1, len(split) + 1)}
    close = difflib.get_close_matches(entry, sorted(spellings), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


_READERS: dict[str, _Reader] = {
    "description": _path,
    "site_name": _string,
    "site_url": _site_url,
    "site_dir": _path,
    "theme": _theme,
    "repo_url": _http_url,
    "copyright": _string,
    "strict": _boolean,
    "extra_css": _relative_files,
    "cname": _cname,
    "limits": _limits,
    "suppress": _suppress,
    "previous": _previous,
    "jobs": _jobs,
}
