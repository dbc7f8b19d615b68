"""Real, published MCP servers from the npm registry, pinned, installed once into a cache.

The cache is ``$MCPDESC_NPM_SERVERS`` or ``~/.cache/mcpdesc-docs/npm-servers``: one folder
per package and version, installed with ``npm install --ignore-scripts`` (the packages
ship built code; nothing of theirs runs at install time). Without npm the tests that need
these servers fail in CI (``CI`` set) and are skipped elsewhere, saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

PINNED = {
    "everything": ("@modelcontextprotocol/server-everything", "2026.8.31"),
    "filesystem-2025.7.1": ("@modelcontextprotocol/server-filesystem", "2025.7.1"),
    "filesystem": ("@modelcontextprotocol/server-filesystem", "2026.8.31"),
    "memory-2025.4.25": ("@modelcontextprotocol/server-memory", "2025.4.25"),
    "memory": ("@modelcontextprotocol/server-memory", "2026.8.31"),
}
"""Name -> (package, version). filesystem 2025.7.1 sends input schemas without "type";
memory 2025.4.25 speaks only 2024-11-05."""
LOOPBACK = Path(__file__).parent / "servers" / "loopback.cjs"


def cache_dir() -> Path:
    configured = os.environ.get("MCPDESC_NPM_SERVERS")
    return Path(configured) if configured else Path.home() / ".cache" / "mcpdesc-docs" / "npm-servers"


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: the describe tests on real servers need Node.js and npm")
    pytest.skip(f"{reason}: the describe tests on real servers need Node.js and npm")


def install(name: str) -> Path:
    """The entry script of the pinned server ``name``, installing it first if needed."""
    package, version = PINNED[name]
    folder = cache_dir() / f"{package.replace('/', '+')}@{version}"
    entry = folder / "node_modules" / package / "dist" / "index.js"
    if entry.is_file():
        return entry
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        _missing("node or npm is not on PATH")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text('{"name": "pinned-server", "private": true}\n', encoding="utf-8")
    done = subprocess.run(
        [npm or "npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", f"{package}@{version}"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0 or not entry.is_file():
        _missing(f"npm install {package}@{version} failed: {done.stderr[-500:]}")
    return entry
