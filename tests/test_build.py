"""``mcpdesc-docs build``: contracted paths, staged writes, config handling, exit codes."""

from __future__ import annotations

import copy
import gc
import json
import re
import unicodedata
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from mcpdesc_docs.model import urls
from mcpdesc_docs.model.urls import folded_accents, slugify
from mcpdesc_docs.output import safe_relative_path

from .sites import EXAMPLES, SAMPLE, SAMPLE_DIR, build, load_data, parse, run, snapshot


def write_json(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_sample_site_builds_with_zero_warnings_and_contracted_paths(tmp_path):
    code, out, err = build(SAMPLE_DIR, tmp_path / "site")
    assert code == 0, out + err
    assert "warning" not in out
    assert "error" not in out
    site = tmp_path / "site"
    data = load_data(SAMPLE)
    expected = {"index.html", ".nojekyll", "404.html", "assets/mcpdesc.css", "assets/mcpdesc.js"}
    for collection, folder in (
        ("tools", "tools"),
        ("resources", "resources"),
        ("resourceTemplates", "resource-templates"),
        ("prompts", "prompts"),
    ):
        for item in data[collection]:
            expected.add(f"{folder}/{slugify(item['name'])}.html")
    assert expected <= set(snapshot(site))
    # Two create_ticket declarations (disjoint scopes) share one page.
    page = parse(site / "tools" / "create_ticket.html")
    assert len(page.select("section.variant")) == 2


def test_sample_config_is_strict_and_names_the_description():
    config = yaml.safe_load((SAMPLE_DIR / "mcpdesc-docs.yml").read_text())
    assert config["strict"] is True
    assert (SAMPLE_DIR / config["description"]).resolve() == SAMPLE


if EXAMPLES:  # read in place from the shared corpus; no corpus, no cases (test_corpus.py says so)

    @pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
    def test_every_corpus_example_builds(example, tmp_path):
        code, out, err = build(example, tmp_path / "out")
        assert code == 0, out + err
        assert (tmp_path / "out" / "index.html").is_file()


def test_failed_build_leaves_the_previous_site_byte_identical(tmp_path):
    description = write_json(tmp_path / "d.mcpdesc.json", load_data(SAMPLE))
    site = tmp_path / "site"
    assert build(description, site)[0] == 0
    before = snapshot(site)
    broken = load_data(SAMPLE)
    broken["tools"][0]["elicitations"] = []  # empty collection: an error
    write_json(description, broken)
    code, out, err = build(description, site)
    assert code == 1
    assert "error[" in out
    assert "left unchanged" in err
    assert snapshot(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.mcpdesc.json", "site"]  # no staging debris


def test_syntax_error_is_exit_1_and_writes_nothing(tmp_path):
    description = tmp_path / "d.mcpdesc.yaml"
    description.write_text("mcpdesc: '0.9.0'\ninfo: {name: a\n", encoding="utf-8")
    code, out, _ = build(description, tmp_path / "site")
    assert code == 1
    assert "d.mcpdesc.yaml:" in out
    assert not (tmp_path / "site").exists()


def test_strict_makes_warnings_fatal(tmp_path):
    data = load_data(SAMPLE)
    data["capabilities"][1]["logging"] = {}  # deprecated in 2026-07-28: a warning
    description = write_json(tmp_path / "d.mcpdesc.json", data)
    code, out, _ = build(description, tmp_path / "lenient")
    assert code == 0, out
    assert "warning[mcp.capabilities.logging-deprecated]" in out
    code, out, _ = build(description, tmp_path / "strict", "--strict")
    assert code == 1
    assert not (tmp_path / "strict").exists()


def test_removing_a_tool_removes_its_page(tmp_path):
    data = load_data(SAMPLE)
    description = write_json(tmp_path / "d.mcpdesc.json", data)
    site = tmp_path / "site"
    assert build(description, site)[0] == 0
    assert (site / "tools" / "delete_ticket.html").is_file()
    (site / "tools" / "stray.html").write_text("left by hand")
    data["tools"] = [t for t in data["tools"] if t["name"] != "delete_ticket"]
    write_json(description, data)
    assert build(description, site)[0] == 0
    assert not (site / "tools" / "delete_ticket.html").exists()
    assert not (site / "tools" / "stray.html").exists()
    assert "delete_ticket" not in (site / "index.html").read_text()


def test_refuses_to_replace_a_directory_it_did_not_write(tmp_path):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    code, _, err = build(SAMPLE, precious)
    assert code == 2
    assert "refusing to replace" in err
    assert (precious / "notes.txt").read_text() == "keep me"


def test_refuses_a_site_dir_that_contains_the_description(tmp_path):
    description = write_json(tmp_path / "d.mcpdesc.json", load_data(SAMPLE))
    code, _, err = build(description, tmp_path)
    assert code == 2
    assert "contains" in err
    assert description.is_file()


def test_default_site_dir_is_beside_the_description(tmp_path):
    description = write_json(tmp_path / "d.mcpdesc.json", load_data(SAMPLE))
    code, _, err = run("build", str(description))
    assert code == 0, err
    assert (tmp_path / "site" / "index.html").is_file()


def test_config_file_settings_reach_the_pages(tmp_path):
    write_json(tmp_path / "d.mcpdesc.json", load_data(SAMPLE))
    (tmp_path / "brand.css").write_text("body { color: teal; }")
    (tmp_path / "mcpdesc-docs.yml").write_text(
        "description: d.mcpdesc.json\n"
        "site_name: Brand Docs\n"
        "site_url: https://docs.example.com/helpdesk\n"
        "site_dir: public\n"
        "copyright: Copyright Brand Co\n"
        "extra_css: [brand.css]\n"
    )
    code, _, err = run("build", str(tmp_path))
    assert code == 0, err
    site = tmp_path / "public"
    index = parse(site / "index.html")
    assert index.select_one(".site-title").get_text() == "Brand Docs"
    assert "Copyright Brand Co" in index.select_one("footer").get_text()
    assert [link["href"] for link in index.select("link[rel=stylesheet]")] == ["assets/mcpdesc.css", "brand.css"]
    assert index.select_one("link[rel=canonical]")["href"] == "https://docs.example.com/helpdesk/index.html"
    tool = parse(site / "tools" / "search_tickets.html")
    assert (
        tool.select_one("link[rel=canonical]")["href"] == "https://docs.example.com/helpdesk/tools/search_tickets.html"
    )
    assert [link["href"] for link in tool.select("link[rel=stylesheet]")] == ["../assets/mcpdesc.css", "../brand.css"]
    assert (site / "brand.css").read_text() == "body { color: teal; }"
    assert "https://docs.example.com/helpdesk/tools/search_tickets.html" in (site / "sitemap.xml").read_text()


def test_without_site_url_no_page_claims_an_address(tmp_path):
    code, _, _ = build(SAMPLE, tmp_path / "site")
    assert code == 0
    assert not (tmp_path / "site" / "sitemap.xml").exists()
    assert parse(tmp_path / "site" / "index.html").select("link[rel=canonical]") == []


CONFIG = "error[mcpdesc-docs.config] "


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "description: d.json\nsite_nmae: X\n",
            f"mcpdesc-docs.yml:2:1: {CONFIG}unknown setting 'site_nmae'",
        ),
        (
            "description: d.json\nstrict: 'yes'\n",
            f"mcpdesc-docs.yml:2:1: {CONFIG}'strict' must be true or false",
        ),
        (
            "description: d.json\nsite_url: ftp://x\n",
            f"mcpdesc-docs.yml:2:1: {CONFIG}'site_url' must be an http",
        ),
        (
            "description: d.json\nextra_css: [https://cdn.example.com/x.css]\n",
            f"mcpdesc-docs.yml:2:13: {CONFIG}'https://",
        ),
        ("description: d.json\nextra_css: [../outside.css]\n", "must be a path inside the project"),
        (
            "description: d.json\ntheme: {name: default, colour: red}\n",
            f"mcpdesc-docs.yml:2:24: {CONFIG}unknown theme setting",
        ),
        ("description: d.json\ntheme: nope\n", f"mcpdesc-docs.yml:2:1: {CONFIG}unknown theme 'nope'"),
        ("description: d.json\ndescription: e.json\n", "duplicate key"),
        ("site_name: X\n", "missing setting 'description'"),
        ("description: missing.json\n", "description file"),
    ],
)
def test_config_mistakes_are_located_and_exit_2(tmp_path, text, expected):
    (tmp_path / "d.json").write_text(json.dumps(load_data(SAMPLE)))
    (tmp_path / "mcpdesc-docs.yml").write_text(text)
    code, _out, err = run("build", str(tmp_path))
    assert code == 2
    assert expected in err
    assert "Traceback" not in err
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("output_format", ["json", "github"])
def test_config_mistakes_reach_the_machine_formats(tmp_path, output_format):
    (tmp_path / "d.json").write_text(json.dumps(load_data(SAMPLE)))
    (tmp_path / "mcpdesc-docs.yml").write_text("description: d.json\nsite_nmae: X\n")
    code, out, err = run("build", str(tmp_path), "--format", output_format)
    assert code == 2
    assert err == ""
    if output_format == "json":
        report = json.loads(out)
        assert report["valid"] is False
        [problem] = report["diagnostics"]
        assert problem["rule"] == "mcpdesc-docs.config"
        assert problem["code"] == "unknown-setting"
        assert (problem["path"], problem["line"], problem["column"]) == ("/site_nmae", 2, 1)
        assert report["file"].endswith("mcpdesc-docs.yml")
    else:
        assert out.startswith("::error file=")
        assert "mcpdesc-docs.yml,line=2,col=1,title=mcpdesc-docs.config::unknown setting 'site_nmae'" in out


