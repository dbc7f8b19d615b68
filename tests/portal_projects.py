"""Portal projects for the tests: the upstream examples and the described real servers,
copied into a directory with an ``mcpdesc-docs.yml`` naming them."""

from __future__ import annotations

import shutil
from pathlib import Path

from .shared_data import EXAMPLES_DIR, ROOT, require

REAL_DIR = ROOT / "tests" / "fixtures" / "real"

BROKEN = """\
mcpdesc: "0.9.0"
info:
  name: broken
  version: "1"
protocolVersions: [2025-11-25]
tools:
  - name: "<script>alert(1)</script>"
    inputSchema: {type: "<b>bold</b>"}
"""
"""A description that fails validation, with markup where its diagnostics quote it."""


def small_tools(name: str, count: int, *, summary: str = "does things") -> str:
    """A valid description of ``count`` tools (tagged, with a capability)."""
    tools = "".join(
        f"  - name: {name}_tool_{i}\n    description: Tool {i} {summary}.\n    tags: [shared, {name}]\n"
        "    inputSchema: {type: object, properties: {q: {type: string}}}\n"
        for i in range(count)
    )
    return (
        f'mcpdesc: "0.9.0"\ninfo:\n  name: {name}\n  title: Server {name}\n  version: "1"\n'
        "protocolVersions: [2025-11-25]\ntransports:\n  - type: stdio\n    command: run\n"
        f"capabilities:\n  - tools: {{listChanged: false}}\ntags:\n  - name: shared\n  - name: {name}\ntools:\n{tools}"
    )


def example_portal(root: Path, *, broken: bool = False) -> Path:
    """A portal of the upstream examples and the real servers (and a broken one): its config."""
    servers = root / "servers"
    servers.mkdir(parents=True)
    for file in sorted(require(EXAMPLES_DIR, "the upstream examples").glob("*.yaml")):
        shutil.copy(file, servers / file.name)
    for file in sorted(REAL_DIR.glob("*.mcpdesc.yaml")):
        shutil.copy(file, servers / file.name)
    if broken:
        (servers / "zz-broken.mcpdesc.yaml").write_text(BROKEN, encoding="utf-8")
    config = root / "mcpdesc-docs.yml"
    config.write_text("site_name: Example portal\ndescriptions:\n  - servers/*.yaml\n", encoding="utf-8")
    return config


def generated_portal(root: Path, servers: int, tools: int = 3) -> Path:
    """A portal of ``servers`` generated descriptions of ``tools`` tools each."""
    directory = root / "servers"
    directory.mkdir(parents=True)
    for index in range(servers):
        (directory / f"s{index:04d}.mcpdesc.yaml").write_text(small_tools(f"s{index:04d}", tools), encoding="utf-8")
    config = root / "mcpdesc-docs.yml"
    config.write_text("descriptions:\n  - servers/*.mcpdesc.yaml\n", encoding="utf-8")
    return config
