"""``serve`` rebuilds incrementally (pages whose inputs did not change are reused): after
any sequence of edits, each rebuild must give the very site a fresh full build gives."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.config import load_config
from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.model.navigation import WINDOW
from mcpdesc_docs.pipeline import render_description
from mcpdesc_docs.render import pages
from mcpdesc_docs.resources import builtin_dir
from mcpdesc_docs.source.limits import DEFAULT_LIMITS
from mcpdesc_docs.source.yaml_events import read_yaml_data

from .sites import SAMPLE, SAMPLE_DIR, load_data

KINDS = ["tools", "resources", "resourceTemplates", "prompts"]
WORDS = ["Changed words.", "**Bold** text", "", "Search tickets", "<b>not html</b>"]


def edit(document: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """One edit an author might save: words, a name, an item added or removed, a tag."""
    document = copy.deepcopy(document)
    kind = data.draw(st.sampled_from(KINDS))
    items = document.get(kind) or []
    action = data.draw(
        st.sampled_from(
            [
                "describe",
                "title",
                "rename",
                "add",
                "remove",
                "tag",
                "info",
                "invalid",
                "default",
                "component",
                "versions",
            ]
        )
    )
    index = data.draw(st.integers(0, max(len(items) - 1, 0)))
    if action == "describe" and items:
        items[index]["description"] = data.draw(st.sampled_from(WORDS))
    elif action == "title" and items:
        items[index]["title"] = data.draw(st.sampled_from([*WORDS[:2], "Another title"]))
    elif action == "rename" and kind in ("tools", "prompts") and items:
        items[index]["name"] = items[index]["name"] + data.draw(st.sampled_from(["_x", "_y"]))
    elif action == "add" and items:
        added = copy.deepcopy(items[index])
        if "name" in added:
            added["name"] = added["name"] + "_copy"
        if "uri" in added:
            added["uri"] = added["uri"] + "-copy"
        if "uriTemplate" in added:
            added["uriTemplate"] = added["uriTemplate"] + "/copy"
        items.insert(data.draw(st.integers(0, len(items))), added)
    elif action == "remove" and len(items) > 1:
        del items[index]
    elif action == "tag":
        document["tags"][0]["description"] = data.draw(st.sampled_from(WORDS))
    elif action == "info":
        document["info"]["title"] = data.draw(st.sampled_from(["Helpdesk", "Help desk (edited)"]))
    elif action == "invalid":
        document["info"]["version"] = 7  # a failed build between good ones
    elif action == "default" and kind == "tools" and items:
        # 1, 1.0 and true compare equal in Python: a reused page must not hide the change.
        properties = items[index].get("inputSchema", {}).get("properties")
        if properties:
            first = next(iter(properties.values()))
            first["default"] = data.draw(st.sampled_from([1, 1.0, True, "1"]))
    elif action == "component":
        schema = document["components"]["schemas"]["TicketIdInput"]
        schema["properties"]["ticket_id"]["description"] = data.draw(st.sampled_from(WORDS))
    elif action == "versions":
        document["protocolVersions"] = data.draw(st.sampled_from([["2025-11-25", "2026-07-28"], ["2026-07-28"]]))
    return document


def written(document: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(document, indent=2, ensure_ascii=False)
    return yaml.safe_dump(document, sort_keys=False)


@settings(
    max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_incremental_rebuilds_equal_full_builds(tmp_path_factory: Any, data: st.DataObject) -> None:
    fmt = data.draw(st.sampled_from(["yaml", "json"]))
    project = tmp_path_factory.mktemp("incremental")
    config = (SAMPLE_DIR / "mcpdesc-docs.yml").read_text(encoding="utf-8")
    description = project / f"helpdesk.mcpdesc.{fmt}"
    (project / "mcpdesc-docs.yml").write_text(
        config.replace("description: helpdesk.mcpdesc.yaml", f"description: {description.name}"), encoding="utf-8"
    )
    document = load_data(SAMPLE)
    description.write_text(written(document, fmt), encoding="utf-8")
    builder = ProjectBuilder(project, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    for _ in range(data.draw(st.integers(1, 5))):
        document = edit(document, data)
        description.write_text(written(document, fmt), encoding="utf-8")
        incremental = builder.build([str(description)])
        full = render_description(load_config(Path(project))).files
        assert incremental.files == full


def tool_list(count: int, changed: int | None = None, *, titled: bool = False, retitled: int | None = None) -> str:
    tools = "".join(
        f"  - name: tool_{i}\n"
        + (f"    title: {'Retitled' if i == retitled else f'Tool number {i}'}\n" if titled else "")
        + f"    description: {'Edited.' if i == changed else f'Tool {i}.'}\n"
        "    inputSchema:\n      type: object\n      properties:\n        q: {type: string, default: 1}\n"
        for i in range(count)
    )
    return (
        'mcpdesc: "0.9.0"\ninfo:\n  name: t\n  version: "1"\nprotocolVersions: [2025-11-25]\n'
        f"transports:\n  - type: stdio\n    command: t\ntools:\n{tools}"
    )


def test_an_edit_to_one_tool_builds_and_renders_one_page(tmp_path: Path) -> None:
    description = tmp_path / "d.mcpdesc.yaml"
    description.write_text(tool_list(30), encoding="utf-8")
    builder = ProjectBuilder(description, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    assert builder.page_cache.built == 30
    # Each tool once in the overview's catalogue and three times in a sidebar: seen from the
    # site's root (the overview and 404.html), from tools/ and on its own page.
    assert builder.render_cache.fragments_rendered == 30 + 3 * 30
    description.write_text(tool_list(30, changed=5), encoding="utf-8")
    rebuilt = builder.build([str(description)])
    assert builder.page_cache.built == 1
    assert builder.render_cache.rendered == 3  # the tool's page, the overview and 404.html
    # The edited tool in the catalogue, in the root's sidebar and on its own page; the others
    # are shown as before (the other tool pages, with tool_5 in their sidebar, are reused).
    assert builder.render_cache.fragments_rendered == 3
    assert rebuilt.files == render_description(load_config(description)).files
    # 1 and true compare equal in Python; the page must still show the new default.
    typed = tool_list(30, changed=5).replace(
        "Tool 7.\n    inputSchema:\n      type: object\n      properties:\n        q: {type: string, default: 1}",
        "Tool 7.\n    inputSchema:\n      type: object\n      properties:\n        q: {type: string, default: true}",
    )
    assert typed != tool_list(30, changed=5)
    description.write_text(typed, encoding="utf-8")
    rebuilt = builder.build([str(description)])
    assert builder.page_cache.built == 1
    assert rebuilt.files == render_description(load_config(description)).files
    description.write_text(typed.replace('version: "1"', 'version: "2"'), encoding="utf-8")
    rebuilt = builder.build([str(description)])
    assert builder.page_cache.built == 30  # outside the tools: every page is built again
    assert builder.render_cache.fragments_rendered == 30 + 3 * 30
    assert rebuilt.files == render_description(load_config(description)).files


def test_a_build_keeps_few_fragments_and_shows_the_same_site(tmp_path: Path, monkeypatch: Any) -> None:
    description = tmp_path / "d.mcpdesc.yaml"
    description.write_text(tool_list(20), encoding="utf-8")
    renders: list[str] = []
    render = pages.PageFragments._render

    def counted(self: pages.PageFragments, context: Any, partial: str, page: Any) -> Any:
        renders.append(partial)
        return render(self, context, partial, page)

    monkeypatch.setattr(pages.PageFragments, "_render", counted)
    monkeypatch.setattr(pages, "KEPT_IN_BUILD", 10**6)
    kept_all = render_description(load_config(description)).files
    # Each tool once in the catalogue, once in the sidebar of the root's pages, once in
    # that of tools/ and once on its own page.
    assert len(renders) == 4 * 20
    renders.clear()
    monkeypatch.setattr(pages, "KEPT_IN_BUILD", 3)
    assert render_description(load_config(description)).files == kept_all
    # 20 tools, all in one sidebar: each tool page shows 19 others, and only 3 are kept.
    assert len(renders) > 4 * 20 + 15 * 15


def test_an_edit_to_one_tool_of_a_json_description_builds_one_page(tmp_path: Path) -> None:
    # JSON is always parsed in full; unchanged values are given the last read's objects.
    description = tmp_path / "d.mcpdesc.json"
    document = read_yaml_data(tool_list(30), DEFAULT_LIMITS, "d")
    assert isinstance(document, dict)
    description.write_text(json.dumps(document, indent=2), encoding="utf-8")
    builder = ProjectBuilder(description, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    assert builder.page_cache.built == 30
    for value in (True, 1.0, 1):  # equal in Python, not in JSON: each is a change
        document["tools"][7]["inputSchema"]["properties"]["q"]["default"] = value
        description.write_text(json.dumps(document, indent=2), encoding="utf-8")
        rebuilt = builder.build([str(description)])
        assert builder.page_cache.built == 1
        assert rebuilt.files == render_description(load_config(description)).files
    document["tools"].insert(0, document["tools"].pop(12))  # moved: pointers change, pages too
    description.write_text(json.dumps(document, indent=2), encoding="utf-8")
    rebuilt = builder.build([str(description)])
    assert rebuilt.files == render_description(load_config(description)).files


def test_changes_made_while_the_pages_sit_out_a_rebuild_are_not_lost(tmp_path: Path) -> None:
    # An edit that breaks the description builds no pages, but the page cache is still told
    # what changed: after the fix, the tools edited in between are built again.
    description = tmp_path / "d.mcpdesc.yaml"
    description.write_text(tool_list(30), encoding="utf-8")
    builder = ProjectBuilder(description, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    broken = tool_list(30, changed=5).replace("description: Tool 9.\n", "description: [7]\n", 1)
    assert broken != tool_list(30, changed=5)
    description.write_text(broken, encoding="utf-8")
    assert not builder.build([str(description)]).ok
    assert builder.session.last_change is not None
    assert builder.session.last_change.primitives == {"/tools/5", "/tools/9"}
    description.write_text(tool_list(30, changed=5), encoding="utf-8")
    rebuilt = builder.build([str(description)])
    assert builder.page_cache.built == 2  # tool_5 (edited while broken) and tool_9 (mended)
    assert rebuilt.files == render_description(load_config(description)).files


def test_a_title_edit_renders_again_only_the_pages_whose_sidebars_show_it(tmp_path: Path) -> None:
    # A large site's sidebar shows some twenty-five tools around the page's own; a title is
    # shown there, so only those pages (and the overview and 404.html, always rendered)
    # change. Before pages had their own chrome key, any title re-rendered all 300.
    description = tmp_path / "d.mcpdesc.yaml"
    description.write_text(tool_list(300, titled=True), encoding="utf-8")
    builder = ProjectBuilder(description, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    description.write_text(tool_list(300, titled=True, retitled=150), encoding="utf-8")
    rebuilt = builder.build([str(description)])
    assert rebuilt.files is not None
    showing = [path for path, html in rebuilt.files.items() if path.startswith("tools/") and b">Retitled<" in html]
    assert len(showing) == 2 * WINDOW + 1  # tool_150 and the twelve pages on each side
    assert builder.render_cache.rendered == len(showing) + 2
    assert rebuilt.files == render_description(load_config(description)).files
    # tool_150 gets its title back (its 25 pages again) and tool_0, first of its group, is
    # shown by itself and the twelve after it.
    description.write_text(tool_list(300, titled=True, retitled=0), encoding="utf-8")
    rebuilt = builder.build([str(description)])
    assert builder.render_cache.rendered == (2 * WINDOW + 1) + (WINDOW + 1) + 2
    assert rebuilt.files == render_description(load_config(description)).files


def test_a_theme_edit_renders_every_page_again_once(tmp_path: Path) -> None:
    description = tmp_path / "d.mcpdesc.yaml"
    description.write_text(tool_list(10), encoding="utf-8")
    builder = ProjectBuilder(description, out=io.StringIO(), err=io.StringIO())
    assert builder.build().ok
    every = builder.render_cache.rendered
    template = str(builtin_dir("templates") / "primitive.html")
    builder.build([template])
    assert (builder.page_cache.built, builder.render_cache.rendered) == (0, every)
    builder.build([str(description)])
    assert builder.render_cache.rendered < every


def test_caches_not_told_what_changed_refuse_to_be_used() -> None:
    from mcpdesc_docs.model.primitives import PageCache
    from mcpdesc_docs.spec.versions import SPEC_0_9_0_RC_3
    from mcpdesc_docs.validation.document import Document
    from mcpdesc_docs.validation.rule_cache import RuleCache
    from mcpdesc_docs.validation.validator import run_rules

    document = Document.build(read_yaml_data(tool_list(2), DEFAULT_LIMITS, "d"), SPEC_0_9_0_RC_3)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="without being told what changed"):
        run_rules(document, RuleCache())
    with pytest.raises(RuntimeError, match="without being told what changed"):
        PageCache().begin()
