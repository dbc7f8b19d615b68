"""The write stage: which directories a build may replace, and what interrupted builds leave."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest

from mcpdesc_docs import output
from mcpdesc_docs.output import (
    MARKER,
    PROBED_FILES,
    QUEUED_BYTES,
    SLOW_FILE_SECONDS,
    StagedSite,
    _FileWriter,
    delete_tree,
    remove_stale_staging,
    write_site,
)

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


def _writer_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "mcpdesc-docs writer"]


def test_every_staged_file_is_written_with_its_bytes_though_more_are_queued_than_fit(tmp_path):
    files = {f"d{i % 7}/page-{i}.html": bytes([i % 256]) * (i * 97 % 40_000) for i in range(500)}
    files["search-index.json"] = b"[" * (QUEUED_BYTES * 2)  # larger than the whole queue
    assert sum(map(len, files.values())) > QUEUED_BYTES * 10
    write_site(files, tmp_path / "site", threaded=True)
    site = tmp_path / "site"
    written = {str(p.relative_to(site)): p.read_bytes() for p in site.rglob("*") if p.is_file() and p.name != MARKER}
    assert written == files
    assert not _writer_threads()


def test_the_writer_holds_no_more_than_its_budget_of_unwritten_bytes(tmp_path, monkeypatch):
    release = threading.Event()
    monkeypatch.setattr(output, "_write_file", lambda path, content: release.wait(10))  # a stuck disk
    writer = _FileWriter(budget=100)
    assert sys.getswitchinterval() == pytest.approx(output.WRITER_SWITCH_INTERVAL)
    writer.put(tmp_path / "a", b"x" * 60)
    writer.put(tmp_path / "b", b"x" * 40)  # 100: full
    third = threading.Thread(target=writer.put, args=(tmp_path / "c", b"x"))
    third.start()
    third.join(0.3)
    assert third.is_alive()  # waits for room
    release.set()
    third.join(10)
    assert not third.is_alive()
    writer.finish()
    assert not _writer_threads()
    assert sys.getswitchinterval() == pytest.approx(0.005)  # Python's default, given back


def _stage_a_failing_write(site) -> None:
    with StagedSite(site, threaded=True) as staged:
        staged.write("a/index.html", b"x")
        staged.write("a", b"a file where the directory is: the writer thread fails")
        for i in range(200):
            staged.write(f"after-{i}.html", b"y")  # the failure is raised by one of these or by commit
        staged.commit()


def test_a_write_that_fails_in_the_writer_is_raised_and_the_previous_site_stays(tmp_path):
    site = tmp_path / "site"
    write_site({"index.html": b"before"}, site)
    with pytest.raises(IsADirectoryError):
        _stage_a_failing_write(site)
    assert (site / "index.html").read_bytes() == b"before"
    assert sorted(p.name for p in site.iterdir()) == [MARKER, "index.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    assert not _writer_threads()


def _stage_and_stop(site) -> None:
    with StagedSite(site, threaded=True) as staged:
        for i in range(QUEUED_BYTES // 10_000 * 4):
            staged.write(f"tools/t{i}.html", b"z" * 10_000)
        raise KeyboardInterrupt


def test_leaving_the_block_early_stops_the_writer_before_the_staging_goes(tmp_path):
    # Were the thread still writing when the staging directory is deleted, files would
    # appear in a directory nobody deletes again.
    with pytest.raises(KeyboardInterrupt):
        _stage_and_stop(tmp_path / "site")
    assert not _writer_threads()
    assert list(tmp_path.iterdir()) == []


class PretendedClock:
    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize(("seconds_a_file", "threaded"), [(0.0, False), (SLOW_FILE_SECONDS * 2, True)])
def test_a_thread_takes_the_writing_over_only_on_a_slow_disk(tmp_path, monkeypatch, seconds_a_file, threaded):
    written: dict[str, bytes] = {}
    # The disk's speed is pretended, and so is the clock that times it: a loaded machine
    # would otherwise make even writes to memory look slow.
    clock = PretendedClock()

    def pretended_disk(path, content):
        written[path.name] = content
        clock.now += seconds_a_file

    monkeypatch.setattr(output, "_write_file", pretended_disk)
    monkeypatch.setattr(output, "time", SimpleNamespace(perf_counter=clock.perf_counter, time=time.time))
    seen = []
    with StagedSite(tmp_path / "site") as staged:
        for i in range(PROBED_FILES * 3):
            staged.write(f"p{i}.html", b"x")
            seen.append(bool(_writer_threads()))
        staged.commit()
    assert seen[: PROBED_FILES - 1] == [False] * (PROBED_FILES - 1)  # judged after as many files
    assert seen[-1] is threaded
    assert sorted(written) == sorted(f"p{i}.html" for i in range(PROBED_FILES * 3))
    assert not _writer_threads()


def _large_tree(root, files):
    big = root / "tools"
    big.mkdir(parents=True)
    for index in range(files):
        (big / f"tool_{index:05}.html").write_bytes(b"x")
    (root / "tags" / "deep").mkdir(parents=True)
    (root / "tags" / "deep" / "work.html").write_bytes(b"y")
    (root / "index.html").write_bytes(b"z")


def test_deleting_a_site_removes_everything_but_what_its_links_point_to(tmp_path):
    outside = tmp_path / "outside"
    (outside / "keep").mkdir(parents=True)
    (outside / "keep" / "precious.txt").write_bytes(b"mine")
    (outside / "alone.txt").write_bytes(b"mine too")
    site = tmp_path / "site"
    _large_tree(site, 3 * output.FILES_PER_BATCH + 5)
    (site / "tools" / "to-a-directory").symlink_to(outside / "keep", target_is_directory=True)
    (site / "tools" / "to-a-file").symlink_to(outside / "alone.txt")
    (site / "tags" / "elsewhere").symlink_to(outside, target_is_directory=True)

    delete_tree(site)

    assert not site.exists()
    assert not site.is_symlink()
    assert (outside / "keep" / "precious.txt").read_bytes() == b"mine"
    assert (outside / "alone.txt").read_bytes() == b"mine too"
    delete_tree(site)  # gone already: nothing to do, nothing raised


def test_a_large_directory_is_unlinked_by_several_threads(tmp_path, monkeypatch):
    site = tmp_path / "site"
    _large_tree(site, 8 * output.FILES_PER_BATCH)
    unlinked_by: set[int] = set()
    unlink = os.unlink

    def slow_unlink(name, *, dir_fd=None):
        unlinked_by.add(threading.get_ident())
        time.sleep(0.0005)  # long enough that the batches overlap
        unlink(name, dir_fd=dir_fd)

    monkeypatch.setattr(os, "unlink", slow_unlink)
    delete_tree(site)
    assert not site.exists()
    assert len(unlinked_by) > 1
    assert threading.get_ident() in unlinked_by  # the small directories: this thread's


def test_a_symlinked_site_directory_is_not_followed(tmp_path):
    real = tmp_path / "real"
    _large_tree(real, 2 * output.FILES_PER_BATCH)
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    delete_tree(link)
    assert len(list((real / "tools").iterdir())) == 2 * output.FILES_PER_BATCH