def test_missing_path_is_a_usage_error(tmp_path):
    code, _, err = run("build", str(tmp_path / "nothing-here"))
    assert code == 2
    assert "no such file or directory" in err


def test_directory_without_config_is_a_usage_error(tmp_path):
    code, _, err = run("build", str(tmp_path))
    assert code == 2
    assert "no mcpdesc-docs.yml" in err


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("search_tickets", "search_tickets"),
        ("Search Tickets!", "search-tickets"),
        ("../../etc/passwd", "etc-passwd"),
        ("..", "item-5ec1f7e7"),
        (".hidden", "hidden"),
        ("a..b", "a.b"),
        ("Ünïcødé", "unicode"),
        ("Straße", "strasse"),
        ("検索", "item-1b6b1a6f"),
        ("con", "con-"),
        ("LPT1.page", "lpt1.page-"),
        ("a\x00b", "a-b"),
        ("..\\..\\windows", "windows"),
        ("", "item"),
    ],
)
def test_slugs_are_safe_file_names(name, slug):
    assert slugify(name) == slug


@pytest.mark.slow
@given(st.text(max_size=30))
@example("Kelvin \u212a")  # its lower case is ASCII
@example("\u0130stanbul")  # its lower case is not
def test_folding_a_name_is_one_rule_whether_or_not_it_is_ascii(name):
    lowered = name.lower()
    decomposed = unicodedata.normalize("NFKD", lowered.translate(urls._FOLD))
    assert folded_accents(lowered) == "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def test_long_and_foreign_names_get_short_stable_distinct_slugs():
    long_a, long_b = "x" * 200, "x" * 199 + "y"
    slug_a, slug_b = slugify(long_a), slugify(long_b)
    assert len(slug_a) <= 80
    assert slug_a.startswith("x" * 60)
    assert slug_a != slug_b
    assert slugify(long_a) == slug_a  # deterministic
    assert slugify("検索") != slugify("検査")
    assert re.fullmatch(r"item-[0-9a-f]{8}", slugify("検索"))


