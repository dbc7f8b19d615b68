"""``mcpdesc-docs.yml`` -> a typed Config; every mistake reported with file:line:column."""

from __future__ import annotations

import difflib
import glob
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from .diagnostics import Diagnostic, error
from .errors import DescriptionError, ProjectError, UsageError
from .records import record
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


@record
class PortalServer:
    """One description of a portal (``descriptions:``), as the config names it."""

    path: Path
    """The description file (the config's directory joined with what the config says)."""
    slug: str
    """The directory of its pages in the portal: ``[a-z0-9-]``, unique, not reserved."""
    name: str
    """The file as the config names it, relative to the config's directory (POSIX): what
    pages and reports call it, the same whatever the working directory."""
    group: str | None = None
    """A heading of the catalogue that lists it."""


RESERVED_SLUGS = frozenset(
    {"assets", "search", "tags", "capabilities", "groups", "rejected", "description", "servers", "shards"}
)
"""Top-level names of a portal that are not servers' directories."""
_SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")
_GLOB_MAGIC = re.compile(r"[*?\[]")
_DESCRIPTION_SUFFIX = re.compile(r"(?:\.mcpdesc)?\.(?:ya?ml|json)$", re.IGNORECASE)


@record
class ThemeConfig:
    name: str = "default"
    custom_dir: Path | None = None
    """A directory whose templates and assets override the theme's."""


@record
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
    portal_title: str | None = None
    """Not a setting: the portal's title, when this config renders one server of a portal
    (its pages link to the portal's home)."""
    descriptions: tuple[PortalServer, ...] = ()
    """A portal's servers (``descriptions:``), in the config's order; empty for a project
    of one description. A portal's ``description`` is its config file (each server is
    rendered with a copy of this config naming its own)."""

    @property
    def is_portal(self) -> bool:
        return bool(self.descriptions)

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
    if "descriptions" in data:
        return _portal_config(config_file, data, values, problems)
    if "description" not in values and "description" not in data:
        problems.add(
            "",
            "missing setting 'description' (the path of the description file) or 'descriptions' (a portal's)",
            "missing-setting",
        )
    if problems.found:
        raise problems.fail()
    description: Path = values.pop("description")
    if not description.is_file():
        problems.add("/description", f"description file {description} does not exist", "missing-file")
        raise problems.fail()
    site_dir_value: Path = values.pop("site_dir", base / "site")
    return Config(description=description, site_dir=site_dir_value, config_file=config_file, **values)


def _portal_config(config_file: Path, data: dict[str, Any], values: dict[str, Any], problems: _Problems) -> Config:
    """A portal's config: ``descriptions`` instead of ``description``, and no ``previous``
    (changes are listed per description, by its own project)."""
    for single in ("description", "previous"):
        if single in data:
            problems.add(
                jp.join("", single), f"'{single}' and 'descriptions' are exclusive: a portal names its descriptions"
            )
    if problems.found:
        raise problems.fail()
    site_dir_value: Path = values.pop("site_dir", config_file.parent / "site")
    servers: tuple[PortalServer, ...] = values.pop("descriptions")
    return Config(
        description=config_file, site_dir=site_dir_value, config_file=config_file, descriptions=servers, **values
    )


