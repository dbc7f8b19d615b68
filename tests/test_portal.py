"""A portal (``descriptions:``): the config, one site for many servers, and what a
rejected description does to the build (exit 1 and nothing written, or with
``--keep-going`` the others published and it listed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mcpdesc_docs.config import ConfigError, default_slug, load_config
from mcpdesc_docs.errors import ExitCode

from .git_repos import git, isolate_git, published_sample
from .portal_projects import BROKEN, example_portal, small_tools
from .sites import parse, run, snapshot


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def config_problems(config: Path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    return [f"{d.line}:{d.column} {d.path} {d.message}" for d in caught.value.diagnostics]


# --- the config ------------------------------------------------------------------------


def test_descriptions_take_paths_globs_and_mappings(tmp_path: Path) -> None:
    for name in ("b.mcpdesc.yaml", "a.mcpdesc.yaml", "Team Tools.mcpdesc.json"):
        write(tmp_path / "servers" / name, small_tools("x", 1))
    write(tmp_path / "one.yaml", small_tools("one", 1))
    config = write(
        tmp_path / "mcpdesc-docs.yml",
        "descriptions:\n  - servers/*.mcpdesc.*\n  - {path: one.yaml, slug: first, group: Main}\n",
    )
    servers = load_config(config).descriptions
    assert [(s.slug, s.name, s.group) for s in servers] == [  # sorted by code point
        ("team-tools", "servers/Team Tools.mcpdesc.json", None),
        ("a", "servers/a.mcpdesc.yaml", None),
        ("b", "servers/b.mcpdesc.yaml", None),
        ("first", "one.yaml", "Main"),
    ]
    assert servers[1].path == tmp_path / "servers" / "a.mcpdesc.yaml"
    assert load_config(config).is_portal


def test_default_slugs_are_file_names_reduced() -> None:
    assert default_slug("dir/Help Desk.MCPDESC.YAML") == "help-desk"
    assert default_slug("api.json") == "api"
    assert default_slug("ünï.yaml") == "n"
    assert default_slug("___.yaml") == "server"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("description: a.yaml\ndescriptions: [a.yaml]\n", "1:1 /description 'description' and 'descriptions'"),
        ("descriptions: [a.yaml]\nprevious: a.yaml\n", "2:1 /previous 'previous' and 'descriptions'"),
        ("descriptions:\n  - a.yaml\n  - none/*.yaml\n", "3:5 /descriptions/1 'none/*.yaml' matches no"),
        ("descriptions: [missing.yaml]\n", "1:16 /descriptions/0 description file"),
        ("descriptions: []\n", "/descriptions 'descriptions' must be a non-empty list"),
        ("descriptions:\n  - {path: a.yaml, slug: Bad_Slug}\n", "/descriptions/0/slug slug 'Bad_Slug' must be"),
        ("descriptions:\n  - {path: a.yaml, slug: assets}\n", "/descriptions/0/slug slug 'assets' is reserved"),
        ("descriptions:\n  - {path: a.yaml, colour: red}\n", "/descriptions/0/colour unknown setting 'colour'"),
        ("descriptions:\n  - {path: '*.yaml', slug: x}\n", "/descriptions/0/slug 'slug' names one description"),
        ("descriptions:\n  - 42\n", "/descriptions/0 each 'descriptions' item"),
    ],
)
def test_config_mistakes_are_located(tmp_path: Path, text: str, expected: str) -> None:
    write(tmp_path / "a.yaml", small_tools("a", 1))
    write(tmp_path / "b.yaml", small_tools("b", 1))
    problems = config_problems(write(tmp_path / "mcpdesc-docs.yml", text))
    assert any(expected in problem for problem in problems), problems


def test_a_slug_used_twice_names_both_files(tmp_path: Path) -> None:
    write(tmp_path / "x" / "api.yaml", small_tools("a", 1))
    write(tmp_path / "y" / "api.yaml", small_tools("b", 1))
    problems = config_problems(write(tmp_path / "mcpdesc-docs.yml", "descriptions: [x/*.yaml, y/api.yaml]\n"))
    assert problems == [
        "1:26 /descriptions/1 slug 'api' of y/api.yaml is also that of x/api.yaml; give one of them another slug"
    ]


def test_a_file_named_twice_is_documented_once(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", small_tools("a", 1))
    config = write(tmp_path / "mcpdesc-docs.yml", "descriptions: [a.yaml, '*.yaml']\n")
    assert [s.slug for s in load_config(config).descriptions] == ["a"]


def test_a_file_whose_name_is_reserved_needs_a_slug(tmp_path: Path) -> None:
    write(tmp_path / "search.yaml", small_tools("a", 1))
    problems = config_problems(write(tmp_path / "mcpdesc-docs.yml", "descriptions: [search.yaml]\n"))
    assert "reserved name; give it a 'slug'" in problems[0]


# --- the build -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def portal(example_portal_site: Path) -> Path:
    return example_portal_site


def test_the_home_lists_every_server_by_title(portal: Path) -> None:
    config = load_config(portal.parent / "mcpdesc-docs.yml")
    home = parse(portal / "index.html")
    listed = {li["data-server"]: li for li in home.select("li[data-server]")}
    assert sorted(listed) == sorted(s.slug for s in config.descriptions)
    assert len(listed) == 11
    for server in config.descriptions:
        entry = json.loads((portal / server.slug / "portal-entry.json").read_text(encoding="utf-8"))
        item = listed[server.slug]
        assert item.select_one("strong").get_text() == entry["title"]
        assert item.select_one("a")["href"] == f"{server.slug}/index.html"
        assert item.select_one("[data-counts]").get_text(strip=True)
        for transport in entry["transports"]:
            assert transport in item.get_text()
        for version in entry["protocol_versions"]:
            assert version in item.get_text()
    # The title falls back to info.name: the real servers' titles are their own.
    assert "Everything" in listed["everything"].select_one("strong").get_text()


def test_each_server_has_its_own_site(portal: Path) -> None:
    entry = json.loads((portal / "filesystem" / "portal-entry.json").read_text(encoding="utf-8"))
    tools = [p for p in entry["pages"] if p["kind"] == "tool"]
    assert tools
    assert all((portal / "filesystem" / p["path"]).is_file() for p in tools)
    # A tool's page is named after the tool.
    assert all(p["path"] == f"tools/{p['name']}.html" for p in tools if p["name"].replace("_", "").isalnum())
    overview = parse(portal / "filesystem" / "index.html")
    assert overview.select_one("h1").get_text() == entry["title"]
    assert (portal / "filesystem" / "search-index.js").is_file()
    assert (portal / "assets" / "mcpdesc.css").is_file()
    assert (portal / "assets" / "mcpdesc-portal.js").is_file()
    assert not (portal / "filesystem" / "assets").exists()  # the servers share the portal's


def test_every_local_link_and_asset_of_a_server_resolves(portal: Path) -> None:
    pages = [portal / "filesystem" / "index.html", *sorted((portal / "filesystem").glob("*/*.html"))[:5]]
    for page in [*pages, portal / "filesystem" / "404.html"]:
        soup = parse(page)
        for element in soup.select("link[href], script[src], a[href]"):
            target = (element.get("href") or element.get("src")).split("#")[0]
            if not target or ":" in target:
                continue
            base = portal / "filesystem" if page.name == "404.html" else page.parent
            assert (base / target).resolve().is_file(), (page, target)
        assets = soup.select_one("html")["data-assets"]
        assert (page.parent / assets / "vendor" / "minisearch" / "minisearch.js").resolve().is_file()


def test_portal_pages_keep_the_policy_and_load_nothing_from_elsewhere(portal: Path) -> None:
    for page in ("index.html", "search.html", "tags/index.html", "capabilities/index.html", "404.html"):
        soup = parse(portal / page)
        policy = soup.select_one('meta[http-equiv="Content-Security-Policy"]')["content"]
        assert "script-src 'self'" in policy
        assert "style-src 'self'" in policy
        assert not soup.select("style")
        assert not soup.select("[style]")
        assert all(script.get("src") and not script.string for script in soup.select("script"))
        for element in soup.select("[href], [src]"):
            target = element.get("href") or element.get("src")
            assert "//" not in target or element.get("rel") == ["canonical"], target


def test_the_home_reads_without_javascript(portal: Path) -> None:
    home = parse(portal / "index.html")
    assert not home.select("[data-js-only]")  # nothing on it waits for a script
    assert len(home.select("li[data-server] a[href$='/index.html']")) == 11


def test_a_rejected_description_stops_the_build(tmp_path: Path) -> None:
    config = example_portal(tmp_path)
    assert run("build", str(config), "-j", "1")[0] == ExitCode.OK
    before = snapshot(tmp_path / "site")
    write(tmp_path / "servers" / "zz-broken.mcpdesc.yaml", BROKEN)
    code, out, err = run("build", str(config), "-j", "1")
    assert code == ExitCode.INVALID
    assert f"{tmp_path / 'servers' / 'zz-broken.mcpdesc.yaml'}:8:19: error[mcp.tool.input-schema.members]" in out
    assert "zz-broken.mcpdesc.yaml: rejected" in err
    assert "left unchanged" in err
    assert snapshot(tmp_path / "site") == before


@pytest.mark.parametrize("output_format", ["json", "sarif", "github"])
def test_rejected_descriptions_are_reported_in_every_format(tmp_path: Path, output_format: str) -> None:
    write(tmp_path / "good.yaml", small_tools("good", 1))
    write(tmp_path / "bad.yaml", BROKEN)
    config = write(tmp_path / "mcpdesc-docs.yml", "descriptions: [good.yaml, bad.yaml]\n")
    code, out, _ = run("build", str(config), "-j", "1", "--format", output_format)
    assert code == ExitCode.INVALID
    assert "bad.yaml" in out
    assert "mcp.tool.input-schema.members" in out
    if output_format != "github":
        json.loads(out)


def test_keep_going_publishes_the_others_and_lists_the_rejected(tmp_path: Path) -> None:
    config = example_portal(tmp_path, broken=True)
    code, _, err = run("build", str(config), "-j", "1", "--keep-going")
    assert code == ExitCode.OK, err
    site = tmp_path / "site"
    assert not (site / "zz-broken").exists()
    home = parse(site / "index.html")
    assert len(home.select("li[data-server]")) == 11
    assert home.select_one("a[href='rejected.html']")
    rejected = parse(site / "rejected.html")
    card = rejected.select_one("[data-rejected='zz-broken']")
    assert card.select_one("h2").get_text() == "servers/zz-broken.mcpdesc.yaml"
    text = card.get_text()
    assert "servers/zz-broken.mcpdesc.yaml:8:19" in text
    assert "'type' must be 'object'" in text
    # Quoted from the description, so escaped: text on the page, never markup.
    assert "<b>bold</b>" in text
    assert not rejected.select("main b, main script")
    assert "&lt;b&gt;bold&lt;/b&gt;" in (site / "rejected.html").read_text(encoding="utf-8")


def test_without_rejections_there_is_no_rejected_page(portal: Path) -> None:
    assert not (portal / "rejected.html").exists()
    assert not parse(portal / "index.html").select_one("a[href='rejected.html']")


def test_keep_going_and_shard_belong_to_portals(tmp_path: Path) -> None:
    description = write(tmp_path / "a.mcpdesc.yaml", small_tools("a", 1))
    code, _, err = run("build", str(description), "--keep-going")
    assert code == ExitCode.USAGE
    assert "apply to a portal" in err


def test_groups_head_the_catalogue(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        write(tmp_path / f"{name}.yaml", small_tools(name, 1))
    config = write(
        tmp_path / "mcpdesc-docs.yml",
        "descriptions:\n  - {path: c.yaml, group: Zeta}\n  - {path: b.yaml, group: Alpha}\n  - a.yaml\n",
    )
    assert run("build", str(config), "-j", "1")[0] == ExitCode.OK
    sections = parse(tmp_path / "site" / "index.html").select("main section")
    assert [(s.select_one("h2").get_text(), [li["data-server"] for li in s.select("li")]) for s in sections] == [
        ("Alpha", ["b"]),
        ("Zeta", ["c"]),
        ("Other servers", ["a"]),
    ]


def test_jobs_do_not_change_the_bytes(tmp_path: Path, portal: Path) -> None:
    shutil.copytree(portal.parent / "servers", tmp_path / "servers")
    shutil.copy(portal.parent / "mcpdesc-docs.yml", tmp_path / "mcpdesc-docs.yml")
    code, _, err = run("build", str(tmp_path), "-j", "2")
    assert code == ExitCode.OK, err
    assert snapshot(tmp_path / "site") == snapshot(portal)


def test_validate_checks_every_description_of_a_portal(tmp_path: Path) -> None:
    write(tmp_path / "good.yaml", small_tools("good", 1))
    write(tmp_path / "bad.yaml", BROKEN)
    config = write(tmp_path / "mcpdesc-docs.yml", "descriptions: [good.yaml, bad.yaml]\n")
    code, out, _ = run("validate", str(config))
    assert code == ExitCode.INVALID
    assert f"{tmp_path / 'good.yaml'}: valid" in out
    assert f"{tmp_path / 'bad.yaml'}:8:19: error[mcp.tool.input-schema.members]" in out
    write(tmp_path / "bad.yaml", small_tools("bad", 1))
    assert run("validate", str(tmp_path))[0] == ExitCode.OK


def test_gh_deploy_publishes_a_portal_whole_and_only_when_every_description_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git(monkeypatch, tmp_path)
    remote, source = published_sample(tmp_path)
    for name in ("alpha", "beta"):
        write(source / "servers" / f"{name}.mcpdesc.yaml", small_tools(name, 2))
    write(source / "mcpdesc-docs.yml", "site_name: Team servers\ndescriptions: [servers/*.mcpdesc.yaml]\n")
    git(source, "add", ".")
    git(source, "commit", "--quiet", "-m", "portal")
    code, _, err = run("gh-deploy", str(source))
    assert code == ExitCode.OK, err
    files = set(git(remote, "ls-tree", "-r", "--name-only", "gh-pages").splitlines())
    assert {"index.html", "alpha/index.html", "beta/tools/beta_tool_1.html", "search/chunk-0.js", "CNAME"} <= files
    assert ".mcpdesc-docs" not in files  # the build's own marker is not published
    assert "old-page.html" not in files
    home = git(remote, "show", "gh-pages:index.html")
    assert "Server alpha" in home
    assert "Server beta" in home
    assert not (source / "site").exists()
    # A rejected description publishes nothing (a portal deploy has no --keep-going).
    published = git(remote, "rev-parse", "gh-pages")
    write(source / "servers" / "gamma.mcpdesc.yaml", BROKEN)
    code, _, err = run("gh-deploy", str(source))
    assert code == ExitCode.INVALID
    assert "nothing published" in err
    assert git(remote, "rev-parse", "gh-pages") == published
    code, _, err = run("gh-deploy", str(source), "--version", "1.0")
    assert code == ExitCode.USAGE
    assert "published whole" in err


def test_every_server_page_leads_back_to_the_portal(portal: Path) -> None:
    for page in [portal / "filesystem" / "index.html", *sorted((portal / "filesystem" / "tools").glob("*.html"))[:3]]:
        home = parse(page).select_one("a[data-portal-home]")
        assert home.get_text() == "Example portal ›"
        assert (page.parent / home["href"]).resolve() == (portal / "index.html").resolve()


def test_a_portal_reports_a_description_as_validate_does(tmp_path: Path) -> None:
    write(tmp_path / "bad.yaml", "# a comment\n" * 50 + BROKEN)
    write(tmp_path / "worse.yaml", BROKEN)
    config = write(tmp_path / "mcpdesc-docs.yml", "descriptions: [bad.yaml, worse.yaml]\n")
    code, built, _ = run("build", str(config), "-j", "2")  # two servers: rendered in two workers
    assert code == ExitCode.INVALID
    assert built == run("validate", str(tmp_path / "bad.yaml"), str(tmp_path / "worse.yaml"))[1]
    assert "58 |     inputSchema" in built  # the source quoted, from a worker's result


def test_a_glob_skips_configs_and_the_sites_a_build_wrote(tmp_path: Path) -> None:
    from mcpdesc_docs.config import SITE_MARKER
    from mcpdesc_docs.output import MARKER

    assert SITE_MARKER == MARKER
    write(tmp_path / "servers" / "a.yaml", small_tools("a", 1))
    write(tmp_path / "servers" / "mcpdesc-docs.yaml", "descriptions: [a.yaml]\n")  # another project's
    config = write(tmp_path / "mcpdesc-docs.yml", "descriptions: ['**/*.yaml']\n")
    assert run("build", str(config), "-j", "1")[0] == ExitCode.OK
    assert (tmp_path / "site" / "a" / "description" / "a.yaml").is_file()
    assert [s.name for s in load_config(config).descriptions] == ["servers/a.yaml"]
    assert run("build", str(config), "-j", "1")[0] == ExitCode.OK
