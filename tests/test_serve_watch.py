"""What ``serve`` watches: only what the site is made of, and what cannot be read is left out."""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcpdesc_docs.devserver.server import DevServer, serve
from mcpdesc_docs.devserver.watch import watch_roots

from .shared_data import ROOT
from .sites import SAMPLE_DIR
from .test_serve import get

NOBODY = 65534

WATCH_PROBE = """
import io, os, platform, sys, threading
from pathlib import Path
from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.devserver.server import DevServer

project = Path(sys.argv[1])
NOBODY = int(sys.argv[2])
server = DevServer(ProjectBuilder(project, out=io.StringIO(), err=sys.stderr), err=sys.stderr)
assert server.rebuild()  # as root here: everything the pipeline imports is loaded
# and what watchfiles imports when it starts (platform): the interpreter's own library
# may be one nobody cannot read (a pyenv build in root's home).
if os.geteuid() == 0:
    # Root reads every directory: watch as nobody, for whom the locked ones are locked.
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
watcher = threading.Thread(target=server.watch_loop, args=(server.file_changes(),), daemon=True)
watcher.start()
for edited in (project / "mcpdesc-docs.yml", project / "overrides" / "partials" / "note.html"):
    for attempt in range(40):  # rewrite until the watcher reports it: it may not be ready yet
        token = server.state_token
        edited.write_text(edited.read_text().rstrip("\\n") + "\\n" * (1 + attempt % 2))
        if server.wait_for_change(token, 0.5) != token:
            print("seen", edited.name, flush=True)
            break
    if not watcher.is_alive():
        break
server.close()
watcher.join(timeout=5)
"""


@pytest.fixture
def shared_project() -> Iterator[Path]:
    """A project that a user other than root may read: tests run as root here, and root
    reads every directory, so the probe watches as ``nobody`` (pytest's tmp_path is private)."""
    with tempfile.TemporaryDirectory(prefix="mcpdesc-serve-") as parent:
        root = Path(parent) / "project"
        root.mkdir()
        for name in ("mcpdesc-docs.yml", "helpdesk.mcpdesc.yaml"):
            shutil.copy(SAMPLE_DIR / name, root / name)
        with (root / "mcpdesc-docs.yml").open("a") as config:
            config.write("theme:\n  custom_dir: overrides\n")
        (root / "overrides" / "partials").mkdir(parents=True)
        (root / "overrides" / "partials" / "note.html").write_text("<!-- an include of the custom theme -->\n")
        # One directory serve may not read beside the description, one inside the custom_dir.
        locked = [root / "private", root / "overrides" / "private"]
        for directory in locked:
            directory.mkdir()
        if os.geteuid() == 0:
            for path in [Path(parent), *Path(parent).rglob("*")]:
                os.chown(path, NOBODY, NOBODY)
        for directory in locked:
            directory.chmod(0)
        yield root
        for directory in locked:
            directory.chmod(0o700)  # so the temporary directory can be removed


def test_unreadable_directories_are_left_out_and_serve_keeps_watching(shared_project):
    # Before: watchfiles listed the description's directory recursively and raised
    # PermissionError on "private" (serve ended with exit 2), and on the custom_dir's
    # "private" too once that was watched for itself.
    probe = subprocess.run(
        [sys.executable, "-c", WATCH_PROBE, str(shared_project), str(NOBODY)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=shared_project,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines() == ["seen mcpdesc-docs.yml", "seen note.html"], probe.stderr
    assert "PermissionError" not in probe.stderr


def test_only_what_the_site_is_made_of_is_watched(tmp_path):
    project = tmp_path / "project"
    (project / "overrides").mkdir(parents=True)
    description = project / "helpdesk.mcpdesc.yaml"
    description.write_text("")
    outside = tmp_path / "shared.css"
    outside.write_text("")
    roots = watch_roots([project / "mcpdesc-docs.yml", description, outside, project / "overrides"])
    # The directories holding a watched file are watched for their own entries, not their
    # subdirectories (a node_modules, a directory serve may not read).
    assert roots.directories == [str(project), str(tmp_path)]
    assert roots.trees == [str(project / "overrides")]
    # A file inside a watched tree adds no second watch that would report it twice.
    inside = watch_roots([project / "overrides", project / "overrides" / "extra.css"])
    assert inside == type(inside)([str(project / "overrides")], [])


def test_a_watcher_that_fails_leaves_the_site_served(tmp_path):
    from .test_devserver import FakeBuilder

    err = io.StringIO()
    holder: dict[str, DevServer] = {}

    def failing_watcher(server: DevServer) -> Iterator[set]:
        holder["server"] = server
        raise OSError(errno.ENOSPC, "OS file watch limit reached")
        yield set()

    thread = threading.Thread(
        target=serve,
        args=(FakeBuilder(tmp_path),),
        kwargs={"host": "127.0.0.1", "port": 0, "open_browser": False, "err": err, "changes": failing_watcher},
        daemon=True,
    )
    thread.start()
    deadline = time.monotonic() + 10
    while "serving the site as it is" not in err.getvalue():
        assert thread.is_alive(), err.getvalue()
        assert time.monotonic() < deadline, err.getvalue()
        time.sleep(0.02)
    server = holder["server"]
    assert get(server, "/index.html")[0] == 200
    server.stop_event.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert "cannot watch for changes: [Errno 28] OS file watch limit reached" in err.getvalue()
    assert "stopped" in err.getvalue()
