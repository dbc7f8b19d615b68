"""Command line: parse argv, call a command module, map the outcome to an exit code."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from . import __version__
from .diagnostics import format_text, printable_lines, write_line, write_report
from .errors import ExitCode, ProjectError, UsageError

FORMATS = ("text", "json", "github", "sarif")
SCHEMA_VERSIONS = ("0.9.0", "0.8.0", "0.7.0")
"""How validate and build report: text for people, the others for machines (stdout)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcpdesc-docs",
        description="Validate MCP Descriptions (mcpdesc 0.9.0-rc.3 and 0.8.0) and build documentation sites.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--verbose", action="store_true", help="show tracebacks for internal errors")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser("validate", help="check descriptions and report every problem")
    validate.add_argument(
        "paths",
        metavar="PATH",
        nargs="*",
        default=["."],
        help="a description file, or a project directory or mcpdesc-docs.yml whose description to check "
        "with its settings; several are checked one by one (default: .)",
    )
    validate.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    validate.add_argument("--format", dest="output_format", choices=FORMATS, default="text")

    build = commands.add_parser("build", help="validate the description and write the documentation site")
    build.add_argument(
        "path",
        metavar="PATH",
        nargs="?",
        default=".",
        help="a project directory with mcpdesc-docs.yml, that file, or a description file (default: .)",
    )
    build.add_argument(
        "-o", "--site-dir", metavar="SITE_DIR", help="output directory (default: site/ beside the config)"
    )
    build.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1, nothing written)")
    build.add_argument("--format", dest="output_format", choices=FORMATS, default="text")
    build.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        metavar="N",
        help="render pages in N worker processes (default: jobs in the config, else auto: the usable cores)",
    )
    _add_portal_options(build)

    serve = commands.add_parser("serve", help="preview the site with live reload while you edit")
    serve.add_argument("path", metavar="PATH", nargs="?", default=".", help="as for build (default: .)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one (default: 8000)")
    serve.add_argument("--open", dest="open_browser", action="store_true", help="open the site in a web browser")

    _add_deploy(commands)

    migrate = commands.add_parser("migrate", help="convert a 0.7.0 or 0.8.0 description to the current format")
    migrate.add_argument("file", metavar="FILE", help="a mcpdesc 0.7.0 or 0.8.0 description (edited, not rewritten)")
    migrate.add_argument("-o", "--output", metavar="OUT", help="write here (.json or .yaml; default: standard output)")
    migrate.add_argument("--to", dest="target", choices=("0.9.0", "0.8.0"), default="0.9.0", help="format version")
    migrate.add_argument(
        "--protocol-version",
        dest="protocol_versions",
        action="append",
        metavar="VERSION",
        help="MCP protocol version the server speaks, when info.protocolVersion is absent (repeatable)",
    )

    _add_describe(commands)

    rules = commands.add_parser("rules", help="list the rules validation checks, or explain one")
    rules.add_argument("rule_id", metavar="ID", nargs="?", help="the rule to explain (a diagnostic's rule id)")
    rules.add_argument(
        "--markdown", action="store_true", help="write the whole rule reference as Markdown (docs/rules.md)"
    )

    _add_diff(commands)
    _add_schema(commands)
    _add_merge(commands)

    new = commands.add_parser("new", help="create a documentation project with a GitHub Pages workflow")
    new.add_argument("directory", metavar="DIR", help="a new or empty directory")
    new.add_argument(
        "--portal", action="store_true", help="a portal: one site for many servers, built in shards and merged"
    )
    return parser


