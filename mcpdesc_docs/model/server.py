"""The server itself: ``info``, the tag catalogue and the declared capabilities."""

from __future__ import annotations

from ..validation.document import Document, as_list, as_object
from .schema_tree import dump_json
from .site import CapabilityEntry, CapabilityFlag, CapabilitySet, Contact, License, Server, Tag
from .urls import capabilities_anchor, tag_anchor, tag_pages
from .values import extensions, icons, link, root_level_scope, string

CAPABILITY_FLAGS = ("listChanged", "subscribe")
"""Capability members with a defined meaning, shown as flags; the rest is shown as data."""


def build_server(document: Document) -> Server:
    info = as_object(document.data.get("info"))
    contact = as_object(info.get("contact")) if "contact" in info else None
    license_ = as_object(info.get("license")) if "license" in info else None
    name = string(info, "name") or ""
    return Server(
        name=name,
        title=string(info, "title") or name,
        version=string(info, "version") or "",
        description=string(info, "description"),
        id=string(info, "id"),
        icons=icons(info.get("icons")),
        website=link(info.get("websiteUrl")),
        contact=Contact(
            string(contact, "name"), link(contact.get("url")), string(contact, "email"), extensions(contact)
        )
        if contact is not None
        else None,
        license=License(string(license_, "name") or "", link(license_.get("url")), extensions(license_))
        if license_ is not None
        else None,
        extensions=extensions(info),
    )


def build_tags(document: Document) -> tuple[Tag, ...]:
    tags = []
    paths = tag_pages()
    for item in as_list(document.data.get("tags")):
        data = as_object(item)
        name = string(data, "name") or ""
        _, path = paths.take(name)
        tags.append(Tag(name, tag_anchor(name), string(data, "description"), extensions(data), path))
    return tuple(tags)


def declared_tags(document: Document) -> frozenset[str]:
    names = (string(as_object(tag), "name") for tag in as_list(document.data.get("tags")))
    return frozenset(name for name in names if name)


def build_capabilities(document: Document) -> tuple[CapabilitySet, ...]:
    sets = []
    for index, item in enumerate(as_list(document.data.get("capabilities"))):
        data = as_object(item)
        entries = []
        for name, value in data.items():
            if name == "protocolVersions" or name.startswith("x-"):
                continue
            members = as_object(value)
            flags = tuple(
                CapabilityFlag(flag, flag_value)
                for flag, flag_value in members.items()
                if flag in CAPABILITY_FLAGS and isinstance(flag_value, bool)
            )
            rest = {k: v for k, v in members.items() if k not in CAPABILITY_FLAGS}
            entries.append(CapabilityEntry(name, flags, dump_json(rest) if rest else None))
        sets.append(
            CapabilitySet(
                anchor=capabilities_anchor(index),
                scope=root_level_scope(document, data),
                entries=tuple(entries),
                extensions=extensions(data),
            )
        )
    return tuple(sets)
