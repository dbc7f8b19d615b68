"""The Python-Markdown extension (``mcpdesc_docs/embed``): fenced ``mcpdesc`` blocks in
another site's pages, with Python-Markdown alone and in a real ``mkdocs build --strict``.

The extension is found by name through the ``markdown.extensions`` entry point that
pyproject.toml declares: the fixture ``registered`` puts that declaration, as an installed
distribution would carry it, on the path (this checkout may be installed from an older
pyproject), so a wrong module or class name there fails these tests."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import markdown
import markdown.util
import pytest
import yaml
from bs4 import BeautifulSoup

from mcpdesc_docs.embed.extension import EmbedBuildError, McpdescExtension
from mcpdesc_docs.embed.stylesheet import STYLESHEET

from .helpers import AUDITED
from .hostile_documents import ESCAPES, base, injection
from .hostile_documents import tool as hostile_tool
from .shared_data import ROOT
from .sites import SAMPLE, load_data

HOSTILE = '<script>alert("owned")</script> [click](javascript:alert(1)) <img src=x onerror=alert(1)>'
SAMPLE_PATH = "sample-site/helpdesk.mcpdesc.yaml"


@pytest.fixture(scope="module")
def entry_point_dir(tmp_path_factory) -> Path:
    """A directory holding a distribution's metadata with pyproject's entry points."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    directory = tmp_path_factory.mktemp("entry-points")
    info = directory / "mcpdesc_docs_entry_points-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mcpdesc-docs-entry-points\nVersion: 0\n")
    lines = [
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in names.items())
        for group, names in declared.items()
    ]
    (info / "entry_points.txt").write_text("\n".join(lines))
    return directory


@pytest.fixture
def registered(entry_point_dir, monkeypatch):
    monkeypatch.syspath_prepend(str(entry_point_dir))
    markdown.util.get_installed_extensions.cache_clear()
    yield
    markdown.util.get_installed_extensions.cache_clear()


def convert(text: str, base_dir: Path = ROOT, **config: object) -> BeautifulSoup:
    html = markdown.markdown(
        text,
        extensions=["mcpdesc", "fenced_code"],
        extension_configs={"mcpdesc": {"base_dir": str(base_dir), **config}},
    )
    return BeautifulSoup(html, "html.parser")


def block(**options: object) -> str:
    return "```mcpdesc\n" + yaml.safe_dump(options, sort_keys=False) + "```\n"


def hostile_description(directory: Path) -> Path:
    """The sample, with markup in create_ticket's description and title."""
    data = copy.deepcopy(load_data(SAMPLE))
    for tool in data["tools"]:
        if tool["name"] == "create_ticket":
            tool["description"] = HOSTILE
            tool["title"] = "<b>bold</b> title"
    file = directory / "hostile.mcpdesc.yaml"
    file.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return file


def test_the_entry_point_names_the_extension(registered):
    # Listed once by the checkout's metadata (the fixture) and again where the package is
    # installed: every listing names the one extension.
    found = [e for e in markdown.util.get_installed_extensions() if e.name == "mcpdesc"]
    assert found
    assert all(e.load() is McpdescExtension for e in found)


def test_one_tool_shows_what_its_page_shows(registered):
    page = convert("# Tickets\n\n" + block(path=SAMPLE_PATH, tool="escalate_ticket"))
    (embed,) = page.select("div.mcpdesc-embed")
    (section,) = embed.select("section.mcpdesc-primitive")
    assert section["id"] == "mcpdesc-tools-escalate_ticket"
    assert section.h2.get_text(" ", strip=True) == "Tool Escalate ticket escalate_ticket"
    # The page body's sections, a level below the block's title (the request sample in
    # the column of samples, after the declaration, as on the page).
    assert [h.contents[0].strip() for h in section.find_all("h3")] == [
        "Parameters",
        "Security",
        "May ask the user (3)",
        "Request",
    ]
    assert section.select("table.params tr[id^='mcpdesc-tools-escalate_ticket-']")
    assert len(section.select("article.card.elicitation")) == 3
    assert section.select("form.form-preview[method=dialog] input, form.form-preview select")
    # Every id under the block's prefix; every in-page link lands on one of them.
    ids = [tag["id"] for tag in page.find_all(id=True)]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("mcpdesc-tools-escalate_ticket") for i in ids)
    assert {a["href"][1:] for a in page.select("a[href^='#']")} <= set(ids)
    for label in page.select("label[for]"):
        assert label["for"] in ids


