"""``mcpdesc-docs describe --servers FILE``: every server a client's servers file names,
described into one folder (``-o DIR``), checked against it (``--check DIR``) or refreshed
there (``--update DIR``), one after another, each as ``describe`` does one server.

A server that cannot be described is one located line (the file's position of its name)
and the others carry on; the exit status says whether all went well.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO

from ..describe.budget import DescribeError
from ..describe.servers_file import DESCRIPTION_SUFFIX, NamedServer, ServersFile, read_servers
from ..diagnostics import write_line
from ..errors import ExitCode, UsageError
from ..source.file_write import FileWriteError
from .describe import check_options, existing_description, served_description, server_stderr, settle

_SHOWN_STRAYS = 50


class _Run:
    """One ``describe --servers`` run: the folder, what is asked of it, and the options."""

    def __init__(
        self,
        folder: Path,
        mode: str,
        *,
        timeout: float,
        protocol_versions: list[str] | None,
        all_versions: bool,
        out: TextIO,
        err: TextIO,
    ) -> None:
        self.folder = folder
        self.mode = mode
        """"output", "check" or "update"."""
        self.timeout = timeout
        self.protocol_versions = protocol_versions
        self.all_versions = all_versions
        self.out = out
        self.err = err

    def fail(self, server: NamedServer, reason: str) -> int:
        write_line(self.err, f"{server.where}: error: server {server.shown_name}: {reason}")
        return ExitCode.INVALID

    def one(self, server: NamedServer) -> int:
        """Describe, check or refresh one server's file; its exit status."""
        file = self.folder / server.file_name
        write_line(self.err, f"mcpdesc-docs: server {server.shown_name} ({server.where}) -> {file}")
        if server.target is None:
            return self.fail(server, server.problem or "it cannot be described")
        existing = None
        if self.mode != "output":
            if not file.is_file():
                return self.fail(server, f"{file} does not exist (`describe --servers ... -o DIR` writes it)")
            try:
                existing = existing_description(str(file))
            except UsageError as exc:
                return self.fail(server, str(exc))
        try:
            served = served_description(
                server.target, self.timeout, self.protocol_versions, self.all_versions, self.err
            )
        except DescribeError as exc:
            code = self.fail(server, str(exc))
            server_stderr(exc, self.err)
            return code
        name = str(file)
        try:
            return settle(
                served,
                existing,
                output=name if self.mode == "output" else None,
                check=name if self.mode == "check" else None,
                update=name if self.mode == "update" else None,
                out=self.out,
                err=self.err,
            )
        except FileWriteError as exc:
            return self.fail(server, str(exc))

    def strays(self, found: ServersFile, servers: str) -> int:
        """Descriptions in the folder for no server of the file: a difference for --check,
        a note otherwise (they are left as they are)."""
        named = {server.file_name for server in (*found.servers, *found.disabled)}
        strays = sorted(p for p in self.folder.glob("*" + DESCRIPTION_SUFFIX) if p.name not in named)
        for path in strays[:_SHOWN_STRAYS]:
            if self.mode == "check":
                write_line(self.out, f"{path}: describes no server of {servers}")
            else:
                write_line(self.err, f"mcpdesc-docs: note: {path} describes no server of {servers}; left as it is")
        if len(strays) > _SHOWN_STRAYS:
            write_line(self.err, f"mcpdesc-docs: ... and {len(strays) - _SHOWN_STRAYS} more such files")
        return len(strays)


def _folder(output: str | None, check: str | None, update: str | None) -> tuple[Path, str]:
    if output is not None:
        folder = Path(output)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"-o {output}: not a directory (with --servers, -o names the folder to write into)")
        return folder, "output"
    named = check or update
    if named is None:
        raise UsageError("--servers needs -o DIR (write), --check DIR or --update DIR")
    if not Path(named).is_dir():
        raise UsageError(f"{named}: no such directory (with --servers, --check and --update name a folder)")
    return Path(named), "check" if check is not None else "update"


def run(
    *,
    servers: str,
    headers: list[str],
    output: str | None,
    check: str | None,
    update: str | None,
    timeout: float,
    out: TextIO,
    err: TextIO,
    protocol_versions: list[str] | None = None,
    all_versions: bool = False,
) -> int:
    check_options(timeout, protocol_versions)
    if headers:
        raise UsageError("--header goes with --url; in a servers file each server gives its own 'headers'")
    folder, mode = _folder(output, check, update)
    found = read_servers(Path(servers), os.environ)
    for server in found.disabled:
        write_line(err, f"mcpdesc-docs: {server.where}: server {server.shown_name} is disabled in the file; left out")
    if mode == "output":
        folder.mkdir(parents=True, exist_ok=True)
    one_run = _Run(
        folder,
        mode,
        timeout=timeout,
        protocol_versions=protocol_versions,
        all_versions=all_versions,
        out=out,
        err=err,
    )
    not_ok = [server for server in found.servers if one_run.one(server) != ExitCode.OK]
    strays = one_run.strays(found, servers)
    total = len(found.servers)
    if not_ok:
        names = ", ".join(server.shown_name for server in not_ok[:_SHOWN_STRAYS])
        more = f" and {len(not_ok) - _SHOWN_STRAYS} more" if len(not_ok) > _SHOWN_STRAYS else ""
        write_line(err, f"mcpdesc-docs: {total - len(not_ok)} of {total} servers ok; not ok (above): {names}{more}")
    else:
        write_line(err, f"mcpdesc-docs: {total} of {total} servers ok")
    return ExitCode.INVALID if not_ok or (mode == "check" and strays) else ExitCode.OK
