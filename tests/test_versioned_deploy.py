"""``gh-deploy --version``: versions side by side on the branch, in mike's layout, to a
local bare remote (git plumbing only, as in tests/test_deploy.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mcpdesc_docs.errors import UsageError
from mcpdesc_docs.publish.versions import Versions, read_versions, root_index, versions_json, versions_page
from mcpdesc_docs.render.version_menu import VersionEntry

from .git_repos import git, isolate_git, published_sample
from .sites import run


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path]:
    """A bare remote whose gh-pages branch holds a CNAME and an unversioned page, and a
    clone with the sample project."""
    return published_sample(tmp_path)


def deploy(source: Path, *args: str) -> str:
    code, out, err = run("gh-deploy", str(source), *args)
    assert code == 0, out + err
    return err


def branch_json(remote: Path) -> object:
    return json.loads(git(remote, "show", "gh-pages:versions.json"))


def tree_of(remote: Path, path: str) -> str:
    return git(remote, "rev-parse", f"gh-pages:{path}")


def html_files(remote: Path, directory: str) -> list[str]:
    listed = git(remote, "ls-tree", "-r", "--name-only", "gh-pages", f"{directory}/").splitlines()
    return [p for p in listed if p.endswith(".html")]


def page(remote: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup(git(remote, "show", f"gh-pages:{path}"), "html.parser")


def menu_links(remote: Path, path: str) -> list[str]:
    menus = page(remote, path).select("header details.version-menu")
    assert len(menus) == 1, path
    return [a["href"] for a in menus[0].select("a")]


def redirect_target(remote: Path) -> str:
    index = page(remote, "index.html")
    refresh = index.select_one('meta[http-equiv="refresh"]')
    assert refresh is not None
    assert index.find("script") is None  # the pages' CSP forbids inline scripts: no script at all
    target = refresh["content"].split("url=", 1)[1]
    assert next(a["href"] for a in index.select("body a")) == target  # a plain link as well
    return target


def test_two_versions_and_an_alias(repos):
    remote, source = repos
    deploy(source, "--version", "1.0", "--alias", "latest")
    assert branch_json(remote) == [{"version": "1.0", "title": "1.0", "aliases": ["latest"]}]
    old_tree = tree_of(remote, "1.0")
    old_pages = {p: git(remote, "show", f"gh-pages:{p}") for p in html_files(remote, "1.0")}

    err = deploy(source, "--version", "2.0", "--alias", "latest", "--title", "2.0 (current)")
    assert "alias 'latest' moved to '2.0'" in err
    assert branch_json(remote) == [
        {"version": "2.0", "title": "2.0 (current)", "aliases": ["latest"]},
        {"version": "1.0", "title": "1.0", "aliases": []},
    ]
    root = set(git(remote, "ls-tree", "--name-only", "gh-pages").splitlines())
    assert root == {
        *("1.0", "2.0", "latest", "CNAME", ".nojekyll"),
        *("index.html", "404.html", "versions.json", "versions.html"),
    }
    # A missing path gets the default's 404 page, whose <base> leads into its version.
    assert git(remote, "show", "gh-pages:404.html") == git(remote, "show", "gh-pages:latest/404.html")
    assert git(remote, "show", "gh-pages:CNAME") == "docs.helpdesk.example.com"
    # The old version is the very tree it was: not a byte of its pages changed.
    assert tree_of(remote, "1.0") == old_tree
    assert {p: git(remote, "show", f"gh-pages:{p}") for p in html_files(remote, "1.0")} == old_pages
    # The alias is a copy of its version (the same git tree), moved off the old one.
    assert tree_of(remote, "latest") == tree_of(remote, "2.0")
    assert redirect_target(remote) == "latest/index.html"
    assert git(remote, "rev-list", "--count", "gh-pages") == "3"  # on top of the old site

    # Every page of the new version has the menu, with the versions known at its build.
    pages = html_files(remote, "2.0")
    assert {"2.0/index.html", "2.0/404.html", "2.0/tools/create_ticket.html"} <= set(pages)
    for path in pages:
        up = "../" * (path.count("/") - 1)  # from the page to its version's root
        assert menu_links(remote, path) == [
            f"{up}../2.0/index.html",
            f"{up}../1.0/index.html",
            f"{up}../versions.html",
        ], path
    current = page(remote, "2.0/tools/create_ticket.html").select('details.version-menu a[aria-current="true"]')
    assert [a.get_text() for a in current] == ["2.0 (current)"]
    assert menu_links(remote, "1.0/index.html") == ["../1.0/index.html", "../versions.html"]  # built before 2.0 existed
    # The version's address is under its directory: canonical links, and 404.html's <base>.
    canonical = page(remote, "2.0/tools/create_ticket.html").select_one('link[rel="canonical"]')
    assert canonical["href"] == "https://docs.helpdesk.example.com/2.0/tools/create_ticket.html"
    assert page(remote, "2.0/404.html").select_one("base")["href"] == "/2.0/"
    # versions.html is the list that is always current.
    listed = page(remote, "versions.html")
    assert [(a["href"], a.get_text()) for a in listed.select("li a")] == [
        ("2.0/index.html", "2.0 (current)"),
        ("1.0/index.html", "1.0"),
    ]


def test_redeploying_a_version_keeps_its_title_and_aliases(repos):
    remote, source = repos
    deploy(source, "--version", "2.0", "--alias", "latest", "--alias", "stable", "--title", "Two")
    deploy(source, "--version", "1.0")
    deploy(source, "--version", "2.0", "--alias", "latest")  # its menu now lists 1.0
    err = deploy(source, "--version", "2.0", "--alias", "latest")
    assert "unchanged" in err  # same build, same list: no commit
    description = source / "helpdesk.mcpdesc.yaml"
    description.write_text(description.read_text().replace("Create a ticket", "Open a ticket", 1))
    deploy(source, "--version", "2.0")
    assert branch_json(remote) == [
        {"version": "2.0", "title": "Two", "aliases": ["latest", "stable"]},
        {"version": "1.0", "title": "1.0", "aliases": []},
    ]
    assert tree_of(remote, "latest") == tree_of(remote, "stable") == tree_of(remote, "2.0")
    assert redirect_target(remote) == "latest/index.html"  # the first deploy's alias became the default


def test_deleting_a_version_and_setting_the_default(repos):
    remote, source = repos
    deploy(source, "--version", "1.0", "--alias", "old")
    deploy(source, "--version", "2.0", "--alias", "latest")
    assert redirect_target(remote) == "old/index.html"  # set by the first versioned deploy
    kept = tree_of(remote, "2.0")

    deploy(source, "--set-default", "latest")
    assert redirect_target(remote) == "latest/index.html"
    assert tree_of(remote, "2.0") == kept

    err = deploy(source, "--delete-version", "1.0")
    assert branch_json(remote) == [{"version": "2.0", "title": "2.0", "aliases": ["latest"]}]
    root = set(git(remote, "ls-tree", "--name-only", "gh-pages").splitlines())
    assert "1.0" not in root
    assert "old" not in root
    assert tree_of(remote, "2.0") == kept
    assert "default" not in err  # the default was latest, still there
    assert [a["href"] for a in page(remote, "versions.html").select("li a")] == ["2.0/index.html"]

    deploy(source, "--set-default", "2.0")
    assert redirect_target(remote) == "2.0/index.html"
    err = deploy(source, "--delete-version", "2.0")
    assert "no version is left" in err
    assert branch_json(remote) == []
    assert set(git(remote, "ls-tree", "--name-only", "gh-pages").splitlines()) == {
        "CNAME",
        ".nojekyll",
        "versions.json",
    }  # no version left: no root page, no 404 page


def test_the_default_follows_when_its_version_is_deleted(repos):
    remote, source = repos
    deploy(source, "--version", "1.0")
    deploy(source, "--version", "1.1")
    assert redirect_target(remote) == "1.0/index.html"  # the first version, until told otherwise
    deploy(source, "--version", "0.9", "--set-default", "1.1")
    assert redirect_target(remote) == "1.1/index.html"
    err = deploy(source, "--delete-version", "1.1")
    assert "the default is now '1.0'" in err  # the newest left
    assert redirect_target(remote) == "1.0/index.html"
    assert [e["version"] for e in branch_json(remote)] == ["1.0", "0.9"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--version", "2.0", "--alias", "1.0"), "is a version already"),
        (("--version", "latest"), "is an alias of '1.0'"),
        (("--version", "2.0", "--alias", "2.0"), "both the version and one of its aliases"),
        (("--version", "../x"), "not a plain name"),
        (("--version", "versions.json"), "not a plain name"),
        (("--version", "2.0", "--alias", "a b"), "not a plain name"),
        (("--delete-version", "9.9"), "no version '9.9'"),
        (("--delete-version", "latest"), "alias of '1.0'"),
        (("--set-default", "9.9"), "no version or alias '9.9'"),
        (("--alias", "x"), "give --version too"),
        (("--delete-version", "1.0", "--set-default", "1.0"), "a change of its own"),
        ((), "would replace every version"),
    ],
)
def test_refusals_leave_the_branch_as_it_was(repos, args, message):
    remote, source = repos
    deploy(source, "--version", "1.0", "--alias", "latest")
    before = git(remote, "rev-parse", "gh-pages")
    code, _, err = run("gh-deploy", str(source), *args)
    assert code == 2, err
    assert message in err
    assert git(remote, "rev-parse", "gh-pages") == before


def test_an_invalid_description_publishes_no_version(repos):
    remote, source = repos
    before = git(remote, "rev-parse", "gh-pages")
    description = source / "helpdesk.mcpdesc.yaml"
    description.write_text(description.read_text().replace("mode: url", "mode: sms", 1))
    code, _out, err = run("gh-deploy", str(source), "--version", "1.0")
    assert code == 1
    assert "nothing published" in err
    assert git(remote, "rev-parse", "gh-pages") == before


def entries(*names: str) -> tuple[VersionEntry, ...]:
    return tuple(VersionEntry(n, n) for n in names)


def test_versions_sort_newest_first_as_mike_sorts_them():
    versions = Versions()
    for name in ("1.0", "dev", "10.0", "9.1", "1.10", "2.0.1", "2.0"):
        versions = versions.deploy(name, (), None)
    assert [e.version for e in versions.entries] == ["10.0", "9.1", "2.0.1", "2.0", "1.10", "1.0", "dev"]


def test_mikes_branch_is_read_with_its_default():
    mike_index = (
        b'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Redirecting</title>'
        b'<noscript><meta http-equiv="refresh" content="1; url=latest/" /></noscript>'
        b"</head><body>Redirecting to <a href='latest/'>latest/</a>...</body></html>"
    )
    listed = (
        b'[{"version": "1.0", "title": "One", "aliases": []},'
        b' {"version": "2.0", "title": "2.0", "aliases": ["latest"]}]'
    )
    versions = read_versions(listed, mike_index)
    assert [e.version for e in versions.entries] == ["2.0", "1.0"]
    assert versions.default == "latest"
    assert json.loads(versions_json(versions)) == [
        {"version": "2.0", "title": "2.0", "aliases": ["latest"]},
        {"version": "1.0", "title": "One", "aliases": []},
    ]
    assert read_versions(listed, root_index("1.0")).default == "1.0"
    assert read_versions(listed, root_index("gone")).default is None  # not one of the versions


@pytest.mark.parametrize(
    "listed",
    [
        b"{",
        b'{"version": "1.0"}',
        b'[{"version": "../etc"}]',
        b'[{"version": "a/b"}]',
        b'[{"version": ".."}]',
        b'[{"version": "index.html"}]',
        b'[{"version": "1.0", "aliases": "latest"}]',
        b'[{"version": "1.0", "title": 3}]',
        b'[{"version": "1.0", "aliases": ["x"]}, {"version": "2.0", "aliases": ["x"]}]',
        b'[{"version": "1.0\\u0007"}]',
        b"[" + b'{"version": "1"},' * 1000 + b'{"version": "2"}]',
    ],
)
def test_a_versions_file_that_is_not_mikes_format_is_refused(listed):
    with pytest.raises(UsageError):
        read_versions(listed, None)


def test_titles_from_the_branch_are_escaped_everywhere():
    hostile = '<script>alert(1)</script>"'
    versions = read_versions(json.dumps([{"version": "1.0", "title": hostile, "aliases": ["a&b"]}]).encode(), None)
    text = versions_page(versions, "<b>Site</b>").decode()
    assert "<script>" not in text
    assert "<b>" not in text
    assert "&lt;script&gt;" in text
    assert "a&amp;b" in text


def test_a_hostile_versions_file_on_the_branch_is_escaped_in_the_menu(tmp_path, repos):
    remote, source = repos
    seed = tmp_path / "seed"
    hostile = '<img src=x onerror="alert(1)">'
    listed = [{"version": "1.0", "title": hostile, "aliases": ["<b>old"]}]
    (seed / "versions.json").write_text(json.dumps(listed))
    git(seed, "add", ".")
    git(seed, "commit", "--quiet", "-m", "versions of another tool")
    git(seed, "push", "--quiet", str(remote), "gh-pages")
    deploy(source, "--version", "2.0")
    menu = page(remote, "2.0/index.html").select_one("header details.version-menu")
    assert menu.find("img") is None
    assert menu.find("b") is None
    assert hostile in menu.get_text()
    assert "<b>old" in menu.get_text()
    assert page(remote, "versions.html").find("img") is None


def test_mikes_properties_are_kept_and_an_alias_given_twice_is_listed_once():
    listed = b'[{"version": "1.0", "title": "1.0", "aliases": [], "properties": {"eol": true}}]'
    versions = read_versions(listed, None).deploy("2.0", ("latest", "latest"), None)
    assert json.loads(versions_json(versions)) == [
        {"version": "2.0", "title": "2.0", "aliases": ["latest"]},
        {"version": "1.0", "title": "1.0", "aliases": [], "properties": {"eol": True}},
    ]
    assert json.loads(versions_json(versions.delete("1.0"))) == [
        {"version": "2.0", "title": "2.0", "aliases": ["latest"]}
    ]
