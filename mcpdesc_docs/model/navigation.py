"""The sidebar and the reading order, computed once per build.

Small sites list every page in every sidebar. Large ones (gateways describe thousands of
tools) would then write a sidebar as long as the site into every page, which makes the
build quadratic; above ``FULL_LIMIT`` pages the sidebar shows every group's heading and,
in the current page's group, a window of neighbours with links to the full lists (tag
pages and the overview's catalogue) for the rest. Group headings are windowed the same
way, around the current page's group (or tag page's): a description may declare as many
tags as tools, and every page listing every tag is quadratic too.
"""

from __future__ import annotations

from ..kinds import BY_NAME, KIND_NAMES
from ..records import record
from .site import Page, Site, Tag

FULL_LIMIT = 150
"""Sites with at most this many primitive pages list all of them in every sidebar."""
WINDOW = 12
"""Neighbours shown on each side of the current page in a compact sidebar."""
GROUP_WINDOW = 12
"""Groups (tag headings) shown on each side of the current one in a compact sidebar."""


@record
class NavGroup:
    tag: Tag | None
    href: str
    """Where the whole group is listed (its tag page, or the overview's catalogue)."""
    pages: tuple[Page, ...]
    scope_attribute: str
    """The union of the pages' scopes (for the protocol-version view of a collapsed group)."""


@record
class NavGroupView:
    group: NavGroup
    shown: tuple[Page, ...]
    more_before: int
    more_after: int

    @property
    def tag(self) -> Tag | None:
        return self.group.tag

    @property
    def href(self) -> str:
        return self.group.href

    @property
    def collapsed(self) -> bool:
        return not self.shown

    @property
    def scope_attribute(self) -> str:
        return self.group.scope_attribute


@record
class NavKindView:
    kind: str
    title: str
    groups: tuple[NavGroupView, ...]
    groups_before: int = 0
    """Groups left out before ``groups`` (compact sidebars only)."""
    groups_after: int = 0
    href: str = ""
    """Where every group of the kind is listed: the overview's catalogue."""


class Navigation:
    def __init__(self, site: Site) -> None:
        self.compact = len(site.pages) > FULL_LIMIT
        self.kinds: list[tuple[str, tuple[NavGroup, ...]]] = []
        for kind in KIND_NAMES:
            groups = tuple(_groups(site, kind))
            if groups:
                self.kinds.append((kind, groups))
        self.order: tuple[Page, ...] = tuple(
            page for _, groups in self.kinds for group in groups for page in group.pages
        )
        self._position = {page.path: index for index, page in enumerate(self.order)}
        self._groups_by_kind = dict(self.kinds)
        # Compared by path: pages are large values, and equality would compare them deeply.
        self._place = {
            page.path: (kind, group_index, index)
            for kind, groups in self.kinds
            for group_index, group in enumerate(groups)
            for index, page in enumerate(group.pages)
        }
        self._tag_group = {
            (kind, group.tag.name): group_index
            for kind, groups in self.kinds
            for group_index, group in enumerate(groups)
            if group.tag is not None
        }
        self._full = self._views(None) if not self.compact else None

    def neighbours(self, page: Page | None) -> tuple[Page | None, Page | None]:
        index = self._position.get(page.path) if page is not None else None
        if index is None:
            return None, None
        previous = self.order[index - 1] if index > 0 else None
        following = self.order[index + 1] if index + 1 < len(self.order) else None
        return previous, following

    def listed(self, page: Page) -> tuple[Page, ...]:
        """The pages the sidebar of ``page`` lists by name, in order: the entries of
        ``view(page)``, without making the view (serve asks this of every page)."""
        if not self.compact:
            return self.order
        place = self._place.get(page.path)
        if place is None:
            return ()
        kind, group_index, at = place
        pages = self._groups_by_kind[kind][group_index].pages
        return pages[max(0, at - WINDOW) : at + WINDOW + 1]

    def view(self, current: Page | None, tag: Tag | None = None) -> tuple[NavKindView, ...]:
        """The sidebar of a page (``current``), of a tag page (``tag``) or of another page."""
        if self._full is not None:
            return self._full
        return self._views(current, tag)

    def _views(self, current: Page | None, tag: Tag | None = None) -> tuple[NavKindView, ...]:
        views = []
        place = self._place.get(current.path) if current is not None else None
        for kind, groups in self.kinds:
            if not self.compact:
                full = tuple(NavGroupView(group, group.pages, 0, 0) for group in groups)
                views.append(NavKindView(kind, BY_NAME[kind].title, full))
                continue
            if place is not None and place[0] == kind:
                centre = place[1]
            else:
                centre = self._tag_group.get((kind, tag.name), 0) if tag is not None else 0
            first, end = max(0, centre - GROUP_WINDOW), min(len(groups), centre + GROUP_WINDOW + 1)
            group_views = []
            for group_index in range(first, end):
                group = groups[group_index]
                if place is None or place[:2] != (kind, group_index):
                    group_views.append(NavGroupView(group, (), 0, 0))
                    continue
                at = place[2]
                start, stop = max(0, at - WINDOW), min(len(group.pages), at + WINDOW + 1)
                group_views.append(NavGroupView(group, group.pages[start:stop], start, len(group.pages) - stop))
            catalogue = f"index.html#{BY_NAME[kind].directory}"
            views.append(
                NavKindView(kind, BY_NAME[kind].title, tuple(group_views), first, len(groups) - end, catalogue)
            )
        return tuple(views)


def _groups(site: Site, kind: str) -> list[NavGroup]:
    """A kind's pages grouped by their first tag, in the catalogue's order, deprecated last."""
    pages = site.pages_of(kind)
    catalogue = f"index.html#{BY_NAME[kind].directory}"
    if not pages:
        return []
    if not site.tags:
        return [_group(None, catalogue, pages)]
    first_tag: dict[str, list[Page]] = {}
    rest: list[Page] = []
    declared = {tag.name for tag in site.tags}
    for page in pages:
        tag = page.tag_names[0] if page.tag_names else None
        if tag in declared:
            first_tag.setdefault(tag, []).append(page)
        else:
            rest.append(page)
    groups = [_group(tag, tag.path, first_tag[tag.name]) for tag in site.tags if tag.name in first_tag]
    if rest:
        groups.append(_group(None, catalogue, rest))
    return groups


def _group(tag: Tag | None, href: str, pages: list[Page] | tuple[Page, ...]) -> NavGroup:
    versions = sorted({v for page in pages for v in page.scope.versions})
    return NavGroup(tag, href, tuple(pages), " ".join(versions))
