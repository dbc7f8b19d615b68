"""The schemas ``mcpdesc-docs schema`` prints for editors: the structural schema the validator
uses for a format version, with words for completion and hover, and the schema of
mcpdesc-docs.yml. Each is one self-contained Draft 2020-12 document (no ``$ref`` at all), so
an editor needs no network to use it.

The exported description schema accepts exactly what the validator's structural check
accepts (tests/test_schema_export.py holds it to that on the corpus): it is the same schema
with our ``x-*`` annotation keywords (which carry diagnostic wording, nothing an editor
reads) taken out and ``description`` / ``enumDescriptions`` (VS Code's) added."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..resources import available_themes
from ..source.limits import DEFAULT_LIMITS, LIMIT_CEILINGS, Limits
from .schema import document_schema
from .schema070 import document_schema_070
from .schema_docs import ENUM_DOCS, MEMBER_DOCS
from .schema_parts import Schema
from .versions import SPEC_0_7_0, SUPPORTED, Specification

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# The keywords whose value is a schema, a map of schemas, or a list of them: only there
# does the walk look for more schemas (elsewhere an `x-` key or a "description" is data).
_ONE = frozenset(
    {
        "additionalProperties",
        "items",
        "not",
        "if",
        "then",
        "else",
        "propertyNames",
        "contains",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_MAP = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})
_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


DESCRIPTION_SCHEMA_FILE = "mcpdesc.schema.json"
"""The exported schema of the current format, as ``new`` and ``describe -o`` write it beside
a description, for the modeline they write at its top."""
CONFIG_SCHEMA_FILE = "mcpdesc-docs.schema.json"
"""The exported schema of mcpdesc-docs.yml, as ``new`` writes it beside the config."""


def modelines(schema: str) -> str:
    """The first lines of a YAML file that tell editors which schema to complete and check
    it with: the YAML language server's modeline (VS Code's YAML extension, and the other
    editors that use the server), then the comment JetBrains IDEs read. ``schema`` is a
    URL, or a path relative to the file."""
    return f"# yaml-language-server: $schema={schema}\n# $schema: {schema}\n"


def schema_file_text(schema: Schema) -> str:
    """A schema as the file written beside a project's YAML: compact (it is read by
    editors, not people: 0.2 MB where indented it would be 0.5 MB), ASCII."""
    return json.dumps(schema, separators=(",", ":")) + "\n"


def is_exported_schema(path: Path) -> bool:
    """Whether ``path`` holds a schema this tool wrote (and may write again, newer)."""
    try:
        with path.open("rb") as stream:
            start = stream.read(200)
    except OSError:
        return False
    return start.startswith(f'{{"$schema":"{DIALECT}","title":"MCP Description '.encode())


def specification_named(version: str) -> Specification:
    """The supported format whose documents say ``mcpdesc: <version>`` (KeyError if none)."""
    return {spec.mcpdesc: spec for spec in SUPPORTED}[version]


def exported_schema(spec: Specification) -> Schema:
    """The structural schema of ``spec`` as editors get it."""
    source = document_schema_070() if spec == SPEC_0_7_0 else document_schema(spec)
    schema = _for_editors(source)
    schema.pop("$id", None)  # the canonical URI names the specification's schema, not ours
    return {
        "$schema": DIALECT,
        "title": f"MCP Description {spec.name}",
        "description": (
            f"The structure of an mcpdesc {spec.name} description, as mcpdesc-docs checks it "
            "(`mcpdesc-docs validate` checks the rest: references, scopes, examples, revisions)."
        ),
        **{key: value for key, value in schema.items() if key not in ("$schema", "title")},
    }


def _for_editors(schema: Any) -> Any:
    """A copy of ``schema`` (a schema or a boolean) without our ``x-*`` keywords, with the
    words of schema_docs.py on the members and enumerations they know. New dicts
    throughout: the structural schemas share subschemas (one STRING for every string
    member), which must not all get the first member's words."""
    if not isinstance(schema, dict):
        return schema
    copied: Schema = {}
    for keyword, value in schema.items():
        if keyword.startswith("x-"):
            continue
        if keyword in _ONE:
            copied[keyword] = _for_editors(value)
        elif keyword in _LIST:
            copied[keyword] = [_for_editors(item) for item in value]
        elif keyword == "properties":
            copied[keyword] = {name: _described(name, _for_editors(item)) for name, item in value.items()}
        elif keyword in _MAP:
            copied[keyword] = {name: _for_editors(item) for name, item in value.items()}
        else:
            copied[keyword] = value
    enum = copied.get("enum")
    if isinstance(enum, list) and any(isinstance(value, str) and value in ENUM_DOCS for value in enum):
        copied["enumDescriptions"] = [ENUM_DOCS.get(value, "") if isinstance(value, str) else "" for value in enum]
    return copied


def _described(member: str, schema: Any) -> Any:
    words = MEMBER_DOCS.get(member)
    if words is None or not isinstance(schema, dict) or "description" in schema:
        return schema
    return {"description": words, **schema}