def _add_describe(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    describe = commands.add_parser(
        "describe", help="write a description of a running MCP server, check one against it, or refresh one"
    )
    server = describe.add_mutually_exclusive_group(required=True)
    server.add_argument(
        "--stdio", metavar='"COMMAND [ARGS...]"', help="start this server (split as a shell would; no shell)"
    )
    server.add_argument("--url", metavar="URL", help="connect to this streamable HTTP endpoint")
    server.add_argument(
        "--servers",
        metavar="FILE",
        help="every server of this servers file (the mcpServers map MCP clients read), into the folder "
        "-o, --check or --update names",
    )
    describe.add_argument(
        "--header",
        dest="headers",
        action="append",
        default=[],
        metavar='"NAME: value"',
        help="HTTP header (repeatable)",
    )
    result = describe.add_mutually_exclusive_group()
    result.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write here (.json or .yaml; default: standard output; with --servers, a folder)",
    )
    result.add_argument(
        "--check",
        metavar="FILE",
        help="compare FILE (with --servers, each file of a folder) with the server: exit 1 and list differences",
    )
    result.add_argument(
        "--update",
        metavar="FILE",
        help="refresh FILE (with --servers, each file of a folder) in place from the server, keeping your additions",
    )
    describe.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="give up when the whole run takes longer (with --servers, each server's; default: 120)",
    )
    versions = describe.add_mutually_exclusive_group()
    versions.add_argument(
        "--protocol-version",
        dest="protocol_versions",
        action="append",
        metavar="VERSION",
        help="record this protocol version (repeatable; default: those from 2025-06-18 on that the server accepts)",
    )
    versions.add_argument(
        "--all-versions",
        action="store_true",
        help="record every protocol version the server accepts, the legacy 2024-11-05 and 2025-03-26 too",
    )


