"""Two views of a description compared: every change, classified for a client."""

from __future__ import annotations

from collections.abc import Container, Iterator, Mapping, Sequence
from typing import Any

from ..source import pointer as jp
from ..validation.document import as_object
from .change import ABSENT, Change, Level
from .schemas import compare_schemas
from .values import canonical, differs, members
from .view import Declared, PrimitiveKey, View

WORDING = frozenset(
    {"title", "description", "summary", "instructions", "examples", "icons", "tags", "externalDocs", "websiteUrl"}
)
"""Members whose change is a matter of documentation (words, pictures, examples)."""
ELICITATION_WORDING = frozenset({"message", "when", "onDecline", "onCancel"})
"""An elicitation declaration's words: what the user reads, and what happens after."""
COMPARED_AT_ROOT = frozenset({"info", "protocolVersions", "transports", "security"})
"""Root members with comparisons of their own."""
SKIPPED_ROOT = frozenset({"mcpdesc", "$schema", "components", "tools", "resources", "resourceTemplates", "prompts"})
"""Root members compared elsewhere, or not at all (the format; components are followed
where they are used)."""


def _label(key: PrimitiveKey) -> str:
    return f"{key[0]} {key[1]}"


class Comparison:
    """``old`` against ``new``; ``changes()`` lists what changed, most serious first."""

    def __init__(self, old: View, new: View) -> None:
        self.old, self.new = old, new
        self.truncated = False

    def changes(self) -> list[Change]:
        found = [*self._root(), *self._primitives()]
        return sorted(_merged(found), key=Change.sort_key)

    # The server as a whole.

    def _root(self) -> Iterator[Change]:
        old, new = self.old.data, self.new.data
        yield from self._versions()
        yield from self._transports()
        yield from _security("", "security", "/security", "/security", old, new)
        old_info, new_info = as_object(old.get("info")), as_object(new.get("info"))
        yield from _members_changed("", "/info", "/info", old_info, new_info, "info-changed", "info.", wording=ALL)
        yield from _members_changed("", "", "", old, new, "{}-changed", "", skip=SKIPPED_ROOT | COMPARED_AT_ROOT)

    def _versions(self) -> Iterator[Change]:
        old, new = self.old.root_scope, self.new.root_scope
        for version in old:
            if version not in new:
                yield Change(
                    Level.BREAKING,
                    "protocol-version-removed",
                    "",
                    "protocolVersions",
                    f"protocol version {version} is no longer supported",
                    "/protocolVersions",
                    "/protocolVersions",
                    list(old),
                    list(new),
                )
        for version in new:
            if version not in old:
                yield Change(
                    Level.NON_BREAKING,
                    "protocol-version-added",
                    "",
                    "protocolVersions",
                    f"protocol version {version} is now supported",
                    "/protocolVersions",
                    "/protocolVersions",
                    list(old),
                    list(new),
                )

    def _transports(self) -> Iterator[Change]:
        old = _keyed_transports(self.old.data.get("transports"))
        new = _keyed_transports(self.new.data.get("transports"))
        for key, (index, transport) in old.items():
            where = f"/transports/{index}"
            if key not in new:
                yield Change(
                    Level.BREAKING,
                    "transport-removed",
                    "",
                    "transports",
                    f"transport {key} removed",
                    where,
                    None,
                    transport,
                )
                continue
            new_index, new_transport = new[key]
            new_where = f"/transports/{new_index}"
            yield from _security(
                "", f"transport {key} security", where + "/security", new_where + "/security", transport, new_transport
            )
            yield from _members_changed(
                "",
                where,
                new_where,
                transport,
                new_transport,
                "transport-changed",
                f"transport {key} ",
                skip={"security"},
            )
        for key, (index, transport) in new.items():
            if key not in old:
                yield Change(
                    Level.NON_BREAKING,
                    "transport-added",
                    "",
                    "transports",
                    f"transport {key} added",
                    None,
                    f"/transports/{index}",
                    ABSENT,
                    transport,
                )

    # Tools, resources, resource templates and prompts.

    def _primitives(self) -> Iterator[Change]:
        old, new = self.old.primitives, self.new.primitives
        gone = [key for key in old if key not in new]
        added = [key for key in new if key not in old]
        renamed = _renames(gone, added, old, new)
        for key in gone:
            declared = old[key][0]
            if key in renamed:
                target = renamed[key]
                yield Change(
                    Level.BREAKING,
                    f"{key[0]}-renamed",
                    _label(key),
                    "",
                    f"renamed to {target[1]!r}",
                    declared.pointer,
                    new[target][0].pointer,
                    key[1],
                    target[1],
                )
            else:
                yield Change(
                    Level.BREAKING,
                    f"{key[0]}-removed",
                    _label(key),
                    "",
                    "removed",
                    declared.pointer,
                    None,
                    dict(declared.data),
                )
        for key in added:
            if key not in renamed.values():
                declared = new[key][0]
                yield Change(
                    Level.NON_BREAKING,
                    f"{key[0]}-added",
                    _label(key),
                    "",
                    "added",
                    None,
                    declared.pointer,
                    ABSENT,
                    dict(declared.data),
                )
        for key, old_variants in old.items():
            if key in new:
                yield from self._variants(key, old_variants, new[key])

    def _variants(self, key: PrimitiveKey, old: Sequence[Declared], new: Sequence[Declared]) -> Iterator[Change]:
        """Declarations paired by protocol version: each pair is compared once, and its
        changes name the versions it covers when either side is split by version."""
        split = len(old) > 1 or len(new) > 1
        versions = sorted({v for d in (*old, *new) for v in d.scope})
        pairs: dict[tuple[int, int], list[str]] = {}
        for version in versions:
            before = next((i for i, d in enumerate(old) if version in d.scope), None)
            after = next((i for i, d in enumerate(new) if version in d.scope), None)
            if before is not None and after is not None:
                pairs.setdefault((before, after), []).append(version)
            elif before is not None and version in self.new.root_scope:
                yield Change(
                    Level.BREAKING,
                    "primitive-version-removed",
                    _label(key),
                    "protocolVersions",
                    f"no longer offered at protocol version {version}",
                    old[before].pointer,
                    None,
                    versions=(version,),
                )
            elif after is not None and version in self.old.root_scope:
                yield Change(
                    Level.NON_BREAKING,
                    "primitive-version-added",
                    _label(key),
                    "protocolVersions",
                    f"now also offered at protocol version {version}",
                    None,
                    new[after].pointer,
                    versions=(version,),
                )
        for (before, after), covered in pairs.items():
            scope = tuple(covered) if split else ()
            for change in self._declaration(key, old[before], new[after]):
                yield _with_versions(change, scope)

    def _declaration(self, key: PrimitiveKey, old: Declared, new: Declared) -> Iterator[Change]:
        label = _label(key)
        a, b = old.data, new.data
        for member in members(a, b):
            if member == "protocolVersions" or not differs(a, b, member):
                continue
            if key[0] == "tool" and member in ("inputSchema", "outputSchema"):
                yield from self._schema(label, member, old, new)
            elif key[0] == "prompt" and member == "arguments":
                yield from _arguments(label, old, new)
            elif member == "elicitations":
                yield from _elicitations(label, old, new)
            elif member == "annotations":
                yield from _annotations(label, old, new)
            elif member == "security":
                yield from _security(label, "security", old.place("security"), new.place("security"), a, b)
            elif member == "deprecated":
                now = b.get("deprecated") is True
                message = "deprecated" if now else "no longer deprecated"
                yield _member_change(
                    Level.NON_BREAKING,
                    "deprecated" if now else "undeprecated",
                    label,
                    member,
                    old.pointer,
                    new.pointer,
                    a,
                    b,
                    member,
                    message,
                )
            elif member == "clientRequirements":
                level = Level.BREAKING if member in b else Level.NON_BREAKING
                yield _member_change(
                    level,
                    "client-requirements-changed",
                    label,
                    member,
                    old.pointer,
                    new.pointer,
                    a,
                    b,
                    member,
                    "what it needs of the client changed",
                )
            elif member == "mimeType":
                yield _member_change(
                    Level.BREAKING, "mime-type-changed", label, member, old.pointer, new.pointer, a, b, member
                )
            else:
                level = Level.DOCUMENTATION if member in WORDING else Level.NON_BREAKING
                yield _member_change(level, f"{member}-changed", label, member, old.pointer, new.pointer, a, b, member)

    def _schema(self, label: str, member: str, old: Declared, new: Declared) -> Iterator[Change]:
        a, b = old.data, new.data
        is_input = member == "inputSchema"
        if member not in b:
            level = Level.NON_BREAKING if is_input else Level.BREAKING
            yield _member_change(
                level, f"{member}-removed", label, member, old.pointer, new.pointer, a, b, member, f"{member} removed"
            )
            return
        if member not in a:
            level = Level.BREAKING if is_input else Level.NON_BREAKING
            yield _member_change(
                level, f"{member}-added", label, member, old.pointer, new.pointer, a, b, member, f"{member} added"
            )
            return
        found, truncated = compare_schemas(a[member], b[member], input=is_input)
        self.truncated |= truncated
        side = "input" if is_input else "output"
        for change in found:
            where = (
                member + (f".{change.field}" if change.field else "") + (f" {change.keyword}" if change.keyword else "")
            )
            if change.code.startswith(("parameter-", "field-")):
                message = f"{side}: {change.message}"
            elif change.field:
                message = f"{side} {change.field!r}: {change.message}"
            else:
                message = f"{side} schema: {change.message}"
            yield Change(
                change.level,
                f"{side}-{change.code}",
                label,
                where,
                message,
                old.place(member) + change.old_at if change.old_at is not None else None,
                new.place(member) + change.new_at if change.new_at is not None else None,
                change.old_value,
                change.new_value,
            )