def test_the_same_html_as_the_sites_page(registered, tmp_path):
    # The block is the site page's body (ids and heading levels fitted): one renderer.
    from .sites import build

    assert build(SAMPLE.parent, tmp_path / "site")[0] == 0
    site_page = BeautifulSoup((tmp_path / "site" / "tools" / "escalate_ticket.html").read_text(), "html.parser")
    embedded = convert(block(path=SAMPLE_PATH, tool="escalate_ticket"))
    on_site = [c.get_text(" ", strip=True) for c in site_page.select(".page-body article.card")]
    in_block = [c.get_text(" ", strip=True) for c in embedded.select("article.card")]
    assert in_block == on_site
    assert len(embedded.select("td.param-name")) == len(site_page.select(".page-body td.param-name"))


def test_a_kind_and_the_whole_reference(registered):
    tools = convert(block(path=SAMPLE_PATH, kind="tools", heading=3))
    names = [s["id"] for s in tools.select("section.mcpdesc-primitive")]
    assert names[:2] == ["mcpdesc-tools-search_tickets", "mcpdesc-tools-create_ticket"]
    assert all(n.startswith("mcpdesc-tools-") for n in names)
    assert tools.select("h3.mcpdesc-title")
    whole = convert(block(path=SAMPLE_PATH))
    assert [h.get_text() for h in whole.select("h2.mcpdesc-kind-title")] == [
        "Tools",
        "Resources",
        "Resource templates",
        "Prompts",
    ]
    ids = [tag["id"] for tag in whole.find_all(id=True)]
    assert len(ids) == len(set(ids))
    assert {a["href"][1:] for a in whole.select("a[href^='#']")} <= set(ids)


def test_links_to_pages_not_shown_go_to_the_site_url_or_nowhere(registered):
    alone = convert(block(path=SAMPLE_PATH, tool="create_ticket"))
    assert "mcpdesc-site:" not in str(alone)
    chips = alone.select("a.chip")
    assert chips
    assert all(not chip.has_attr("href") for chip in chips)
    linked = convert(block(path=SAMPLE_PATH, tool="create_ticket"), site_url="https://docs.example/helpdesk/")
    assert {chip["href"] for chip in linked.select("a.chip")} == {"https://docs.example/helpdesk/tags/tickets.html"}


def test_a_hostile_description_is_escaped(registered, tmp_path):
    hostile_description(tmp_path)
    page = convert(block(path="hostile.mcpdesc.yaml", tool="create_ticket"), base_dir=tmp_path)
    assert page.find("script") is None
    assert page.find("img") is None
    assert page.find("b") is None
    assert all(not a.get("href", "").lower().startswith("javascript:") for a in page.find_all("a"))
    assert '<script>alert("owned")</script>' in page.get_text()
    assert "<b>bold</b> title" in page.h2.get_text()
    assert not page.select("[style], style, [onerror]")


def test_other_fences_and_mkdocstrings_lines_are_left_alone(registered):
    text = (
        "::: mcpdesc_docs.embed\n\n"
        "````markdown\n" + block(path=SAMPLE_PATH, tool="create_ticket") + "````\n\n"
        "~~~\n```mcpdesc\nnot: read\n```\n~~~\n"
    )
    page = convert(text)
    assert page.select("div.mcpdesc-embed") == []
    assert page.p.get_text() == "::: mcpdesc_docs.embed"
    codes = [c.get_text() for c in page.select("pre code")]
    assert codes == [block(path=SAMPLE_PATH, tool="create_ticket"), "```mcpdesc\nnot: read\n```\n"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"path": SAMPLE_PATH, "tool": "create_tickets"},
            "declares no tool named 'create_tickets' (it has search_tickets,",
        ),
        ({"path": SAMPLE_PATH, "tools": "x"}, "unknown option 'tools'"),
        ({"path": SAMPLE_PATH, "kind": "widgets"}, "`kind` must be one of tools, resources"),
        ({"path": SAMPLE_PATH, "tool": "a", "prompt": "b"}, "name one primitive"),
        ({"path": SAMPLE_PATH, "kind": ["tools"]}, "`kind` must be one of"),
        ({"path": SAMPLE_PATH, "heading": 7}, "`heading` must be a heading level from 1 to 5"),
        ({"path": "sample-site/\0.yaml"}, "`path` must name the description file"),
        ({"tool": "create_ticket"}, "`path` must name the description file"),
        ({"path": "../outside.mcpdesc.yaml"}, "must be inside"),
        ({"path": "missing.mcpdesc.yaml"}, "missing.mcpdesc.yaml: no such file"),
    ],
)
def test_a_block_that_cannot_be_shown_fails_the_build(registered, options, message):
    with pytest.raises(EmbedBuildError) as failure:
        convert("Intro.\n\n" + block(**options))
    assert str(failure.value).startswith("mcpdesc block at line 3: ")
    assert message in str(failure.value)


