"""The sidebar's model: what ``Navigation.listed`` says a page's sidebar lists is what its
view shows (serve compares pages by it, so a difference would serve stale sidebars)."""

from __future__ import annotations

import pytest
import yaml

from mcpdesc_docs.model.builder import build_site
from mcpdesc_docs.model.navigation import FULL_LIMIT, WINDOW, Navigation
from mcpdesc_docs.validation.validator import check_document


def _site(tools: int, tags: int) -> Navigation:
    names = [f"tag{t}" for t in range(tags)]
    data = {
        "mcpdesc": "0.9.0",
        "info": {"name": "t", "version": "1"},
        "protocolVersions": ["2025-11-25"],
        "transports": [{"type": "stdio", "command": "t"}],
        "tools": [
            {
                "name": f"tool_{i:04}",
                "description": "A tool.",
                "inputSchema": {"type": "object"},
                **({"tags": [names[i % tags]]} if tags else {}),
                **({"deprecated": True} if i % 7 == 3 else {}),
            }
            for i in range(tools)
        ],
        "prompts": [{"name": f"prompt_{i}", "description": "A prompt."} for i in range(tools // 10)],
    }
    if tags:
        data["tags"] = [{"name": name} for name in names]
    document = check_document(yaml.safe_load(yaml.safe_dump(data))).document
    assert document is not None
    return Navigation(build_site(document))


@pytest.mark.parametrize(("tools", "tags"), [(20, 0), (FULL_LIMIT - 20, 3), (400, 0), (400, 5)])
def test_what_a_sidebar_lists_is_what_its_view_shows(tools: int, tags: int) -> None:
    navigation = _site(tools, tags)
    assert navigation.compact == (len(navigation.order) > FULL_LIMIT)
    for page in navigation.order:
        shown = tuple(entry for view in navigation.view(page) for group in view.groups for entry in group.shown)
        assert navigation.listed(page) == shown, page.path
    if navigation.compact:  # a window, not the site
        assert max(len(navigation.listed(page)) for page in navigation.order) == 2 * WINDOW + 1
