"""``mcpdesc-docs serve [PATH]``: preview with live reload (the server is ``devserver``)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..devserver.project import ProjectBuilder
from ..devserver.server import serve


def run(path: str, *, host: str, port: int, open_browser: bool, out: TextIO, err: TextIO) -> int:
    builder = ProjectBuilder(Path(path), out=out, err=err)
    return serve(builder, host=host, port=port, open_browser=open_browser, err=err)