def hyphenated(text: str, longest: int) -> str:
    """``text`` lower-cased, as ASCII letters and digits with each run of anything else one
    hyphen, at most ``longest`` characters, never empty: a name that is safe as a file or
    directory name (a portal's slugs, the files ``describe --servers`` writes)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:longest].strip("-") or "server"


def default_slug(name: str) -> str:
    """``Team.Helpdesk.mcpdesc.yaml`` -> ``team-helpdesk``: the file name without its
    description extension, lower-cased, each run of other characters one hyphen."""
    return hyphenated(_DESCRIPTION_SUFFIX.sub("", PurePosixPath(name).name), 64)


def _descriptions(value: object, at: str, base: Path, problems: _Problems) -> tuple[PortalServer, ...] | None:
    """Each item a path or glob (relative to the config, expanded sorted), or a mapping with
    ``path`` and optionally ``slug`` and ``group``."""
    if not isinstance(value, list) or not value:
        problems.add(at, "'descriptions' must be a non-empty list of paths or globs (or mappings with 'path')")
        return None
    servers: list[PortalServer] = []
    slugs: dict[str, str] = {}
    seen: set[Path] = set()
    for index, item in enumerate(value):
        item_at = jp.join(at, index)
        for server, slug_at in _description_item(item, item_at, base, problems):
            resolved = server.path.resolve()
            if resolved in seen:  # named twice (two globs): documented once, as first named
                continue
            seen.add(resolved)
            if server.slug in slugs:
                problems.add(
                    slug_at,
                    f"slug {server.slug!r} of {server.name} is also that of {slugs[server.slug]}; "
                    "give one of them another slug",
                )
                continue
            slugs[server.slug] = server.name
            servers.append(server)
    return tuple(servers)


def _description_item(item: object, at: str, base: Path, problems: _Problems) -> list[tuple[PortalServer, str]]:
    """The servers one item of ``descriptions`` names, each with where its slug comes from."""
    if isinstance(item, str):
        return [(server, at) for server in _expand(item, at, base, problems, None)]
    if not isinstance(item, Mapping):
        problems.add(at, "each 'descriptions' item must be a path, a glob, or a mapping with 'path'")
        return []
    unknown = sorted(str(key) for key in item if key not in ("path", "slug", "group"))
    for key in unknown:
        problems.add(jp.join(at, key), f"unknown setting {key!r} (known: path, slug, group)", "unknown-setting")
    path = item.get("path")
    if not isinstance(path, str) or not path.strip():
        problems.add(at if "path" not in item else jp.join(at, "path"), "'path' must be a non-empty string")
        return []
    group = _string(item["group"], jp.join(at, "group"), base, problems) if "group" in item else None
    slug = _string(item["slug"], jp.join(at, "slug"), base, problems) if "slug" in item else None
    found = _expand(path, jp.join(at, "path"), base, problems, group)
    if slug is None:
        return [(server, jp.join(at, "path")) for server in found]
    if len(found) > 1:
        problems.add(jp.join(at, "slug"), f"'slug' names one description, but {path!r} matches {len(found)}")
        return []
    return [(replace(server, slug=slug), jp.join(at, "slug")) for server in found if _valid_slug(slug, at, problems)]


def valid_slug(text: str) -> bool:
    """Whether ``text`` may name a server's directory (``[a-z0-9-]``, at most 64)."""
    return _SLUG.fullmatch(text) is not None


def _valid_slug(slug: str, at: str, problems: _Problems) -> bool:
    if not valid_slug(slug):
        problems.add(jp.join(at, "slug"), f"slug {slug!r} must be 1-64 of a-z, 0-9 and '-', not starting with '-'")
        return False
    if slug in RESERVED_SLUGS:
        problems.add(jp.join(at, "slug"), f"slug {slug!r} is reserved (the portal's own {slug}/)")
        return False
    return True


def _expand(text: str, at: str, base: Path, problems: _Problems, group: str | None) -> list[PortalServer]:
    """A path, or a glob (``*``, ``?``, ``[``, ``**``) expanded in sorted order."""
    if _GLOB_MAGIC.search(text):
        matches = glob.glob(text, root_dir=base, recursive=True)
        # Not a project's config (``*.yml`` matches it), nor what a build wrote.
        found = (n for n in matches if Path(n).name not in CONFIG_NAMES and (base / n).is_file())
        names = sorted(n for n in found if not _in_a_site(base, n))
        if not names:
            problems.add(at, f"{text!r} matches no description file", "missing-file")
    elif (base / text).is_file():
        names = [text]
    else:
        problems.add(at, f"description file {base / text} does not exist", "missing-file")
        names = []
    servers = []
    for name in names:
        posix = PurePosixPath(Path(name).as_posix()).as_posix()
        slug = default_slug(posix)
        if slug in RESERVED_SLUGS:
            problems.add(at, f"{posix!r} would be documented under {slug}/, a reserved name; give it a 'slug'")
            continue
        servers.append(PortalServer(base / name, slug, posix, group))
    return servers


SITE_MARKER = ".mcpdesc-docs"
"""``output.MARKER`` (a later stage): the file every site a build writes holds."""


def _in_a_site(base: Path, name: str) -> bool:
    """Whether a glob's match lies in a site (or shard) a build wrote: its description
    downloads are not descriptions of the portal (``**/*.yaml`` would find them)."""
    parents = PurePosixPath(Path(name).as_posix()).parents
    return any((base / parent / SITE_MARKER).is_file() for parent in parents if str(parent) != ".")


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
    "descriptions": _descriptions,
}
