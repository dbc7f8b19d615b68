"""``gh-deploy``: publishing without touching the user's repository (``new``: tests/test_scaffold.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcpdesc_docs.publish.ghpages import github_pages_base

from .git_repos import git, isolate_git, published_sample
from .sites import SAMPLE_DIR, run


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path]:
    """A bare remote whose gh-pages branch holds a CNAME, and a clone with the sample."""
    return published_sample(tmp_path, untracked="notes.txt")


def repository_state(source: Path) -> tuple[str, ...]:
    return (
        git(source, "symbolic-ref", "HEAD"),
        git(source, "rev-parse", "HEAD"),
        git(source, "ls-files", "--stage"),
        git(source, "status", "--porcelain", "--untracked-files=all"),
        "\n".join(sorted(p.relative_to(source).as_posix() for p in source.rglob("*") if ".git" not in p.parts)),
    )


def test_deploy_publishes_the_site_and_keeps_the_cname(repos):
    remote, source = repos
    before = repository_state(source)
    head = git(source, "rev-parse", "HEAD")
    code, out, err = run("gh-deploy", str(source))
    assert code == 0, out + err
    files = set(git(remote, "ls-tree", "-r", "--name-only", "gh-pages").splitlines())
    assert {"index.html", ".nojekyll", "404.html", "tools/create_ticket.html", "tools/search_tickets.html"} <= files
    assert "old-page.html" not in files  # the whole tree is replaced
    assert git(remote, "show", "gh-pages:CNAME") == "docs.helpdesk.example.com"
    assert head[:12] in git(remote, "log", "-1", "--format=%s", "gh-pages")
    assert git(remote, "rev-list", "--count", "gh-pages") == "2"  # on top of the old site, not a rewrite
    # With a custom domain the site's address is known: 404.html works from any depth.
    assert '<base href="/">' in git(remote, "show", "gh-pages:404.html")
    assert repository_state(source) == before
    assert not (source / "site").exists()


def test_a_second_deploy_without_changes_makes_no_commit(repos):
    remote, source = repos
    assert run("gh-deploy", str(source))[0] == 0
    first = git(remote, "rev-parse", "gh-pages")
    code, _, err = run("gh-deploy", str(source))
    assert code == 0
    assert "unchanged" in err
    assert git(remote, "rev-parse", "gh-pages") == first


def test_an_invalid_description_publishes_nothing(repos):
    remote, source = repos
    before = git(remote, "rev-parse", "gh-pages")
    description = source / "helpdesk.mcpdesc.yaml"
    description.write_text(description.read_text().replace("mode: url", "mode: sms", 1))
    code, out, err = run("gh-deploy", str(source))
    assert code == 1
    assert "error[" in out
    assert "nothing published" in err
    assert git(remote, "rev-parse", "gh-pages") == before
    assert git(source, "branch", "--list", "gh-pages") == ""


def test_config_cname_wins_and_no_push_stays_local(repos):
    remote, source = repos
    remote_before = git(remote, "rev-parse", "gh-pages")
    config = source / "mcpdesc-docs.yml"
    config.write_text(config.read_text() + "cname: api-docs.example.org\n")
    code, _, err = run("gh-deploy", str(source), "--no-push", "--branch", "pages")
    assert code == 0, err
    assert git(source, "show", "pages:CNAME") == "api-docs.example.org"
    assert git(remote, "rev-parse", "gh-pages") == remote_before
    assert git(remote, "branch", "--list", "pages") == ""


def test_a_rejected_push_changes_nothing(repos):
    remote, source = repos
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'protected branch' >&2\nexit 1\n")
    hook.chmod(0o755)
    before = git(remote, "rev-parse", "gh-pages")
    code, _, err = run("gh-deploy", str(source))
    assert code == 2
    assert "rejected" in err
    assert git(remote, "rev-parse", "gh-pages") == before
    assert git(source, "branch", "--list", "gh-pages") == ""


def test_usage_errors(tmp_path, repos):
    _, source = repos
    outside = tmp_path / "plain"
    outside.mkdir()
    for name in ("mcpdesc-docs.yml", "helpdesk.mcpdesc.yaml"):
        shutil.copy(SAMPLE_DIR / name, outside / name)
    code, _, err = run("gh-deploy", str(outside))
    assert code == 2
    assert "not inside a git repository" in err
    code, _, err = run("gh-deploy", str(source), "--remote", "upstream")
    assert code == 2
    assert "no remote named 'upstream'" in err
    git(source, "checkout", "--quiet", "-b", "gh-pages")
    code, _, err = run("gh-deploy", str(source))
    assert code == 2
    assert "checked-out branch" in err


@pytest.mark.parametrize(
    ("remote", "cname", "expected"),
    [
        ("git@github.com:acme/helpdesk-mcp.git", None, "https://acme.github.io/helpdesk-mcp/"),
        ("https://github.com/Acme/helpdesk-mcp", None, "https://acme.github.io/helpdesk-mcp/"),
        ("https://github.com/acme/acme.github.io.git", None, "https://acme.github.io/"),
        ("https://github.com/acme/x.git", "docs.acme.dev", "https://docs.acme.dev/"),
        ("/srv/git/x.git", None, None),
    ],
)
def test_github_pages_address_from_the_remote(remote, cname, expected):
    assert github_pages_base(remote, cname) == expected


def test_a_full_ref_names_the_branch_and_other_refs_are_refused(repos):
    remote, source = repos
    code, _, err = run("gh-deploy", str(source), "--branch", "refs/heads/gh-pages")
    assert code == 0, err
    assert git(remote, "for-each-ref", "--format=%(refname)") == "refs/heads/gh-pages"
    code, _, err = run("gh-deploy", str(source), "--branch", "refs/tags/v1")
    assert code == 2
    assert "is not a branch" in err


@pytest.mark.parametrize("planted", ["evil.example.com/<script>", "x\n::add-mask::y", "docs..example.com", "localhost"])
def test_a_cname_on_the_branch_is_checked_like_the_config(tmp_path, planted):
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "init", "--quiet", "-b", "gh-pages", str(seed))
    (seed / "CNAME").write_text(planted + "\n")
    git(seed, "add", ".")
    git(seed, "commit", "--quiet", "-m", "site")
    git(seed, "push", "--quiet", str(remote), "gh-pages")
    source = tmp_path / "source"
    git(tmp_path, "init", "--quiet", "-b", "main", str(source))
    for name in ("mcpdesc-docs.yml", "helpdesk.mcpdesc.yaml"):
        shutil.copy(SAMPLE_DIR / name, source / name)
    git(source, "remote", "add", "origin", str(remote))
    before = git(remote, "rev-parse", "gh-pages")
    code, _, err = run("gh-deploy", str(source))
    assert code == 2
    assert "is not a domain name" in err
    assert git(remote, "rev-parse", "gh-pages") == before
