"""A build in process gives the interpreter back as it found it: the collector's permanent
generation (``gc.freeze``) and the switch interval are changed only while pages are
rendered and written, and restored however the build ends."""

from __future__ import annotations

import errno
import gc
import sys
from pathlib import Path

import pytest

from mcpdesc_docs import output, pipeline
from mcpdesc_docs.errors import ExitCode
from mcpdesc_docs.process_switches import frozen_heap, switch_interval_at_most

from .sites import SAMPLE, build

CALLERS_INTERVAL = 0.003
"""Neither Python's default (0.005) nor what the writer thread sets."""
FILES_BEFORE_FAILING = 5


class Interrupted(Exception):
    """Stands in for the failure a case injects, so the test can tell it from any other."""


@pytest.fixture
def callers_interval():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(CALLERS_INTERVAL)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


@pytest.mark.parametrize("ending", ["built", "built, the caller's heap frozen", "interrupted", "disk full", "invalid"])
@pytest.mark.usefixtures("callers_interval")
def test_a_build_restores_the_collector_and_the_switch_interval(
    ending: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The writer thread takes over after the first file, as on a slow disk.
    monkeypatch.setattr(output, "PROBED_FILES", 1)
    monkeypatch.setattr(output, "SLOW_FILE_SECONDS", -1.0)
    while_writing: list[tuple[float, int]] = []
    write_file = output._write_file

    def watched_write(path: Path, content: bytes) -> None:
        while_writing.append((sys.getswitchinterval(), gc.get_freeze_count()))
        if ending == "disk full" and len(while_writing) > FILES_BEFORE_FAILING:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        write_file(path, content)

    monkeypatch.setattr(output, "_write_file", watched_write)
    render_site = pipeline.render_site

    def interrupted_render(*args, **kwargs):
        handed: list[str] = []
        sink = args[5]

        def failing_sink(path: str, content: bytes) -> None:
            handed.append(path)
            if len(handed) > FILES_BEFORE_FAILING:
                raise KeyboardInterrupt
            sink(path, content)

        return render_site(*args[:5], failing_sink, **kwargs)

    if ending == "interrupted":
        monkeypatch.setattr(pipeline, "render_site", interrupted_render)
    description = SAMPLE
    if ending == "invalid":
        description = tmp_path / "broken.mcpdesc.yaml"
        description.write_text("mcpdesc: 0.9.0\ninfo: {}\n", encoding="utf-8")
    if ending.endswith("frozen"):
        gc.freeze()
    try:
        frozen_before = gc.get_freeze_count()
        code, _, err = build(description, tmp_path / "site")
        frozen_after = gc.get_freeze_count()
    finally:
        if ending.endswith("frozen"):
            gc.unfreeze()

    expected = {"interrupted": ExitCode.INTERRUPTED, "disk full": 2, "invalid": ExitCode.INVALID}
    assert code == expected.get(ending, ExitCode.OK), err
    assert sys.getswitchinterval() == CALLERS_INTERVAL
    if frozen_before == 0:
        assert frozen_after == 0
    else:
        # The caller's objects stay frozen and none is added (frozen objects are still
        # freed by reference counting, so a few of the caller's may be gone).
        assert frozen_before * 0.9 < frozen_after <= frozen_before
    if ending == "invalid":
        assert while_writing == []
        return
    # The switches were really changed while the pages were written.
    assert min(interval for interval, _ in while_writing) == pytest.approx(output.WRITER_SWITCH_INTERVAL)
    if not ending.endswith("frozen"):
        assert min(frozen for _, frozen in while_writing) > 0


def test_a_heap_frozen_by_the_caller_is_left_to_the_caller() -> None:
    # Unfreezing our objects would unfreeze the caller's too: with something frozen, the
    # block freezes nothing and unfreezes nothing.
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with frozen_heap() as freeze_what_is_new:
            kept = [object() for _ in range(1000)]
            freeze_what_is_new()
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen
        assert kept
    finally:
        gc.unfreeze()


def failing_work(interval: float) -> None:
    with frozen_heap(), switch_interval_at_most(interval):
        assert sys.getswitchinterval() == pytest.approx(interval)
        raise Interrupted


def test_the_switches_are_restored_when_the_block_raises() -> None:
    interval = sys.getswitchinterval()
    frozen = gc.get_freeze_count()
    with pytest.raises(Interrupted):
        failing_work(interval / 10)
    assert sys.getswitchinterval() == interval
    assert gc.get_freeze_count() == frozen
