"""The versions of a versioned site, as mike keeps them: ``versions.json`` at the branch's
root (a list of ``{"version", "title", "aliases"}``, newest first), so that mike itself and
the version selectors of Material for MkDocs and Zensical read our branches, and we read
theirs.

Versions sort as mike sorts them (``verspec``'s loose versions, mike's own library):
``10.0`` after ``9.1``, names such as ``dev`` below every number. An alias names one
version at a time; giving it to another version moves it (mike asks for
``--update-aliases``; here the command says so instead). The default, which the root
``index.html`` redirects to, is read back from that page, so a branch mike made keeps its
default too.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import escape
from urllib.parse import quote

from verspec.loose import LooseVersion

from ..errors import UsageError
from ..records import record
from ..render.version_menu import VersionEntry

VERSIONS_FILE = "versions.json"
VERSIONS_PAGE = "versions.html"
MAX_VERSIONS_FILE = 1024 * 1024
"""The branch is no more trusted than a description: a larger versions.json is refused."""
MAX_VERSIONS = 1000
RESERVED = frozenset({"index.html", "404.html", VERSIONS_FILE, VERSIONS_PAGE, "CNAME", ".nojekyll"})
"""Names at the branch's root that are files of ours, never a version's directory."""
# What --version and --alias take: a tag-like name that is one path segment and needs no
# quoting in a URL or a shell (mike takes more; such names on a branch are kept as they are).
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")
# Names read from a branch: mike's rule (one non-empty path segment, not . or ..) and no
# control characters, so that each is a directory of the tree and a printable label.
_BRANCH_NAME = re.compile(r"[^/\\\x00-\x1f\x7f]{1,200}")
# The root page's redirect, as we write it (``url=V/index.html``) or mike does (``url=V/``).
_REFRESH = re.compile(
    r"""<meta\s+http-equiv=["']?refresh["']?\s+content=["']\s*\d+\s*;\s*url=([^"'<>]*?)/(?:index\.html)?["']""",
    re.IGNORECASE,
)


def check_name(name: str, kind: str) -> str:
    """``name`` if it may be a version or an alias given on the command line (UsageError if not)."""
    if not _PLAIN_NAME.fullmatch(name) or name in RESERVED or name.lower() == "cname":
        raise UsageError(
            f"{kind} {name[:100]!r} is not a plain name: use letters, digits and . _ + - "
            "(up to 100, starting with a letter or digit), as in 2.0, v1.4.2 or latest"
        )
    return name


def _sort_key(entry: VersionEntry) -> LooseVersion:
    return LooseVersion(entry.version)


def newest_first(entries: list[VersionEntry]) -> tuple[VersionEntry, ...]:
    return tuple(sorted(entries, key=_sort_key, reverse=True))


@record
class Versions:
    """What ``versions.json`` lists, and the default the root page redirects to."""

    entries: tuple[VersionEntry, ...] = ()
    default: str | None = None
    """A version or an alias; None when the branch has no redirect of ours or mike's."""
    properties: tuple[tuple[str, str], ...] = ()
    """(version, JSON text) of the ``properties`` mike 2 lets a version carry: not ours to
    read, kept as they were for the versions that stay."""

    def find(self, name: str) -> VersionEntry | None:
        """The version ``name`` is, or is an alias of."""
        return next((e for e in self.entries if name == e.version or name in e.aliases), None)

    def names(self) -> set[str]:
        """Every directory the versions own: each version and each alias."""
        return {name for e in self.entries for name in (e.version, *e.aliases)}

    def deploy(self, version: str, aliases: tuple[str, ...], title: str | None) -> Versions:
        """With ``version`` published (again) under ``aliases``, which move to it from any
        other version. A redeployed version keeps its aliases and, without ``title``, its title."""
        if version in {a for e in self.entries for a in e.aliases}:
            owner = self.find(version)
            raise UsageError(f"{version!r} is an alias of {owner.version if owner else '?'!r}, not a version")
        for alias in aliases:
            if alias == version:
                raise UsageError(f"{alias!r} cannot be both the version and one of its aliases")
            if any(e.version == alias for e in self.entries):
                raise UsageError(f"{alias!r} is a version already; it cannot be an alias")
        aliases = tuple(dict.fromkeys(aliases))  # --alias latest --alias latest: once
        moved = set(aliases)
        existing = next((e for e in self.entries if e.version == version), None)
        others = [
            replace(e, aliases=tuple(a for a in e.aliases if a not in moved)) for e in self.entries if e is not existing
        ]
        if existing is None:
            entry = VersionEntry(version, title or version, tuple(aliases))
        else:
            kept = existing.aliases + tuple(a for a in aliases if a not in existing.aliases)
            entry = VersionEntry(version, title or existing.title, kept)
        if existing is None and len(others) >= MAX_VERSIONS:
            raise UsageError(f"the branch holds {MAX_VERSIONS} versions already; delete some first")
        default = self.default if self.default is not None else (aliases[0] if aliases else version)
        return Versions(newest_first([*others, entry]), default, self.properties)

    def delete(self, version: str) -> Versions:
        """Without ``version`` and its aliases; a default that pointed at it falls to the
        newest version left."""
        entry = next((e for e in self.entries if e.version == version), None)
        if entry is None:
            alias_of = self.find(version)
            hint = f" (it is an alias of {alias_of.version!r})" if alias_of else ""
            raise UsageError(f"there is no version {version!r} on the branch{hint}")
        left = tuple(e for e in self.entries if e is not entry)
        default = self.default
        if default is None or default == version or default in entry.aliases:
            default = left[0].version if left else None
        return Versions(left, default, tuple(p for p in self.properties if p[0] != version))

    def with_default(self, name: str) -> Versions:
        if self.find(name) is None:
            raise UsageError(f"there is no version or alias {name!r} on the branch; deploy it first")
        return replace(self, default=name)


def versions_json(versions: Versions) -> bytes:
    """The file mike writes: the versions newest first, each with its title and aliases."""
    properties = dict(versions.properties)
    listed = [
        {"version": e.version, "title": e.title, "aliases": list(e.aliases)}
        | ({"properties": json.loads(properties[e.version])} if e.version in properties else {})
        for e in versions.entries
    ]
    return (json.dumps(listed, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def read_versions(text: bytes | None, root_index: bytes | None) -> Versions:
    """The versions a branch lists (none without ``versions.json``), and its default, read
    from the root page's redirect when it names one of them. UsageError when the file is
    not mike's format: nothing is published over a list that cannot be kept."""
    if text is None:
        return Versions()
    if len(text) > MAX_VERSIONS_FILE:
        raise UsageError(f"{VERSIONS_FILE} on the branch is over {MAX_VERSIONS_FILE} bytes; it is not read")
    try:
        listed = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{VERSIONS_FILE} on the branch is not JSON: {str(exc)[:120]}") from None
    if not isinstance(listed, list) or len(listed) > MAX_VERSIONS:
        raise UsageError(f"{VERSIONS_FILE} on the branch is not a list of up to {MAX_VERSIONS} versions")
    entries = [_entry(item, index) for index, item in enumerate(listed)]
    properties = tuple(
        (str(item["version"]), json.dumps(item["properties"]))
        for item in listed
        if isinstance(item, dict) and "properties" in item
    )
    versions = Versions(newest_first(entries), properties=properties)
    seen: set[str] = set()
    for entry in versions.entries:
        for name in (entry.version, *entry.aliases):
            if name in seen:
                raise UsageError(f"{VERSIONS_FILE} on the branch names {name[:100]!r} twice")
            seen.add(name)
    return replace(versions, default=_redirect_target(root_index, versions))


def _entry(item: object, index: int) -> VersionEntry:
    where = f"{VERSIONS_FILE} on the branch, entry {index}"
    if not isinstance(item, dict):
        raise UsageError(f"{where} is not an object")
    version, title, aliases = item.get("version"), item.get("title", item.get("version")), item.get("aliases", [])
    if not isinstance(version, str) or not _is_branch_name(version):
        raise UsageError(f"{where}: 'version' is not a directory name")
    if not isinstance(title, str) or len(title) > 200:
        raise UsageError(f"{where}: 'title' is not a string of up to 200 characters")
    if not isinstance(aliases, list) or not all(isinstance(a, str) and _is_branch_name(a) for a in aliases):
        raise UsageError(f"{where}: 'aliases' is not a list of directory names")
    return VersionEntry(version, title, tuple(aliases))


def _is_branch_name(name: str) -> bool:
    return bool(_BRANCH_NAME.fullmatch(name)) and name not in {".", ".."} and name not in RESERVED


def _redirect_target(root_index: bytes | None, versions: Versions) -> str | None:
    if root_index is None:
        return None
    match = _REFRESH.search(root_index[:65536].decode("utf-8", "replace"))
    if match is None:
        return None
    target = match[1].removeprefix("./")
    return target if versions.find(target) is not None else None


# The pages at the branch's root are written here rather than by the theme: they belong to
# the branch, not to one version's build. Same policy as the theme's pages: no script, no
# inline style, nothing from another host.
_CSP = (
    "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'none'"
)


def _page(title: str, head: str, body: str) -> bytes:
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        f"{head}<title>{escape(title)}</title>\n</head>\n<body>\n{body}</body>\n</html>\n"
    ).encode()


def _href(name: str, file: str = "index.html") -> str:
    """A link to a file of version (or alias) ``name``: ``index.html`` is named, as every
    link of the site names it, so that the link works from ``file://`` too."""
    return escape(quote(name, safe="") + "/" + file)


def _icon(name: str) -> str:
    # Without one, browsers ask for /favicon.ico, which the branch does not have.
    return f'<link rel="icon" href="{_href(name, "assets/favicon.svg")}" type="image/svg+xml">\n'


def root_index(default: str) -> bytes:
    """The branch's ``index.html``: a redirect to the default that needs no script, and a
    plain link for a browser that does not follow it."""
    href = _href(default)
    return _page(
        "Redirecting",
        f'<meta http-equiv="refresh" content="0; url={href}">\n<link rel="canonical" href="{href}">\n' + _icon(default),
        f'<p>This documentation is at <a href="{href}">{escape(default)}</a>'
        f' (<a href="{VERSIONS_PAGE}">all versions</a>).</p>\n',
    )


def versions_page(versions: Versions, site_name: str) -> bytes:
    """``versions.html``: every version published, always current (every deploy rewrites it),
    which the version menu of each page links to."""
    items = "".join(
        f'<li><a href="{_href(e.version)}">{escape(e.title)}</a>'
        + (f" ({', '.join(escape(a) for a in e.aliases)})" if e.aliases else "")
        + ("</li>\n")
        for e in versions.entries
    )
    # Dressed as the default version's pages are (their stylesheet and icon), so that the
    # browser asks for nothing the branch lacks.
    stylesheet = (
        f'<link rel="stylesheet" href="{_href(versions.default, "assets/mcpdesc.css")}">\n{_icon(versions.default)}'
        if versions.default
        else ""
    )
    title = f"{site_name}: versions"
    return _page(
        title,
        stylesheet,
        f'<main class="content versions-page">\n<h1>{escape(title)}</h1>\n<ul>\n{items}</ul>\n</main>\n',
    )


__all__ = [
    "RESERVED",
    "VERSIONS_FILE",
    "VERSIONS_PAGE",
    "Versions",
    "check_name",
    "newest_first",
    "read_versions",
    "root_index",
    "versions_json",
    "versions_page",
]
