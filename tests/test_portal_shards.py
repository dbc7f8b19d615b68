"""``build --shard K/N -o DIR`` and ``merge DIR... -o SITE``: the shards merged are the
single build, byte for byte; and the portal's own pages grow linearly with the servers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcpdesc_docs.config import load_config
from mcpdesc_docs.errors import ExitCode
from mcpdesc_docs.portal.assemble import PortalSettings, assemble
from mcpdesc_docs.portal.build import SHARD_FILE, parse_shard, shard_servers
from mcpdesc_docs.portal.entry import PagePoint, ServerEntry

from .portal_projects import example_portal
from .sites import run, snapshot
from .work_counts import calls


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_portal(tmp_path_factory.mktemp("portal"), broken=True)


@pytest.fixture(scope="module")
def single(project: Path) -> dict[str, bytes]:
    code, _, err = run("build", str(project), "-j", "1", "--keep-going")
    assert code == ExitCode.OK, err
    return snapshot(project.parent / "site")


@pytest.mark.parametrize("count", [1, 3, 5])
def test_shards_merged_equal_a_single_build(
    project: Path, single: dict[str, bytes], tmp_path: Path, count: int
) -> None:
    shards = [tmp_path / f"shard-{k}" for k in range(1, count + 1)]
    for number, shard in enumerate(shards, start=1):
        code, _, err = run("build", str(project), "--shard", f"{number}/{count}", "-o", str(shard), "--keep-going")
        assert code == ExitCode.OK, err
        assert (shard / SHARD_FILE).is_file()
    code, _, err = run("merge", *map(str, reversed(shards)), "-o", str(tmp_path / "site"))
    assert code == ExitCode.OK, err
    merged = snapshot(tmp_path / "site")
    assert SHARD_FILE not in merged
    assert merged == single
    assert "rejected.html" in merged


def test_shards_split_the_servers_without_overlap(project: Path) -> None:
    servers = load_config(project).descriptions
    parts = [shard_servers(servers, (k, 4)) for k in range(1, 5)]
    slugs = [s.slug for part in parts for s in part]
    assert sorted(slugs) == sorted(s.slug for s in servers)
    assert all(abs(len(part) - len(servers) / 4) < 1 for part in parts)


def test_a_shard_of_a_rejected_description_fails_without_keep_going(project: Path, tmp_path: Path) -> None:
    slug_shard = next(
        k
        for k in range(1, 4)
        if any(s.slug == "zz-broken" for s in shard_servers(load_config(project).descriptions, (k, 3)))
    )
    code, _, err = run("build", str(project), "--shard", f"{slug_shard}/3", "-o", str(tmp_path / "s"))
    assert "zz-broken.mcpdesc.yaml: rejected" in err
    assert code == ExitCode.INVALID
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("text", ["0/3", "4/3", "x", "1/0", "1/", "/2"])
def test_a_malformed_shard_is_a_usage_error(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_shard(text) is None
    code, _, _ = run("build", ".", "--shard", text)
    assert code == ExitCode.USAGE
    assert "K/N" in capsys.readouterr().err  # argparse's own message


def test_a_shard_needs_an_output_directory(project: Path) -> None:
    code, _, err = run("build", str(project), "--shard", "1/2")
    assert code == ExitCode.USAGE
    assert "-o" in err


def test_merge_needs_every_shard_once(project: Path, tmp_path: Path) -> None:
    for number in (1, 2):
        run("build", str(project), "--shard", f"{number}/3", "-o", str(tmp_path / f"s{number}"), "--keep-going")
    site = tmp_path / "site"
    code, _, err = run("merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "-o", str(site))
    assert code == ExitCode.USAGE
    assert "shards 1 to 3" in err
    code, _, err = run("merge", str(tmp_path / "s1"), str(tmp_path / "s1"), str(tmp_path / "s2"), "-o", str(site))
    assert code == ExitCode.USAGE
    code, _, err = run("merge", str(project.parent / "servers"), "-o", str(site))
    assert code == ExitCode.USAGE
    assert SHARD_FILE in err
    assert not site.exists()


def test_a_shard_record_naming_a_path_outside_is_refused(project: Path, tmp_path: Path) -> None:
    shard = tmp_path / "s1"
    run("build", str(project), "--shard", "1/1", "-o", str(shard), "--keep-going")
    record = json.loads((shard / SHARD_FILE).read_text(encoding="utf-8"))
    record["servers"].append("../../etc")
    (shard / SHARD_FILE).write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run("merge", str(shard), "-o", str(tmp_path / "site"))
    assert code == ExitCode.USAGE
    assert "not a shard's record" in err
    assert not (tmp_path / "site").exists()


def entries(count: int) -> list[ServerEntry]:
    pages = tuple(
        PagePoint("tool", f"tool_{i}", f"Tool {i}", f"tools/tool_{i}.html", "Does things.", ("shared", f"t{i % 3}"))
        for i in range(20)
    )
    return [
        ServerEntry(
            slug=f"s{n:05d}",
            key="k",
            source=f"s{n:05d}.yaml",
            group=f"group {n % 4}",
            title=f"Server {n}",
            name=f"server-{n}",
            version="1",
            summary="A server.",
            transports=("stdio",),
            counts=(("tool", 20),),
            tags=("shared", "t0", "t1", "t2", f"own-{n}"),
            protocol_versions=("2025-11-25",),
            risk=(("read-only", 20),),
            capabilities=("tools", f"x-{n % 5}"),
            pages=pages,
            html_pages=25,
        )
        for n in range(count)
    ]


def test_the_portal_pages_grow_linearly() -> None:
    settings = PortalSettings("P", None, None, None, (), "default", None)
    sizes: dict[int, tuple[int, int, int]] = {}
    for count in (100, 200):
        written: dict[str, bytes] = {}
        work = calls(lambda written=written, count=count: assemble(settings, entries(count), [], written.__setitem__))
        chunks = sum(len(v) for k, v in written.items() if k.startswith("search/"))
        sizes[count] = (work, len(written), chunks + len(written["index.html"]))
    (work_n, files_n, bytes_n), (work_2n, files_2n, bytes_2n) = sizes[100], sizes[200]
    assert work_2n < 2.3 * work_n
    assert files_2n < 2.3 * files_n
    assert bytes_2n < 2.3 * bytes_n


@pytest.mark.parametrize(
    "damage",
    [
        lambda entry: entry.update(slug="other"),
        lambda entry: entry["pages"].append({**entry["pages"][0], "path": "../../escape.html"}),
        lambda entry: entry.pop("title"),
        lambda entry: entry.update(pages="tools"),
    ],
)
def test_a_damaged_entry_in_a_shard_is_refused(project: Path, tmp_path: Path, damage: object) -> None:
    shard = tmp_path / "s1"
    run("build", str(project), "--shard", "1/1", "-o", str(shard), "--keep-going")
    file = shard / "filesystem" / "portal-entry.json"
    entry = json.loads(file.read_text(encoding="utf-8"))
    damage(entry)  # type: ignore[operator]
    file.write_text(json.dumps(entry), encoding="utf-8")
    code, _, err = run("merge", str(shard), "-o", str(tmp_path / "site"))
    assert code == ExitCode.USAGE
    assert "portal-entry.json" in err
    assert not (tmp_path / "site").exists()
