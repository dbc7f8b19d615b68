"""``python -m mcpdesc_docs.embed.stylesheet [FILE]``: the blocks' stylesheet, written to
FILE (or printed), for the host site to list (MkDocs: ``extra_css``). A file of its own,
never a ``<style>`` or ``style=`` in the page: hosts with a Content-Security-Policy that
forbids inline styles (as our own pages do) show the blocks styled all the same."""

from __future__ import annotations

import sys
from pathlib import Path

STYLESHEET = Path(__file__).resolve().parent / "mcpdesc-embed.css"


def stylesheet() -> str:
    return STYLESHEET.read_text(encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        sys.stderr.write("usage: python -m mcpdesc_docs.embed.stylesheet [FILE]\n")
        return 2
    if argv:
        Path(argv[0]).write_text(stylesheet(), encoding="utf-8")
    else:
        sys.stdout.write(stylesheet())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
