"""``mcpdesc-docs merge DIR... -o SITE``: the shards of a portal, one site."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ..diagnostics import write_line
from ..errors import ExitCode
from ..output import StagedSite, check_site_dir
from ..portal.merge import merge_shards, read_shards


def run(shards: Sequence[str], *, site_dir: str, err: TextIO) -> int:
    directories = [Path(shard) for shard in shards]
    target = Path(site_dir)
    records = read_shards(directories)
    check_site_dir(target, directories)
    with StagedSite(target) as staged:
        servers = merge_shards(records, staged)
        staged.commit()
    write_line(err, f"mcpdesc-docs: merged {len(records)} shards, {servers} servers, into {target}")
    return ExitCode.OK
