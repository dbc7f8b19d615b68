"""A portal rebuilt where one description changed re-renders that server (and the
portal's own pages) only, and gives the very site a build from scratch gives."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from mcpdesc_docs import output
from mcpdesc_docs.commands import portal as portal_command
from mcpdesc_docs.config import load_config
from mcpdesc_docs.errors import ExitCode
from mcpdesc_docs.portal import build as portal_build

from .portal_projects import BROKEN, generated_portal, small_tools
from .sites import parse, run, snapshot


def rebuild(config: Path, *, jobs: int = 1, keep_going: bool = False) -> list[str]:
    """Build in this process; the slugs of the servers rendered (the work done)."""
    built = portal_command.build(
        load_config(config),
        jobs=jobs,
        keep_going=keep_going,
        shard=None,
        output_format="text",
        out=io.StringIO(),
        err=io.StringIO(),
    )
    assert not isinstance(built, ExitCode)
    return built[0].rendered


@pytest.fixture
def project(tmp_path: Path) -> Path:
    config = generated_portal(tmp_path / "p", 6)
    assert len(rebuild(config)) == 6
    return config


def fresh_build(config: Path, tmp_path: Path) -> dict[str, bytes]:
    copy = tmp_path / "fresh"
    shutil.copytree(config.parent / "servers", copy / "servers")
    shutil.copy(config, copy / config.name)
    assert run("build", str(copy), "-j", "1")[0] == ExitCode.OK
    return snapshot(copy / "site")


def test_an_unchanged_portal_renders_nothing_again(project: Path) -> None:
    before = snapshot(project.parent / "site")
    assert rebuild(project) == []
    assert snapshot(project.parent / "site") == before


def test_one_changed_description_re_renders_that_server_only(project: Path, tmp_path: Path) -> None:
    changed = project.parent / "servers" / "s0003.mcpdesc.yaml"
    changed.write_text(small_tools("s0003", 4, summary="was edited"), encoding="utf-8")
    site = project.parent / "site"
    untouched = (site / "s0001" / "index.html").stat().st_ino
    other_tag, own_tag = (site / "tags" / "s0001.html").stat().st_ino, (site / "tags" / "s0003.html").stat().st_ino
    calls: list[str] = []
    real = portal_build.render_server

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args[1].slug)  # type: ignore[attr-defined]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(portal_build, "render_server", counted)
        assert rebuild(project) == ["s0003"]
    assert calls == ["s0003"]
    assert (site / "s0001" / "index.html").stat().st_ino == untouched  # moved, not written again
    assert (site / "tags" / "s0001.html").stat().st_ino == other_tag  # a portal page it is not on: kept
    assert (site / "tags" / "s0003.html").stat().st_ino != own_tag
    home = parse(site / "index.html")
    assert "4 tools" in home.select_one("li[data-server=s0003] [data-counts]").get_text()
    assert "was edited" in (site / "search" / "chunk-0.js").read_text(encoding="utf-8")
    assert snapshot(site) == fresh_build(project, tmp_path)


def test_a_changed_setting_re_renders_every_server(project: Path) -> None:
    project.write_text(project.read_text(encoding="utf-8") + "copyright: Example Ltd\n", encoding="utf-8")
    assert len(rebuild(project)) == 6
    assert "Example Ltd" in (project.parent / "site" / "s0002" / "index.html").read_text(encoding="utf-8")


def test_a_renamed_slug_or_a_missing_directory_is_rendered(project: Path) -> None:
    shutil.rmtree(project.parent / "site" / "s0004")
    assert rebuild(project) == ["s0004"]
    project.write_text(
        "descriptions:\n  - servers/s000[0-4].mcpdesc.yaml\n  - {path: servers/s0005.mcpdesc.yaml, slug: last}\n"
    )
    assert rebuild(project) == ["last"]
    assert not (project.parent / "site" / "s0005").exists()
    assert (project.parent / "site" / "last" / "index.html").is_file()


def test_a_rejected_description_leaves_the_kept_servers_in_place(project: Path) -> None:
    site = project.parent / "site"
    before = snapshot(site)
    (project.parent / "servers" / "s0002.mcpdesc.yaml").write_text(BROKEN, encoding="utf-8")
    code, _, _ = run("build", str(project), "-j", "1")
    assert code == ExitCode.INVALID
    assert snapshot(site) == before
    # Rejected, so neither rendered nor reused; the others are kept as they were.
    assert rebuild(project, keep_going=True) == []
    assert not (site / "s0002").exists()
    code, _, err = run("build", str(project), "-j", "1", "--keep-going")
    assert code == 0
    assert "5 of 6 servers published; 0 rendered, 5 unchanged" in err
    assert parse(site / "rejected.html").select_one("[data-rejected=s0002]")


def test_a_failed_swap_moves_the_kept_servers_back(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = project.parent / "site"
    before = snapshot(site)
    (project.parent / "servers" / "s0000.mcpdesc.yaml").write_text(small_tools("s0000", 2), encoding="utf-8")

    def failing(staging: Path, site_dir: Path) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(output, "_swap", failing)
    with pytest.raises(OSError, match="disk on fire"):
        rebuild(project)
    assert snapshot(site) == before


def test_serve_re_renders_only_the_edited_server(project: Path, tmp_path: Path) -> None:
    from mcpdesc_docs.devserver.project import ProjectBuilder

    builder = ProjectBuilder(project.parent, out=io.StringIO(), err=io.StringIO())
    first = builder.build()
    assert first.ok
    assert len(builder.portal.rendered) == 6
    assert project.parent / "servers" in builder.watch_paths()
    edited = project.parent / "servers" / "s0005.mcpdesc.yaml"
    edited.write_text(small_tools("s0005", 2, summary="served"), encoding="utf-8")
    second = builder.build([str(edited)])
    assert builder.portal.rendered == ["s0005"]
    assert second.files is not None
    assert b"served" in second.files["s0005/tools/s0005_tool_1.html"]
    built = fresh_build(project, tmp_path)
    assert dict(second.files) == {name: content for name, content in built.items() if name != output.MARKER}
    edited.write_text(BROKEN, encoding="utf-8")
    third = builder.build([str(edited)])
    assert builder.portal.rendered == ["s0005"]
    assert third.files is not None
    assert "s0005/index.html" not in third.files
    assert b'data-rejected="s0005"' in third.files["rejected.html"]
