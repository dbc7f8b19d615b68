"""The Python-Markdown extension: ``markdown.Markdown(extensions=["mcpdesc"])`` (the
``markdown.extensions`` entry point) or ``markdown_extensions: [mcpdesc]`` in mkdocs.yml.

A preprocessor replaces each fenced ``mcpdesc`` block at the page's top level (not one
shown inside another fence) with the reference it asks for, stored in Python-Markdown's
HTML stash, so the Markdown around it never re-reads it. It runs before the fenced-code
extensions (``fenced_code``, pymdownx.superfences), which would otherwise take the block
for code. A block that cannot be shown stops the host's build: under MkDocs as a
``BuildError`` (one message, no traceback), elsewhere as ``EmbedError``."""

from __future__ import annotations

import importlib
import logging
import re
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from ..diagnostics import printable_lines
from .directive import DirectiveError, read_selection
from .reference import EmbedError, References

INFO_STRING = "mcpdesc"
# Up to three spaces, then three or more backticks or tildes (CommonMark's fences).
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# Python-Markdown's fenced_code and pymdownx.superfences take fences at priority 25; the
# whitespace normaliser (30) runs first, so tabs and line endings are already plain.
PRIORITY = 28
# MkDocs counts the warnings of loggers under "mkdocs" (and `--strict` fails on them), as it
# asks of plugins: the description's warnings are the page's warnings.
log = logging.getLogger("mkdocs.plugins.mcpdesc")


class McpdescExtension(Extension):
    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "base_dir": [".", "Description paths are relative to this directory (default: the working directory)"],
            "site_url": ["", "The full mcpdesc-docs site: links to pages a block does not show go there"],
            "strict": [False, "Refuse descriptions with warnings, as `mcpdesc-docs build --strict` does"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        site_url = str(self.getConfig("site_url")) or None
        if site_url is not None and not re.match(r"https?://[^\s\"'<>]+\Z", site_url):
            raise host_error(f"mcpdesc: site_url must be an http:// or https:// URL, not {site_url!r}")
        references = References(
            Path(str(self.getConfig("base_dir"))), site_url=site_url, strict=bool(self.getConfig("strict"))
        )
        md.preprocessors.register(ReferenceBlocks(md, references), "mcpdesc", PRIORITY)


class ReferenceBlocks(Preprocessor):
    def __init__(self, md: Markdown, references: References) -> None:
        super().__init__(md)
        self.references = references

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        index = 0
        while index < len(lines):
            opening = _FENCE.match(lines[index])
            if opening is None:
                out.append(lines[index])
                index += 1
                continue
            end = _closing(lines, index, opening.group("fence"))
            if opening.group("info").strip() != INFO_STRING:
                out.extend(lines[index : end + 1])  # another fence: passed over whole, never looked into
            elif end == len(lines):
                raise host_error(f"mcpdesc block at line {index + 1}: no closing {opening.group('fence')}")
            else:
                out.extend(["", self._placeholder("\n".join(lines[index + 1 : end]), index + 1), ""])
            index = end + 1
        return out

    def _placeholder(self, options: str, line: int) -> str:
        try:
            html, warnings = self.references.render(read_selection(options))
        except (DirectiveError, EmbedError) as exc:
            raise host_error(f"mcpdesc block at line {line}: {exc}") from None
        if warnings:
            log.warning(printable_lines(f"mcpdesc block at line {line}:\n{warnings}").rstrip())
        return self.md.htmlStash.store(html)


def _closing(lines: list[str], opening: int, fence: str) -> int:
    """The index of the line closing the fence opened at ``opening`` (len(lines) if none):
    the same character, at least as many, nothing after but spaces."""
    closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    for index in range(opening + 1, len(lines)):
        if closing.match(lines[index]):
            return index
    return len(lines)


class EmbedBuildError(EmbedError):
    """What a failed block raises outside MkDocs."""


def host_error(message: str) -> Exception:
    """The failure the host build reports best: MkDocs prints a ``BuildError``'s message
    and stops without a traceback; any other host gets an ``EmbedError``."""
    text = printable_lines(message)
    try:
        build_error: type[Exception] = importlib.import_module("mkdocs.exceptions").BuildError
    except ImportError:
        return EmbedBuildError(text)
    failure: type[Exception] = type("McpdescBuildError", (EmbedBuildError, build_error), {})
    return failure(text)


def makeExtension(**kwargs: Any) -> McpdescExtension:
    """Python-Markdown's hook for ``extensions=["mcpdesc_docs.embed.extension"]``."""
    return McpdescExtension(**kwargs)
