"""The request samples of a description, with the schema each must satisfy: every tool's
sample arguments against its effective input schema, every template's URI against its
template (tests/test_request_samples.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcpdesc_docs.model.builder import build_site
from mcpdesc_docs.model.components import resolve, schema_site
from mcpdesc_docs.source.load import read_source
from mcpdesc_docs.validation.document import as_object
from mcpdesc_docs.validation.validator import check_document


def tool_samples(path: Path) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(page and variant, the sample's arguments, the effective input schema) per tool variant."""
    check = check_document(read_source(path).data)
    document = check.document
    assert document is not None, path
    primitives = {p.pointer: p for p in document.primitives_of("tool")}
    site = build_site(document)
    for page in site.pages:
        for variant in page.variants:
            if page.kind != "tool" or variant.pointer not in primitives:
                continue
            site_of_schema = schema_site(primitives[variant.pointer], "inputSchema")
            schema = as_object(resolve(document, site_of_schema)[0]) if site_of_schema else {}
            arguments = json.loads(variant.request.json)["params"]["arguments"]
            yield f"{page.name} {variant.anchor}", arguments, dict(schema)