# --- mcpdesc-docs.yml ------------------------------------------------------------------------

_TEXT: Schema = {"type": "string", "pattern": "\\S"}
_HTTP_URL: Schema = {"type": "string", "format": "uri", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]"}
_DOMAIN = "(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_CSS_PATH = "^(?!/)(?![A-Za-z][A-Za-z0-9+.-]*:)(?!assets/)(?!(.*/)?\\.\\.(/|$)).+\\.[Cc][Ss][Ss]$"
"""A .css file inside the project: not absolute, not a URL, not under the theme's assets/,
not leaving through ``..``."""
_LIMIT_DOCS = {
    "max_bytes": "Largest description file, in bytes (checked before reading).",
    "max_depth": "Deepest nesting of objects and arrays.",
    "max_nodes": "Most values in the description.",
    "max_string_length": "Longest key or string value, in characters.",
    "max_primitives": "Most tools, resources, resource templates, prompts and tags together (each is a page).",
}


def config_schema() -> Schema:
    """The settings of mcpdesc-docs.yml (docs/configuration.md), as far as a schema can say:
    whether named files exist, and which rule ids ``suppress`` may name, only the tool
    knows."""
    themes = list(available_themes())
    limits = {
        name: {
            "type": "integer",
            "minimum": 1,
            **({"maximum": LIMIT_CEILINGS[name]} if LIMIT_CEILINGS[name] < 2**53 else {}),
            "default": getattr(DEFAULT_LIMITS, name),
            "description": _LIMIT_DOCS[name],
        }
        for name in Limits.field_names()
    }
    theme_name = {"enum": themes, "description": "A built-in theme."}
    return {
        "$schema": DIALECT,
        "title": "mcpdesc-docs.yml",
        "description": "The settings of an mcpdesc-docs documentation project. Paths are relative to this file.",
        "type": "object",
        "anyOf": [
            {"required": ["description"], "not": {"required": ["descriptions"]}},
            {
                "required": ["descriptions"],
                "not": {"anyOf": [{"required": ["description"]}, {"required": ["previous"]}]},
            },
        ],
        "additionalProperties": False,
        "properties": {
            "description": {**_TEXT, "description": "The description file to document (or 'descriptions')."},
            "descriptions": {
                "type": "array",
                "minItems": 1,
                "description": "A portal: the descriptions to document in one site (paths or globs, or mappings).",
                "items": {
                    "anyOf": [
                        {**_TEXT, "description": "A description file, or a glob of them (sorted)."},
                        {
                            "type": "object",
                            "required": ["path"],
                            "additionalProperties": False,
                            "properties": {
                                "path": {**_TEXT, "description": "A description file, or a glob of them."},
                                "slug": {
                                    "type": "string",
                                    "pattern": "^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$",
                                    "description": "The directory of its pages (default: from the file name).",
                                },
                                "group": {**_TEXT, "description": "The catalogue heading it is listed under."},
                            },
                        },
                    ]
                },
            },
            "site_name": {**_TEXT, "description": "The title in page headers (default: the server's title)."},
            "site_url": {**_HTTP_URL, "description": "The published address, for canonical links and sitemap.xml."},
            "site_dir": {**_TEXT, "description": "Where the site is written (default: site/ beside this file)."},
            "theme": {
                "description": "The theme: its name, or its name and a directory of overriding templates and assets.",
                "anyOf": [
                    theme_name,
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "name": theme_name,
                            "custom_dir": {**_TEXT, "description": "Templates and assets/ that replace the theme's."},
                        },
                    },
                ],
            },
            "repo_url": {**_HTTP_URL, "description": "The server's repository, linked from every page."},
            "copyright": {**_TEXT, "description": "The copyright line in page footers."},
            "strict": {"type": "boolean", "description": "Whether warnings fail validate and build (default: false)."},
            "extra_css": {
                "type": "array",
                "description": "Stylesheets in the project, copied into the site and linked from every page.",
                "items": {"type": "string", "pattern": _CSS_PATH},
            },
            "cname": {
                "type": "string",
                "pattern": f"^{_DOMAIN}$",
                "description": "A custom domain for GitHub Pages, such as docs.example.com.",
            },
            "limits": {
                "type": "object",
                "description": "How large a description may be before it is refused.",
                "additionalProperties": False,
                "properties": limits,
            },
            "suppress": {
                "type": "array",
                "description": "Rule ids, or dotted prefixes of them, whose warnings are not reported (errors are).",
                "items": {"type": "string", "minLength": 1},
            },
            "jobs": {
                "description": "Worker processes build may render pages in (default: auto, the usable cores).",
                "anyOf": [{"const": "auto"}, {"type": "integer", "minimum": 1, "maximum": 256}],
            },
            "previous": {
                "type": "string",
                "pattern": r"^(?!git:)\S|^git:[^:]+:.+$",
                "description": "The description to list changes since (changes.html): a file, or git:REF:PATH.",
            },
        },
    }
