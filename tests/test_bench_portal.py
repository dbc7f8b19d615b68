"""The portal bench: its generator writes N valid, varied descriptions of about 20
primitives each (the same for the same seed) and the config naming them; its memory
figure sums the whole process tree. (The portal build it times is ``build``'s.)"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from .sites import load_data, run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import PORTAL_PRIMITIVES, write_portal
from portal import change_one_title
from tree_memory import TreeMemory


@pytest.fixture(scope="module")
def portal(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("portal")
    write_portal(4, project, seed=7)
    return project


def descriptions(project: Path) -> list[Path]:
    return sorted((project / "servers").glob("*.mcpdesc.yaml"))


def test_one_description_a_file_and_the_config_names_them(portal):
    assert [p.name for p in descriptions(portal)] == [f"server-000{i}.mcpdesc.yaml" for i in range(4)]
    config = yaml.safe_load((portal / "mcpdesc-docs.yml").read_text(encoding="utf-8"))
    assert config["descriptions"] == ["servers/*.mcpdesc.yaml"]
    assert sorted(p for pattern in config["descriptions"] for p in portal.glob(pattern)) == descriptions(portal)


def test_every_description_is_valid_with_about_20_varied_primitives(portal):
    code, out, _ = run("validate", "--strict", *map(str, descriptions(portal)))
    assert code == 0, out
    documents = [load_data(path) for path in descriptions(portal)]
    for document in documents:
        count = sum(len(document[kind]) for kind in ("tools", "resources", "prompts"))
        assert abs(count - PORTAL_PRIMITIVES) <= 2, count
        assert document["resources"]
        assert document["prompts"]
        assert document["tags"]
    tools = [tool for document in documents for tool in document["tools"]]
    assert any("elicitations" in tool for tool in tools)
    assert not all("elicitations" in tool for tool in tools)
    assert len({len(document["tools"]) for document in documents}) > 1
    assert len({document["info"]["title"] for document in documents}) == len(documents)


def test_the_same_seed_writes_the_same_files_and_another_seed_others(portal, tmp_path):
    write_portal(4, tmp_path / "again", seed=7)
    write_portal(4, tmp_path / "other", seed=8)
    same = [p.read_bytes() for p in descriptions(portal)]
    assert [p.read_bytes() for p in descriptions(tmp_path / "again")] == same
    assert [p.read_bytes() for p in descriptions(tmp_path / "other")] != same


def test_the_changed_description_differs_in_its_title_only(tmp_path):
    write_portal(2, tmp_path, seed=1)
    before = load_data(descriptions(tmp_path)[0])
    changed = change_one_title(tmp_path)
    after = load_data(changed)
    assert after["info"]["title"] != before["info"]["title"]
    assert {**after, "info": {**after["info"], "title": before["info"]["title"]}} == before


HOLD = "import sys; held = bytearray(b'x') * ({mib} << 20); print('ready', flush=True); sys.stdin.read()"


def test_the_memory_of_a_process_tree_is_summed_over_its_processes():
    # A child holding 64 MiB that started a grandchild holding 48 MiB; both wait on stdin.
    child_code = (
        "import subprocess, sys\n"
        f"grandchild = subprocess.Popen([sys.executable, '-c', {HOLD.format(mib=48)!r}], stdout=subprocess.PIPE)\n"
        "grandchild.stdout.readline()\n"
        f"exec({HOLD.format(mib=64)!r})\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", child_code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None
        assert child.stdin is not None
        tree = TreeMemory(child.pid)
        try:
            assert child.stdout.readline() == "ready\n"
            # The sampler reads every 10 ms; the deadline is far beyond any real wait.
            deadline = time.monotonic() + 60
            while tree.rss < (64 + 48) << 20 and time.monotonic() < deadline:
                time.sleep(0.01)
            count, held = tree.processes, tree.rss
        finally:
            child.stdin.close()  # the grandchild reads the child's stdin: both end
            child.wait(timeout=60)
            tree.stop()
    assert count == 2
    assert held >= (64 + 48) << 20