def test_slug_collisions_get_a_stable_suffix(tmp_path):
    data = load_data(SAMPLE)
    first = copy.deepcopy(data["tools"][0])
    data["tools"] = [first | {"name": "Report"}, first | {"name": "report"}, first | {"name": "REPORT"}]
    description = write_json(tmp_path / "d.json", data)
    assert build(description, tmp_path / "site")[0] == 0
    names = {
        path.name: parse(path).select_one("main")["data-name"] for path in (tmp_path / "site" / "tools").glob("*.html")
    }
    assert names == {"report.html": "Report", "report-2.html": "report", "report-3.html": "REPORT"}


@pytest.mark.parametrize("bad", ["../x.html", "/etc/x", "a/../../x", "", "a//b", "a\\..\\b", "./x"])
def test_output_paths_cannot_leave_the_site(bad):
    with pytest.raises(ValueError, match="unsafe output path"):
        safe_relative_path(bad)


def test_render_cache_rerenders_only_what_changed(tmp_path):
    from mcpdesc_docs.config import load_config
    from mcpdesc_docs.pipeline import BuildSession, render_description

    data = load_data(SAMPLE)
    description = write_json(tmp_path / "d.json", data)
    config = load_config(description)
    session = BuildSession()
    cache = session.render_cache
    first = render_description(config, session=session).files
    assert first is not None
    every = cache.rendered
    fixed = 1 + len(data["tags"]) + 1  # overview, tag pages and 404 always render
    assert render_description(config, session=session).files == first
    assert cache.rendered == fixed
    data["tools"][0]["description"] = "Changed words."
    write_json(description, data)
    second = render_description(config, session=session).files
    assert cache.rendered == fixed + 1
    assert second is not None
    assert "Changed words." in second["tools/search_tickets.html"].decode()
    assert second["tools/create_ticket.html"] == first["tools/create_ticket.html"]
    data["tools"][0]["name"] = "find_tickets"  # changes every sidebar
    write_json(description, data)
    render_description(config, session=session)
    assert cache.rendered == every


