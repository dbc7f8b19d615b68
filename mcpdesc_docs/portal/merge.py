"""``merge``: the servers' directories of every shard copied as they are, and the
portal's own pages assembled from their entries, exactly as a single build assembles
them (so the merged site is that build's, byte for byte)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..config import RESERVED_SLUGS, valid_slug
from ..errors import UsageError
from ..output import StagedSite
from ..records import record
from .assemble import PortalSettings, Rejected, assemble
from .build import SHARD_FILE
from .entry import ENTRY_FILE, ServerEntry


@record
class ShardRecord:
    directory: Path
    number: int
    count: int
    settings: PortalSettings
    servers: tuple[str, ...]
    rejected: tuple[Rejected, ...]


def _read(directory: Path) -> ShardRecord:
    try:
        raw: dict[str, Any] = json.loads((directory / SHARD_FILE).read_bytes())
        shard = ShardRecord(
            directory,
            int(raw["shard"]),
            int(raw["of"]),
            PortalSettings.from_json(raw["settings"]),
            tuple(str(slug) for slug in raw["servers"]),
            tuple(Rejected.from_json(r) for r in raw["rejected"]),
        )
        if not all(valid_slug(slug) and slug not in RESERVED_SLUGS for slug in shard.servers):
            raise ValueError("a server's slug")
        return shard
    except OSError:
        raise UsageError(f"{directory}: no {SHARD_FILE} (not a directory `build --shard K/N -o DIR` wrote)") from None
    except (ValueError, KeyError, TypeError):
        raise UsageError(f"{directory}/{SHARD_FILE} is not a shard's record") from None


def read_shards(directories: Sequence[Path]) -> list[ShardRecord]:
    """Every shard's record, checked: shards 1 to N of one portal, each once, with the same
    settings."""
    records = sorted((_read(d) for d in directories), key=lambda r: r.number)
    count = records[0].count
    numbers = [r.number for r in records]
    if any(r.count != count for r in records) or numbers != list(range(1, count + 1)):
        raise UsageError(f"merge needs shards 1 to {count} of one portal, each once (got {numbers})")
    if any(r.settings != records[0].settings for r in records):
        raise UsageError("the shards were built with different settings (another config)")
    return records


def _entry(directory: Path, slug: str) -> ServerEntry:
    try:
        entry = ServerEntry.from_json((directory / ENTRY_FILE).read_bytes())
    except OSError:
        raise UsageError(f"{directory}: no {ENTRY_FILE} (the shard is incomplete)") from None
    except (ValueError, TypeError, KeyError):
        raise UsageError(f"{directory / ENTRY_FILE} is not a server's entry") from None
    if entry.slug != slug:
        raise UsageError(f"{directory / ENTRY_FILE} is the entry of {entry.slug!r}, not of {slug!r}")
    return entry


def merge_shards(records: Sequence[ShardRecord], staged: StagedSite) -> int:
    """Copy the shards' servers and shared files into ``staged`` and assemble the portal;
    the servers published."""
    entries: list[ServerEntry] = []
    for shard in records:
        for slug in shard.servers:
            source = shard.directory / slug
            entries.append(_entry(source, slug))
            staged.adopt_tree(slug, source)
    first = records[0]
    staged.adopt_tree("assets", first.directory / "assets")
    for css in first.settings.extra_css:
        staged.write(css, (first.directory / css).read_bytes())
    rejected = [r for shard in records for r in shard.rejected]
    assemble(first.settings, entries, rejected, staged.write)
    return len(entries)
