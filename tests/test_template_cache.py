"""The compiled-template cache: used when safe, invalidated by edits, never a reason to fail."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from mcpdesc_docs.render.template_cache import CACHE_DIR_VARIABLE, template_cache

from .sites import SAMPLE, run, snapshot
from .test_theme import project


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(directory))
    return directory


def forbid_compiling(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: object, name: str | None = None, *args: object) -> object:
        compiled.append(str(name))
        return original(self, source, name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return compiled


def test_second_build_loads_compiled_templates_and_writes_the_same_site(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = forbid_compiling(monkeypatch)
    assert run("build", str(SAMPLE), "-o", str(tmp_path / "one"))[0] == 0
    assert compiled  # a cold cache compiles
    assert sorted(p.stat().st_mode & 0o777 for p in [cache_dir]) == [0o700]
    compiled.clear()
    assert run("build", str(SAMPLE), "-o", str(tmp_path / "two"))[0] == 0
    assert compiled == []
    assert snapshot(tmp_path / "one") == snapshot(tmp_path / "two")


def test_an_edited_override_is_compiled_again(tmp_path: Path, cache_dir: Path) -> None:
    root = project(tmp_path, {"404.html": '{% extends "base/404.html" %}{% block title %}First{% endblock %}'})
    assert run("build", str(root))[0] == 0
    assert "<title>First</title>" in (root / "site" / "404.html").read_text()
    (root / "overrides" / "404.html").write_text('{% extends "base/404.html" %}{% block title %}Second{% endblock %}')
    assert run("build", str(root))[0] == 0
    assert "<title>Second</title>" in (root / "site" / "404.html").read_text()


def test_unsafe_or_unusable_cache_directories_are_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)  # others could plant compiled code here
    a_file = tmp_path / "file"
    a_file.write_text("")
    for directory in (str(shared), str(a_file), str(a_file / "below"), ""):
        monkeypatch.setenv(CACHE_DIR_VARIABLE, directory)
        assert template_cache(("options",)) is None, directory
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(tmp_path / "fresh"))
    assert template_cache(("options",)) is not None


def test_a_build_works_when_the_cache_cannot_be_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(blocker / "cache"))
    code, _, err = run("build", str(SAMPLE), "-o", str(tmp_path / "site"))
    assert code == 0, err


@pytest.mark.parametrize("kept", [0, 5, 40, 200])
def test_a_corrupt_cache_entry_is_compiled_again(
    kept: int, tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("build", str(SAMPLE), "-o", str(tmp_path / "one"))[0] == 0
    entries = sorted(cache_dir.iterdir())
    assert entries
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:kept])  # truncated, as after a full disk
    compiled = forbid_compiling(monkeypatch)
    assert run("build", str(SAMPLE), "-o", str(tmp_path / "two"))[0] == 0
    assert compiled
    assert snapshot(tmp_path / "one") == snapshot(tmp_path / "two")


def test_the_cache_key_covers_the_environment_options(cache_dir: Path) -> None:
    first, second = template_cache(("a",)), template_cache(("b",))
    assert isinstance(first, jinja2.FileSystemBytecodeCache)
    assert isinstance(second, jinja2.FileSystemBytecodeCache)
    assert first.pattern != second.pattern