class _Everything:
    """Every member name (the ``wording`` of ``info``, whose members are all words)."""

    def __contains__(self, member: object) -> bool:
        return True


ALL = _Everything()


def _members_changed(
    label: str,
    old_at: str,
    new_at: str,
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    code: str,
    where: str,
    *,
    skip: Container[str] = (),
    wording: Container[str] = WORDING,
) -> Iterator[Change]:
    """Each member that differs between two objects (but those in ``skip``), as one change:
    documentation for a ``wording`` member, else non-breaking. ``code`` is the change's
    code, with ``{}`` for the member's name; ``where`` comes before that name."""
    for member in members(old, new):
        if member not in skip and differs(old, new, member):
            level = Level.DOCUMENTATION if member in wording else Level.NON_BREAKING
            yield _member_change(level, code.format(member), label, where + member, old_at, new_at, old, new, member)


def _member_change(
    level: Level,
    code: str,
    label: str,
    member: str,
    old_at: str,
    new_at: str,
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    key: str,
    message: str | None = None,
) -> Change:
    if message is None:
        message = (
            f"{member} added" if key not in old else f"{member} removed" if key not in new else f"{member} changed"
        )
    return Change(
        level,
        code,
        label,
        member,
        message,
        jp.join(old_at, key) if key in old else None,
        jp.join(new_at, key) if key in new else None,
        old.get(key, ABSENT),
        new.get(key, ABSENT),
    )