@pytest.mark.parametrize(("body", "message"), [("", "the options must be a mapping"), ("path: [", "not YAML")])
def test_options_that_are_not_a_mapping_fail(registered, body, message):
    with pytest.raises(EmbedBuildError, match=message):
        convert(f"```mcpdesc\n{body}\n```\n")


def test_an_unclosed_block_fails(registered):
    with pytest.raises(EmbedBuildError, match="mcpdesc block at line 1: no closing ```"):
        convert("```mcpdesc\npath: x\n")


def test_a_description_with_errors_fails_with_located_diagnostics(registered, tmp_path):
    broken = SAMPLE.read_text().replace("  - name: create_ticket\n", "  - name: 42\n", 1)
    (tmp_path / "broken.mcpdesc.yaml").write_text(broken)
    line = broken.split("\n").index("  - name: 42") + 1
    with pytest.raises(EmbedBuildError) as failure:
        convert(block(path="broken.mcpdesc.yaml", kind="tools"), base_dir=tmp_path)
    assert f"broken.mcpdesc.yaml:{line}:5: error[mcpdesc.tool.members] 'name' must be a string" in str(failure.value)
    assert str(failure.value).endswith("broken.mcpdesc.yaml: invalid (0.9.0-rc.3): 1 error, 0 warnings\n")


def test_a_failure_message_carries_no_terminal_or_ci_commands(registered, tmp_path):
    (tmp_path / "injection.mcpdesc.json").write_text(json.dumps(injection()))
    with pytest.raises(EmbedBuildError) as failure:
        convert(block(path="injection.mcpdesc.json"), base_dir=tmp_path)
    message = str(failure.value)
    assert ": error[" in message
    assert "\x1b" not in message
    assert "\r" not in message
    assert "\n::" not in message


def test_names_listed_in_a_failure_are_printable(registered, tmp_path):
    document = base()
    document["tools"][0]["description"] = ESCAPES
    document["tools"].append(hostile_tool("t\x1b[2J\r\n::error file=x::forged"))
    (tmp_path / "names.mcpdesc.json").write_text(json.dumps(document))
    with pytest.raises(EmbedBuildError) as failure:
        convert(block(path="names.mcpdesc.json", tool="missing"), base_dir=tmp_path)
    message = str(failure.value)
    assert "declares no tool named 'missing' (it has probe, t" in message
    assert "\x1b" not in message
    assert "\n::" not in message


def test_warnings_are_logged_and_strict_refuses_them(registered, tmp_path, caplog):
    legacy = 'mcpdesc: "0.8.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-03-26, 2025-06-18]\n'
    legacy += "tools:\n  - name: ping\n    inputSchema: {type: object}\n"
    (tmp_path / "legacy.mcpdesc.yaml").write_text(legacy)
    page = convert(block(path="legacy.mcpdesc.yaml", tool="ping"), base_dir=tmp_path)
    assert page.select("section#mcpdesc-tools-ping")
    assert [r.name for r in caplog.records] == ["mkdocs.plugins.mcpdesc"]
    assert "warning[mcpdesc.legacy-protocol" in caplog.records[0].getMessage()
    with pytest.raises(EmbedBuildError, match="warning"):
        convert(block(path="legacy.mcpdesc.yaml", tool="ping"), base_dir=tmp_path, strict=True)


