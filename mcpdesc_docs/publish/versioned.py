"""Versioned publishing (``gh-deploy --version``): each version in a directory of the
branch, the others kept as they are, and the root files that tie them together.

The branch's tree is made in a private index from the branch's own: the directories of the
versions and aliases that stay are kept as the very tree objects they were (their pages do
not change by a byte), everything else at the root is dropped (as a plain ``gh-deploy``
replaces the whole branch), and the new version, its aliases and the root files are added.

An alias is a copy of its version's directory, not a redirect: in git a copy is the same
tree object under a second name, so it costs nothing on the branch, and unlike a page of
redirects it serves every file (the search index, the Markdown twins, llms.txt), keeps a
link's ``#fragment``, and works without script and from ``file://``. Its pages' canonical
links name the version, so search engines see one page, not two.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path

from ..output import write_site
from ..records import record
from .ghpages import PrivateIndex, Published, Target, branch_file, commit_message, commit_tree
from .versions import (
    MAX_VERSIONS_FILE,
    VERSIONS_FILE,
    VERSIONS_PAGE,
    Versions,
    read_versions,
    root_index,
    versions_json,
    versions_page,
)

MAX_ROOT_INDEX = 1024 * 1024


def branch_versions(target: Target) -> Versions:
    """The versions on the branch the deploy builds on (none when it has no versions.json)."""
    return read_versions(
        branch_file(target, VERSIONS_FILE, MAX_VERSIONS_FILE), branch_file(target, "index.html", MAX_ROOT_INDEX)
    )


@record
class VersionedChange:
    """What one versioned deploy does to the branch."""

    versions: Versions
    """The versions as the branch will list them."""
    version: str | None = None
    """The version whose newly built files are given (None: only the list or default changes)."""
    site_name: str = "Documentation"
    description: str = "documentation"
    """Says in the commit message what changed."""


def publish_versioned(
    target: Target,
    site: Mapping[str, bytes] | None,
    change: VersionedChange,
    *,
    message: str | None,
    force: bool,
) -> Published:
    versions = change.versions
    rewritten: set[str] = set()
    if change.version is not None:
        entry = versions.find(change.version)
        if entry is None or entry.version != change.version:
            raise ValueError(f"{change.version!r} is not among the versions to publish")
        rewritten = {entry.version, *entry.aliases}
    keep = versions.names() - rewritten

    root: dict[str, bytes] = {".nojekyll": b"", VERSIONS_FILE: versions_json(versions)}
    if target.cname:
        root["CNAME"] = f"{target.cname}\n".encode()
    if versions.default is not None:
        root["index.html"] = root_index(versions.default)
        root[VERSIONS_PAGE] = versions_page(versions, change.site_name)

    with tempfile.TemporaryDirectory(prefix="mcpdesc-deploy-") as scratch:
        index = PrivateIndex(target.git, Path(scratch))
        if target.parent is not None:
            index.run("read-tree", target.parent)
            dropped = [name for name in _root_names(target) if name not in keep]
            if dropped:
                index.run("rm", "-r", "--cached", "--quiet", "--ignore-unmatch", "--", *dropped)
        files = dict(root)
        if change.version is not None and site is not None:
            files.update({f"{change.version}/{path}": content for path, content in site.items()})
        write_site(files, index.work_tree, mark=False)
        written = sorted({path.split("/", 1)[0] for path in files})
        index.run("add", "--force", "--", *written)
        if change.version is not None:
            version_tree = index.run("write-tree", f"--prefix={change.version}/")
            for alias in sorted(rewritten - {change.version}):
                index.run("read-tree", f"--prefix={alias}/", version_tree)
        if versions.default is not None:
            _root_not_found_page(index, versions.default)
        tree = index.run("write-tree")
    return commit_tree(target, tree, commit_message(target, message, change.description), force=force)


def _root_not_found_page(index: PrivateIndex, default: str) -> None:
    """GitHub Pages answers a missing path with the root's ``404.html``: the default's own
    (the same blob; with the site's address known, its ``<base>`` points into its version,
    so its links work from any depth)."""
    staged = index.run("ls-files", "--stage", "--", f"{default}/404.html")
    if staged:
        mode, blob = staged.split()[:2]
        index.run("update-index", "--add", "--cacheinfo", f"{mode},{blob},404.html")


def _root_names(target: Target) -> list[str]:
    """The names at the root of the branch's tree, as they are (``-z``: no quoting)."""
    listed = target.git.run("ls-tree", "-z", "--name-only", str(target.parent)).stdout
    return [name for name in listed.split("\0") if name]


__all__ = ["VersionedChange", "branch_versions", "publish_versioned"]