def _keyed_transports(value: object) -> dict[str, tuple[int, Mapping[str, Any]]]:
    """Transports by what a client connects to (type and URL, or type and command)."""
    keyed: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for index, transport in enumerate(value if isinstance(value, list) else []):
        if isinstance(transport, dict):
            target = transport.get("url") or " ".join(
                str(part) for part in [transport.get("command"), *(transport.get("args") or [])] if part is not None
            )
            keyed.setdefault(f"{transport.get('type')} {target}".strip(), (index, transport))
    return keyed


def _security(
    label: str, member: str, old_at: str, new_at: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> Iterator[Change]:
    """Security requirements: one added is breaking (a client may now have to
    authenticate, or otherwise), one removed is not."""
    before = {canonical(r): r for r in old.get("security") or []} if isinstance(old.get("security", []), list) else {}
    after = {canonical(r): r for r in new.get("security") or []} if isinstance(new.get("security", []), list) else {}
    for text, requirement in after.items():
        if text not in before:
            yield Change(
                Level.BREAKING,
                "security-requirement-added",
                label,
                member,
                f"security requirement {text} added",
                old_at if "security" in old else None,
                new_at,
                ABSENT,
                requirement,
            )
    for text, requirement in before.items():
        if text not in after:
            yield Change(
                Level.NON_BREAKING,
                "security-requirement-removed",
                label,
                member,
                f"security requirement {text} removed",
                old_at,
                new_at if "security" in new else None,
                requirement,
                ABSENT,
            )


def _named(value: object) -> dict[str, tuple[int, Mapping[str, Any]]]:
    named: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for index, item in enumerate(value if isinstance(value, list) else []):
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            named.setdefault(item["name"], (index, item))
    return named


def _arguments(label: str, old: Declared, new: Declared) -> Iterator[Change]:
    before, after = _named(old.data.get("arguments")), _named(new.data.get("arguments"))
    for name, (index, argument) in before.items():
        at = jp.join(old.pointer, "arguments", index)
        if name not in after:
            yield Change(
                Level.BREAKING,
                "argument-removed",
                label,
                f"arguments.{name}",
                f"argument {name!r} removed",
                at,
                None,
                argument,
            )
            continue
        new_index, new_argument = after[name]
        new_at = jp.join(new.pointer, "arguments", new_index)
        was, now = argument.get("required") is True, new_argument.get("required") is True
        if was != now:
            level = Level.BREAKING if now else Level.NON_BREAKING
            message = f"argument {name!r} {'now required' if now else 'no longer required'}"
            yield _member_change(
                level,
                "argument-required" if now else "argument-optional",
                label,
                f"arguments.{name}",
                at,
                new_at,
                argument,
                new_argument,
                "required",
                message,
            )
        yield from _members_changed(
            label,
            at,
            new_at,
            argument,
            new_argument,
            "argument-{}-changed",
            f"arguments.{name}.",
            skip={"name", "required"},
        )
    for name, (index, argument) in after.items():
        if name not in before:
            required = argument.get("required") is True
            level = Level.BREAKING if required else Level.NON_BREAKING
            message = f"{'required' if required else 'optional'} argument {name!r} added"
            yield Change(
                level,
                "argument-required-added" if required else "argument-added",
                label,
                f"arguments.{name}",
                message,
                None,
                jp.join(new.pointer, "arguments", index),
                ABSENT,
                argument,
            )


def _elicitations(label: str, old: Declared, new: Declared) -> Iterator[Change]:
    """What the primitive may ask the user: a declaration added or removed changes what a
    client meets, not what it must send, so neither is breaking."""
    before, after = _named(old.data.get("elicitations")), _named(new.data.get("elicitations"))
    for name, (index, declaration) in before.items():
        at = jp.join(old.pointer, "elicitations", index)
        if name not in after:
            yield Change(
                Level.NON_BREAKING,
                "elicitation-removed",
                label,
                f"elicitations.{name}",
                f"no longer asks the user ({name!r})",
                at,
                None,
                declaration,
            )
            continue
        new_index, new_declaration = after[name]
        new_at = jp.join(new.pointer, "elicitations", new_index)
        yield from _members_changed(
            label,
            at,
            new_at,
            declaration,
            new_declaration,
            "elicitation-{}-changed",
            f"elicitations.{name}.",
            wording=WORDING | ELICITATION_WORDING,
        )
    for name, (index, declaration) in after.items():
        if name not in before:
            yield Change(
                Level.NON_BREAKING,
                "elicitation-added",
                label,
                f"elicitations.{name}",
                f"may now ask the user ({name!r})",
                None,
                jp.join(new.pointer, "elicitations", index),
                ABSENT,
                declaration,
            )


def _annotations(label: str, old: Declared, new: Declared) -> Iterator[Change]:
    before, after = as_object(old.data.get("annotations")), as_object(new.data.get("annotations"))
    old_at, new_at = jp.join(old.pointer, "annotations"), jp.join(new.pointer, "annotations")
    yield from _members_changed(label, old_at, new_at, before, after, "annotation-{}-changed", "annotations.")


def _renames(
    gone: list[PrimitiveKey],
    added: list[PrimitiveKey],
    old: Mapping[PrimitiveKey, Sequence[Declared]],
    new: Mapping[PrimitiveKey, Sequence[Declared]],
) -> dict[PrimitiveKey, PrimitiveKey]:
    """Removed primitives whose declarations reappear, the same but for their identity,
    under a new one: one rename each, not a removal and an addition."""

    def body(key: PrimitiveKey, declared: Sequence[Declared]) -> str:
        return canonical(
            [{k: v for k, v in d.data.items() if k not in ("name", "uri", "uriTemplate")} for d in declared]
        )

    waiting: dict[tuple[str, str], list[PrimitiveKey]] = {}
    for key in added:
        waiting.setdefault((key[0], body(key, new[key])), []).append(key)
    renamed: dict[PrimitiveKey, PrimitiveKey] = {}
    for key in gone:
        candidates = waiting.get((key[0], body(key, old[key])))
        if candidates:
            renamed[key] = candidates.pop(0)
    return renamed


def _with_versions(change: Change, versions: tuple[str, ...]) -> Change:
    if not versions:
        return change
    return Change(
        change.level,
        change.code,
        change.primitive,
        change.member,
        change.message,
        change.old_pointer,
        change.new_pointer,
        change.old_value,
        change.new_value,
        versions,
    )


def _merged(changes: list[Change]) -> list[Change]:
    """The same change found in several variants, once, with their versions together."""
    merged: dict[tuple[str, str, str, str, str, str], Change] = {}
    for change in changes:
        key = (
            change.code,
            change.primitive,
            change.member,
            change.message,
            _value_key(change.old_value),
            _value_key(change.new_value),
        )
        kept = merged.get(key)
        if kept is None:
            merged[key] = change
        elif kept.versions and change.versions:
            versions = tuple(sorted({*kept.versions, *change.versions}))
            merged[key] = _with_versions(kept, versions)
    return list(merged.values())


def _value_key(value: object) -> str:
    return "absent" if value is ABSENT else canonical(value)


def compare(old: View, new: View) -> tuple[list[Change], bool]:
    """Every change from ``old`` to ``new``, most serious first, and whether a schema
    comparison stopped at its budget."""
    comparison = Comparison(old, new)
    found = comparison.changes()
    return found, comparison.truncated


__all__ = ["compare"]