def test_a_build_reads_the_description_into_one_document(tmp_path, monkeypatch):
    # Validation's Document is the page model's input: the build makes no second one.
    from mcpdesc_docs.validation import document as document_module

    built = []
    original = document_module.Document.build.__func__

    def counting(cls, data, specification, memos=None):
        built.append(specification.name)
        return original(cls, data, specification, memos)

    monkeypatch.setattr(document_module.Document, "build", classmethod(counting))
    code, out, err = build(SAMPLE, tmp_path / "site")
    assert code == 0, out + err
    assert built == ["0.9.0-rc.3"]


def test_downloads_are_named_by_format_never_by_the_source_extension(tmp_path):
    # A description file named like a page must not be published as one (outside the CSP).
    source = tmp_path / "page.html"
    source.write_text(SAMPLE.read_text())
    code, out, err = build(source, tmp_path / "site")
    assert code == 0, out + err
    assert sorted(p.name for p in (tmp_path / "site" / "description").iterdir()) == ["page.html.json", "page.html.yaml"]
    assert (tmp_path / "site" / "description" / "page.html.yaml").read_text() == SAMPLE.read_text()


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("index.css.html", "must be a .css file outside assets/"),
        ("assets/mcpdesc.css", "must be a .css file outside assets/"),
        ("linked.css", "leads outside the project"),
    ],
)
def test_extra_css_cannot_replace_generated_files_or_leave_the_project(tmp_path, entry, problem):
    project = tmp_path / "project"
    project.mkdir()
    (project / "d.json").write_text(json.dumps(load_data(SAMPLE)))
    outside = tmp_path / "secret.css"
    outside.write_text("/* not the project's */")
    (project / "linked.css").symlink_to(outside)
    for name in ("index.css.html", "assets/mcpdesc.css"):
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text("x")
    (project / "mcpdesc-docs.yml").write_text(f"description: d.json\nextra_css: [{entry}]\n")
    code, _, err = run("build", str(project))
    assert code == 2
    assert f"mcpdesc-docs.yml:2:13: {CONFIG}'{entry}' {problem}" in err
    assert not (project / "site").exists()


def test_io_errors_are_plain_messages(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    code, _, err = build(SAMPLE, blocker / "site")
    assert code == 2
    assert err.startswith("mcpdesc-docs: error: ")
    assert "internal error" not in err
    assert str(blocker) in err


def test_a_build_freezes_what_it_keeps_while_rendering_and_unfreezes_after(tmp_path, monkeypatch):
    # Frozen, the validated description and the model are not walked by every full
    # collection while pages render; a caller in the same process gets its collector back.
    from mcpdesc_docs import pipeline

    seen: list[int] = []
    render_site = pipeline.render_site

    def watched(*args, **kwargs):
        seen.append(gc.get_freeze_count())
        return render_site(*args, **kwargs)

    monkeypatch.setattr(pipeline, "render_site", watched)
    before = gc.get_freeze_count()
    assert build(SAMPLE, tmp_path / "site")[0] == 0
    assert len(seen) == 1
    assert seen[0] > before
    assert gc.get_freeze_count() == 0
