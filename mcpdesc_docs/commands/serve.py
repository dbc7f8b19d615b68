"""``mcpdesc-docs serve [PATH]``: preview with live reload (the work is in ``serve.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..devserver.server import serve


def run(path: str, *, host: str, port: int, open_browser: bool, out: TextIO, err: TextIO) -> int:
    return serve(Path(path), host=host, port=port, open_browser=open_browser, out=out, err=err)
