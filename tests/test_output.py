"""The write stage: which directories a build may replace, and what interrupted builds leave."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from mcpdesc_docs.output import MARKER, remove_stale_staging, write_site

from .sites import SAMPLE, build, snapshot


def test_a_site_carries_our_marker_and_can_be_rebuilt(tmp_path):
    site = tmp_path / "site"
    assert build(SAMPLE, site)[0] == 0
    assert (site / MARKER).is_file()
    assert build(SAMPLE, site)[0] == 0


def test_a_nojekyll_from_another_tool_is_not_our_mark(tmp_path):
    # MkDocs, Sphinx and Pages checkouts write .nojekyll too.
    other = tmp_path / "docs-site"
    other.mkdir()
    (other / ".nojekyll").write_text("")
    (other / "index.html").write_text('<meta name="generator" content="mkdocs-1.6">')
    before = snapshot(other)
    code, _, err = build(SAMPLE, other)
    assert code == 2
    assert f"no {MARKER}" in err
    assert snapshot(other) == before


def test_a_git_work_tree_is_never_replaced_even_when_it_looks_like_our_site(tmp_path):
    site = tmp_path / "site"
    assert build(SAMPLE, site)[0] == 0
    (site / ".git").mkdir()  # e.g. a gh-pages checkout someone built into
    (site / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    code, _, err = build(SAMPLE, site)
    assert code == 2
    assert "git work tree" in err
    assert (site / ".git" / "HEAD").is_file()


def test_a_site_from_before_the_marker_is_still_ours(tmp_path):
    site = tmp_path / "site"
    assert build(SAMPLE, site)[0] == 0
    (site / MARKER).unlink()  # as an earlier version wrote it: .nojekyll and our generator tag
    assert build(SAMPLE, site)[0] == 0
    assert (site / MARKER).is_file()


def dead_pid() -> int:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(child.stdout)


def test_what_an_interrupted_build_left_is_cleaned_and_a_running_ones_kept(tmp_path):
    dead = tmp_path / f".site.staging-{dead_pid()}-abc123"
    dead.mkdir()
    (dead / "index.html").write_text("half")
    retired = tmp_path / f".site.old-{dead_pid()}-zz9"
    retired.mkdir()
    running = tmp_path / f".site.staging-{os.getppid()}-keepme"  # a live process's build
    running.mkdir()
    unnamed = tmp_path / ".site.staging-q1w2e3r4"  # an older version's, without a pid
    unnamed.mkdir()
    hour_ago = time.time() - 2 * 3600
    os.utime(unnamed, (hour_ago, hour_ago))
    other = tmp_path / f".other.staging-{dead_pid()}-abc"  # another site's: not ours to judge here
    other.mkdir()
    remove_stale_staging(tmp_path, "site")
    assert not dead.exists()
    assert not retired.exists()
    assert not unnamed.exists()
    assert running.is_dir()
    assert other.is_dir()


def test_a_build_cleans_up_before_it_writes(tmp_path):
    leftover = tmp_path / f".site.staging-{dead_pid()}-left"
    leftover.mkdir()
    write_site({"index.html": b"x"}, tmp_path / "site")
    assert not leftover.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