def _add_diff(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    diff = commands.add_parser("diff", help="what changed between two descriptions, breaking or not")
    diff.add_argument("old", metavar="OLD", help="the earlier description: a file, or git:REF:PATH")
    diff.add_argument("new", metavar="NEW", help="the later description: a file, or git:REF:PATH")
    diff.add_argument("--format", dest="output_format", choices=["text", "json", "markdown", "github"], default="text")
    diff.add_argument(
        "--fail-on",
        choices=["breaking", "any"],
        help="exit 1 when there is a breaking change (or any change at all)",
    )


def _add_portal_options(build: argparse.ArgumentParser) -> None:
    build.add_argument(
        "--keep-going",
        action="store_true",
        help="a portal: publish the valid descriptions and list the rejected ones (else any rejected: exit 1)",
    )
    build.add_argument(
        "--shard",
        type=_shard,
        metavar="K/N",
        help="a portal: render the K-th of N shards of its servers into -o DIR, for `merge`",
    )


def _add_merge(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    merge = commands.add_parser("merge", help="assemble a portal from the shards `build --shard K/N` wrote")
    merge.add_argument("shards", metavar="DIR", nargs="+", help="the shard directories, every one of 1..N")
    merge.add_argument("-o", "--site-dir", metavar="SITE", required=True, help="where the portal is written")


def _add_schema(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    schema = commands.add_parser(
        "schema", help="print the JSON Schema of a description format or of mcpdesc-docs.yml, for editors"
    )
    schema.add_argument(
        "target",
        metavar="VERSION|config",
        nargs="?",
        choices=(*SCHEMA_VERSIONS, "config"),
        help="a format version, or config for mcpdesc-docs.yml (default: 0.9.0)",
    )
    schema.add_argument("--spec", choices=SCHEMA_VERSIONS, help="the format version (the same as VERSION)")


def _add_deploy(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    deploy = commands.add_parser("gh-deploy", help="build and publish the site to a gh-pages branch")
    deploy.add_argument("path", metavar="PATH", nargs="?", default=".", help="as for build (default: .)")
    deploy.add_argument("--remote", default="origin", help="the remote to push to (default: origin)")
    deploy.add_argument("--branch", default="gh-pages", help="the branch to publish to (default: gh-pages)")
    deploy.add_argument("-m", "--message", help="commit message (default: names the source commit)")
    deploy.add_argument("--no-push", dest="push", action="store_false", help="commit to the local branch only")
    deploy.add_argument("--force", action="store_true", help="force the push (replaces the remote branch)")
    versioned = deploy.add_argument_group(
        "versioned docs", "publish one version of several, in its own directory of the branch (mike's layout)"
    )
    versioned.add_argument("--version", dest="publish_version", metavar="V", help="publish the site as version V")
    versioned.add_argument(
        "--alias",
        dest="aliases",
        action="append",
        default=[],
        metavar="A",
        help="also publish it as A, such as latest (repeatable; moves A from another version)",
    )
    versioned.add_argument("--title", metavar="TITLE", help="the version's title in menus (default: V)")
    versioned.add_argument("--delete-version", metavar="V", help="remove version V and its aliases from the branch")
    versioned.add_argument(
        "--set-default", metavar="V", help="redirect the branch's root to version or alias V (alone or with --version)"
    )


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout already closed or not a real file
        pass


def _validate(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import validate

    return validate.run(options.paths, strict=options.strict, output_format=options.output_format, out=out)


AUTO_JOBS = 0
"""``-j auto``: as many workers as the usable cores (``build`` works out how many)."""


def _jobs(text: str) -> int:
    """``-j N``: auto (``AUTO_JOBS``) or a whole number from 1."""
    if text == "auto":
        return AUTO_JOBS
    if text.isdigit() and 1 <= int(text) <= 256:
        return int(text)
    raise argparse.ArgumentTypeError("N must be auto or a whole number from 1 to 256")


def _shard(text: str) -> tuple[int, int]:
    from .portal.build import parse_shard

    shard = parse_shard(text)
    if shard is None:
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, such as 2/4, not {text!r}")
    return shard


def _build(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import build

    return build.run(
        options.path,
        site_dir=options.site_dir,
        strict=options.strict,
        jobs=options.jobs,
        output_format=options.output_format,
        out=out,
        err=err,
        keep_going=options.keep_going,
        shard=options.shard,
    )


def _merge(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import merge

    return merge.run(options.shards, site_dir=options.site_dir, err=err)


def _serve(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import serve

    return serve.run(
        options.path,
        host=options.host,
        port=options.port,
        open_browser=options.open_browser,
        out=out,
        err=err,
    )


def _deploy(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import deploy

    return deploy.run(
        options.path,
        remote=options.remote,
        branch=options.branch,
        message=options.message,
        push=options.push,
        force=options.force,
        out=out,
        err=err,
        versions=deploy.VersionOptions(
            version=options.publish_version,
            aliases=tuple(options.aliases),
            title=options.title,
            delete=options.delete_version,
            set_default=options.set_default,
        ),
    )


def _migrate(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import migrate

    return migrate.run(
        options.file,
        output=options.output,
        target=options.target,
        protocol_versions=options.protocol_versions,
        out=out,
        err=err,
    )


def _describe(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import describe, describe_servers

    if options.servers is not None:
        return describe_servers.run(
            servers=options.servers,
            headers=options.headers,
            output=options.output,
            check=options.check,
            update=options.update,
            timeout=options.timeout,
            out=out,
            err=err,
            protocol_versions=options.protocol_versions,
            all_versions=options.all_versions,
        )

    return describe.run(
        stdio=options.stdio,
        url=options.url,
        headers=options.headers,
        output=options.output,
        check=options.check,
        update=options.update,
        timeout=options.timeout,
        out=out,
        err=err,
        protocol_versions=options.protocol_versions,
        all_versions=options.all_versions,
    )


def _rules(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import rules

    return rules.run(options.rule_id, as_markdown=options.markdown, out=out)


def _diff(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import diff

    return diff.run(
        options.old, options.new, output_format=options.output_format, fail_on=options.fail_on, out=out, err=err
    )


def _schema(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import schema

    return schema.run(options.target, spec=options.spec, out=out)


def _new(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .commands import new

    return new.run(options.directory, err=err, portal=options.portal)


# Each command's module is imported only when it runs: `validate` need not load the dev
# server, git plumbing or the MCP SDK.
_COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    "validate": _validate,
    "build": _build,
    "merge": _merge,
    "serve": _serve,
    "gh-deploy": _deploy,
    "migrate": _migrate,
    "describe": _describe,
    "rules": _rules,
    "diff": _diff,
    "schema": _schema,
    "new": _new,
}


def _dispatch(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    command = _COMMANDS.get(options.command)
    if command is None:
        raise UsageError(f"unknown command {options.command!r}")
    return command(options, out, err)


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run one command line (``argv``, else ``sys.argv[1:]``) and give its exit code; the
    process is left as it was (tests and other programs call this)."""
    return _parse_and_run(argv, stdout or sys.stdout, stderr or sys.stderr)[0]


ENDING_AT_ONCE = frozenset({"validate", "build"})
"""Commands after which ``run`` ends the process without Python's teardown."""


def run() -> NoReturn:
    """The ``mcpdesc-docs`` program (and ``python -m mcpdesc_docs``): ``main``, then the
    exit. After ``validate`` and ``build`` the process ends without the interpreter's
    teardown, which frees every object and module one by one: 0.04 s after a sample build
    (a tenth of it), 0.05 s after a 100-tool build, where ending takes 0.005 s. The exit
    handlers still run (``atexit``: finalizers of temporary files, a profiler's report)
    and the standard streams are flushed; only the freeing is skipped, which the system
    does at once. Every file those commands write is closed before they return, and no
    thread of theirs outlives them. The other commands end as any program does: ``serve``
    and ``describe`` stop threads and servers of their own on the way out."""
    code, command = _parse_and_run(None, sys.stdout, sys.stderr)
    if command in ENDING_AT_ONCE:
        _end_at_once(code)
    sys.exit(code)


def _end_at_once(code: int) -> NoReturn:
    atexit._run_exitfuncs()  # what sys.exit would run first (typeshed lists it; CPython has it)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader gone, a stream closed
            stream.flush()
    os._exit(code)


def _parse_and_run(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> tuple[int, str | None]:
    """The exit code, and the command that ran (None when the arguments were refused)."""
    parser = _parser()
    try:
        options = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help
        return int(exc.code or 0), None
    return _run_command(options, out, err), options.command


def _run_command(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        code = _dispatch(options, out, err)
        # Flush here: a large write can look complete while part of it waits in the buffer,
        # and a reader that left early must be seen now, not at interpreter exit.
        out.flush()
        return code
    except ProjectError as exc:
        # Machine formats go to stdout like a description's report; text stays on stderr.
        output_format = getattr(options, "output_format", "text")
        if output_format == "text":
            err.write(format_text(exc.diagnostics))
        else:
            from .commands.rules import rule_help

            file = exc.diagnostics[0].file or "" if exc.diagnostics else ""
            write_report(out, exc.diagnostics, file, None, output_format, help_for=rule_help)
        return ExitCode.USAGE
    except UsageError as exc:
        write_line(err, f"mcpdesc-docs: error: {exc}")
        return ExitCode.USAGE
    except KeyboardInterrupt:
        # Ctrl-C is the user's choice, not a failure to explain (build says more itself).
        write_line(err, "mcpdesc-docs: interrupted")
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        # The reader left early (`mcpdesc-docs validate x | head`): an I/O failure, not a bug
        # worth a message. Point stdout at /dev/null so the final flush cannot fail again.
        _silence_stdout()
        return ExitCode.USAGE
    except OSError as exc:
        # The file system said no (disk full, permissions, a path that vanished): the user's
        # to fix, not a bug, so a plain message rather than "internal error".
        if options.verbose:
            err.write(printable_lines(traceback.format_exc()))
        where = f": {exc.filename}" if exc.filename else ""
        write_line(err, f"mcpdesc-docs: error: {exc.strerror or exc}{where}")
        return ExitCode.USAGE
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no traceback for users
        if options.verbose:
            err.write(printable_lines(traceback.format_exc()))
        write_line(err, f"mcpdesc-docs: internal error: {type(exc).__name__}: {exc} (rerun with --verbose for details)")
        return ExitCode.USAGE