def test_a_description_is_read_once_until_it_changes(registered, tmp_path, monkeypatch):
    import mcpdesc_docs.embed.reference as reference

    reads = []
    real = reference.validate_file
    monkeypatch.setattr(reference, "validate_file", lambda *a, **k: reads.append(a[0]) or real(*a, **k))
    file = tmp_path / "helpdesk.mcpdesc.yaml"
    file.write_text(SAMPLE.read_text())
    for name in ("create_ticket", "escalate_ticket"):  # a Markdown instance (a page) each
        assert convert(block(path=file.name, tool=name), base_dir=tmp_path).select("section.mcpdesc-primitive")
    assert reads == [file]
    file.write_text(SAMPLE.read_text().replace("Open a new ticket", "Open one new ticket"))
    assert "Open one new ticket" in convert(block(path=file.name, tool="create_ticket"), base_dir=tmp_path).get_text()
    assert reads == [file, file]


def test_the_stylesheet_is_small_scoped_and_shipped_in_the_package():
    css = STYLESHEET.read_text()
    assert len(css.encode()) < 6 * 1024
    rules = [r.split("{")[0].strip() for r in re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL).split("}") if "{" in r]
    for selectors in rules:
        for selector in re.split(r",(?![^(]*\))", selectors):  # not the commas inside :is(...)
            assert selector.strip().startswith(".mcpdesc-embed"), selector
    assert "url(" not in css  # nothing loaded from anywhere
    assert STYLESHEET.parent == ROOT / "mcpdesc_docs" / "embed"
    done = subprocess.run(
        [sys.executable, "-m", "mcpdesc_docs.embed.stylesheet"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout == css


MKDOCS_YML = """\
site_name: Helpdesk handbook
markdown_extensions:
  - toc:
      permalink: true
  - mcpdesc
extra_css:
  - mcpdesc-embed.css
"""
PAGE = """\
# Tickets

How support opens a ticket:

```mcpdesc
path: helpdesk.mcpdesc.yaml
tool: create_ticket
```
"""


def mkdocs_build(project: Path, entry_point_dir: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(entry_point_dir)])}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def mkdocs_project(tmp_path: Path, description: str) -> Path:
    project = tmp_path / "handbook"
    (project / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text(MKDOCS_YML)
    (project / "docs" / "index.md").write_text(PAGE)
    subprocess.run(
        [sys.executable, "-m", "mcpdesc_docs.embed.stylesheet", str(project / "docs" / "mcpdesc-embed.css")],
        check=True,
        cwd=ROOT,
    )
    (project / "helpdesk.mcpdesc.yaml").write_text(description)
    return project


@pytest.mark.slow
def test_a_real_mkdocs_build_shows_the_tool_escaped(tmp_path, entry_point_dir):
    hostile = hostile_description(tmp_path).read_text()
    project = mkdocs_project(tmp_path, hostile)
    done = mkdocs_build(project, entry_point_dir)
    assert done.returncode == 0, done.stderr
    page = BeautifulSoup((project / "site" / "index.html").read_text(), "html.parser")
    (section,) = page.select("div.mcpdesc-embed section#mcpdesc-tools-create_ticket")
    assert '<script>alert("owned")</script>' in section.get_text()
    assert section.find("script") is None
    assert section.find("img") is None
    assert section.select("table.params")
    assert page.select_one("link[rel=stylesheet][href$='mcpdesc-embed.css']")
    assert (project / "site" / "mcpdesc-embed.css").read_text() == STYLESHEET.read_text()


@pytest.mark.slow
def test_a_real_strict_mkdocs_build_fails_on_a_descriptions_warnings(tmp_path, entry_point_dir):
    legacy = 'mcpdesc: "0.8.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-03-26, 2025-06-18]\n'
    legacy += "tools:\n  - name: create_ticket\n    inputSchema: {type: object}\n"
    done = mkdocs_build(mkdocs_project(tmp_path, legacy), entry_point_dir)
    assert done.returncode == 1
    assert "WARNING -  mcpdesc block at line 5:" in done.stderr
    assert "warning[mcpdesc.legacy-protocol" in done.stderr
    assert "Aborted with 1 warnings in strict mode!" in done.stdout + done.stderr


@pytest.mark.slow
def test_a_real_mkdocs_build_fails_on_a_broken_description(tmp_path, entry_point_dir):
    broken = SAMPLE.read_text().replace("  - name: create_ticket\n", "  - name: 42\n", 1)
    project = mkdocs_project(tmp_path, broken)
    (project / "site").mkdir()
    done = mkdocs_build(project, entry_point_dir)
    assert done.returncode == 1
    assert "Error reading page 'index.md'" in done.stderr
    assert "mcpdesc block at line 5:" in done.stderr
    line = broken.split("\n").index("  - name: 42") + 1
    assert f"helpdesk.mcpdesc.yaml:{line}:5: error[mcpdesc.tool.members]" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (project / "site" / "index.html").exists()


def documented_blocks(language: str) -> list[str]:
    """The bodies of docs/integrations.md's fenced blocks in ``language`` (any fence length)."""
    text = (ROOT / "docs" / "integrations.md").read_text()
    return [m.group(2) for m in re.finditer(rf"^(`{{3,}}){language}\n(.*?)^\1$", text, re.MULTILINE | re.DOTALL)]


@pytest.mark.slow
def test_the_documented_mkdocs_configuration_builds(tmp_path, entry_point_dir):
    (config,) = [b for b in documented_blocks("yaml") if b.startswith("markdown_extensions:")]
    (page,) = documented_blocks("markdown")
    assert "tool: create_ticket" in page
    path = re.search(r"^path: (.+)$", page, re.MULTILINE).group(1)
    assert not Path(path).is_absolute()
    project = tmp_path / "handbook"
    (project / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: Helpdesk handbook\n" + config)
    (project / "docs" / "tickets.md").write_text(page)
    (project / path).parent.mkdir(parents=True)
    (project / path).write_text(SAMPLE.read_text())
    (command,) = [line for b in documented_blocks("sh") for line in b.splitlines() if "embed.stylesheet" in line]
    subprocess.run([sys.executable, *command.split()[1:]], check=True, cwd=project)
    done = mkdocs_build(project, entry_point_dir)
    assert done.returncode == 0, done.stderr
    built = BeautifulSoup((project / "site" / "tickets" / "index.html").read_text(), "html.parser")
    assert built.select("section#mcpdesc-tools-create_ticket table.params")
    assert built.select_one("link[href$='mcpdesc-embed.css']")


AUDIT_PROBE = (
    AUDITED
    + """
import markdown

html = markdown.markdown(sys.stdin.read(), extensions=["mcpdesc_docs.embed.extension"])
print("EVENTS", events, "mcpdesc-embed" in html)
"""
)


@pytest.mark.slow
def test_no_network_or_process_while_converting(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", AUDIT_PROBE],
        input=block(path=SAMPLE_PATH),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "EVENTS [] True" in done.stdout


COEXISTING = """\
# API

::: mcpdesc_docs.embed.directive.read_selection

```mcpdesc
path: helpdesk.mcpdesc.yaml
tool: create_ticket
```

```python
answer = 42
```
"""


@pytest.mark.slow
def test_it_coexists_with_mkdocstrings_and_superfences(tmp_path, entry_point_dir):
    project = mkdocs_project(tmp_path, SAMPLE.read_text())
    (project / "mkdocs.yml").write_text(
        "site_name: Handbook\nplugins:\n  - mkdocstrings\nmarkdown_extensions:\n  - pymdownx.superfences\n  - mcpdesc\n"
    )
    (project / "docs" / "index.md").write_text(COEXISTING)
    done = mkdocs_build(project, entry_point_dir)
    assert done.returncode == 0, done.stderr
    page = BeautifulSoup((project / "site" / "index.html").read_text(), "html.parser")
    assert page.select("div.doc-object")  # mkdocstrings documented its identifier
    assert page.select("section#mcpdesc-tools-create_ticket table.params")
    assert "answer = 42" in page.get_text()  # other fences are still superfences'


@pytest.mark.slow
def test_why_not_a_colon_directive_mkdocstrings_takes_it(tmp_path, entry_point_dir):
    # The reason the block is a fence: any `:::` line is mkdocstrings' identifier to document.
    project = mkdocs_project(tmp_path, SAMPLE.read_text())
    (project / "mkdocs.yml").write_text(
        "site_name: Handbook\nplugins:\n  - mkdocstrings\nmarkdown_extensions:\n  - mcpdesc\n"
    )
    (project / "docs" / "index.md").write_text("# API\n\n::: mcpdesc helpdesk.mcpdesc.yaml\n")
    done = mkdocs_build(project, entry_point_dir)
    assert done.returncode == 1
    assert "Could not collect 'mcpdesc helpdesk.mcpdesc.yaml'" in done.stderr
