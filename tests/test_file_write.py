"""Writing a user's file: all or nothing, keeping its mode, owner and symlinks."""

from __future__ import annotations

import errno
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mcpdesc_docs.source import file_write
from mcpdesc_docs.source.file_write import FileWriteError, write_user_file

from .sites import load_data, run
from .test_describe import describe_to, stdio
from .test_migrate_edits import HAND_WRITTEN_080

ORIGINAL = "mcpdesc: '0.9.0'\n# the author's\n" * 200


def leftovers(folder: Path, *expected: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in expected)


def test_a_file_is_replaced_with_its_mode_kept(tmp_path):
    target = tmp_path / "d.mcpdesc.yaml"
    target.write_text(ORIGINAL, encoding="utf-8")
    target.chmod(0o664)
    write_user_file(target, "new: text\n")
    assert target.read_text(encoding="utf-8") == "new: text\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o664
    assert leftovers(tmp_path, target.name) == []


def test_a_new_file_gets_the_mode_open_would_give_it(tmp_path):
    previous = os.umask(0o027)
    try:
        write_user_file(tmp_path / "new.yaml", "a: 1\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o640


def test_a_symlink_stays_a_link_and_its_target_is_replaced(tmp_path):
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "d.yaml"
    real.write_text(ORIGINAL, encoding="utf-8")
    real.chmod(0o644)
    (tmp_path / "hop").symlink_to("real/d.yaml")
    link = tmp_path / "d.yaml"
    link.symlink_to("hop")
    write_user_file(link, "new: text\n")
    assert link.is_symlink()
    assert os.readlink(link) == "hop"
    assert real.read_text(encoding="utf-8") == "new: text\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    assert leftovers(tmp_path, "real", "hop", "d.yaml") == []
    assert leftovers(tmp_path / "real", "d.yaml") == []


def test_owner_and_group_are_kept_where_the_process_may(tmp_path):
    target = tmp_path / "d.yaml"
    target.write_text(ORIGINAL, encoding="utf-8")
    # Root may give a file to anyone; anyone else may pass it to a group they are in.
    owner, group = (4321, 8765) if os.geteuid() == 0 else (os.geteuid(), os.getgroups()[-1])
    os.chown(target, owner, group)
    target.chmod(0o640)
    write_user_file(target, "new: text\n")
    written = target.stat()
    assert (written.st_uid, written.st_gid) == (owner, group)
    assert stat.S_IMODE(written.st_mode) == 0o640


def test_a_failed_write_leaves_the_original_and_no_staging_file(tmp_path, monkeypatch):
    target = tmp_path / "d.yaml"
    target.write_text(ORIGINAL, encoding="utf-8")

    def disk_full(handle: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(file_write.os, "fsync", disk_full)
    with pytest.raises(FileWriteError) as raised:
        write_user_file(target, "new: text\n" * 1000)
    assert raised.value.errno == errno.ENOSPC
    assert raised.value.strerror == f"cannot write {target}: No space left on device; the file is as it was"
    assert target.read_text(encoding="utf-8") == ORIGINAL
    assert leftovers(tmp_path, target.name) == []


def test_a_target_that_is_not_a_regular_file_is_written_into(tmp_path):
    write_user_file(os.devnull, "discarded\n")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def _small_file_size_limit() -> None:
    # The write then fails with EFBIG (SIGXFSZ ignored), as on a disk that fills up.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))


def test_migrate_in_place_on_a_full_disk_leaves_the_original(tmp_path):
    source = tmp_path / "billing.mcpdesc.yaml"
    source.write_text(HAND_WRITTEN_080, encoding="utf-8")
    command = [sys.executable, "-m", "mcpdesc_docs", "migrate", str(source), "-o", str(source)]
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=_small_file_size_limit, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"cannot write {source}: File too large; the file is as it was" in done.stderr
    assert "Traceback" not in done.stderr
    assert source.read_text(encoding="utf-8") == HAND_WRITTEN_080
    assert leftovers(tmp_path, source.name) == []


@pytest.mark.slow  # starts a server or a whole build in a child process
def test_describe_update_keeps_the_mode_and_the_symlink(tmp_path):
    real = tmp_path / "kept" / "helpdesk.mcpdesc.yaml"
    real.parent.mkdir()
    describe_to(real)
    real.chmod(0o664)
    link = tmp_path / "helpdesk.mcpdesc.yaml"
    link.symlink_to(real)
    code, out, err = run("describe", "--stdio", stdio("--changed"), "--update", str(link))
    assert code == 0, out + err
    assert "refreshed" in err
    assert link.is_symlink()
    assert load_data(link)["info"]["version"] == "2.0.0"
    assert stat.S_IMODE(real.stat().st_mode) == 0o664
    assert leftovers(real.parent, real.name, "mcpdesc.schema.json") == []  # -o wrote the schema beside


@pytest.mark.slow  # starts a server or a whole build in a child process
def test_describe_output_over_a_file_on_a_full_disk_leaves_it(tmp_path, monkeypatch):
    target = tmp_path / "helpdesk.mcpdesc.yaml"
    target.write_text(ORIGINAL, encoding="utf-8")

    def disk_full(handle: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(file_write.os, "fsync", disk_full)
    code, _, err = run("describe", "--stdio", stdio(), "-o", str(target))
    assert code == 2
    assert f"cannot write {target}: No space left on device; the file is as it was" in err
    assert target.read_text(encoding="utf-8") == ORIGINAL
    assert leftovers(tmp_path, target.name) == []
