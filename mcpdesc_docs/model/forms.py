"""A form-mode ``requestedSchema`` -> the fields of a preview that looks like a client's dialog.

Only the restricted elicitation vocabulary is mapped (the validator has already checked
it): strings with their formats and lengths, numbers and integers with bounds, booleans,
single-select (legacy ``enum`` with ``enumNames``, or titled ``oneOf``) and multi-select
arrays (``items.enum`` or titled ``items.anyOf``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ..records import record
from .schema_tree import number_text

Control = Literal["text", "email", "url", "date", "datetime-local", "number", "checkbox", "select", "select-multiple"]

_STRING_FORMATS: dict[str, Control] = {"email": "email", "uri": "url", "date": "date", "date-time": "datetime-local"}


@record
class Option:
    value: str
    label: str
    """The display name (``enumNames`` entry or ``title``); the value when there is none."""
    selected: bool = False


@record
class FormField:
    name: str
    """The property name: the control's ``name``."""
    label: str
    """``title``, else the property name."""
    help: str | None
    """``description``."""
    required: bool
    control: Control
    json_type: str
    minimum: str | None = None
    maximum: str | None = None
    step: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    value: str | None = None
    """The default, pre-filled (text and number controls)."""
    checked: bool = False
    """The default of a boolean."""
    options: tuple[Option, ...] = ()
    constraint: str | None = None
    """The limits in plain words, shown next to the control ("0–40", "1–3 choices")."""
    has_default: bool = False

    @property
    def input_id(self) -> str:
        return self.name


@record
class FormPreview:
    fields: tuple[FormField, ...]


def _range_words(low: str | None, high: str | None, unit: str = "") -> str | None:
    suffix = f" {unit}" if unit else ""
    if low is not None and high is not None:
        return f"{low}–{high}{suffix}" if low != high else f"exactly {low}{suffix}"
    if low is not None:
        return f"at least {low}{suffix}"
    if high is not None:
        return f"at most {high}{suffix}"
    return None


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _choices(schema: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    """(value, label) pairs of a single-select string schema, or None if it is not one."""
    enum = schema.get("enum")
    if isinstance(enum, list):
        names = schema.get("enumNames")
        labels = names if isinstance(names, list) and len(names) == len(enum) else enum
        return [(str(value), str(label)) for value, label in zip(enum, labels, strict=True)]
    one_of = schema.get("oneOf")
    if isinstance(one_of, list):
        return [(str(item.get("const")), str(item.get("title", item.get("const")))) for item in one_of]
    return None


def _multi_choices(items: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    enum = items.get("enum")
    if isinstance(enum, list):
        return [(str(value), str(value)) for value in enum]
    any_of = items.get("anyOf")
    if isinstance(any_of, list):
        return [(str(item.get("const")), str(item.get("title", item.get("const")))) for item in any_of]
    return None


def build_form_field(name: str, schema: Mapping[str, Any], required: bool) -> FormField:
    title = schema.get("title")
    description = schema.get("description")
    common: dict[str, Any] = {
        "name": name,
        "label": title if isinstance(title, str) and title else name,
        "help": description if isinstance(description, str) else None,
        "required": required,
        "has_default": "default" in schema,
    }
    kind = schema.get("type")
    default = schema.get("default")
    if kind == "boolean":
        return FormField(control="checkbox", json_type="boolean", checked=default is True, **common)
    if kind in ("number", "integer"):
        low, high = number_text(schema.get("minimum")), number_text(schema.get("maximum"))
        return FormField(
            control="number",
            json_type=kind,
            minimum=low,
            maximum=high,
            step="1" if kind == "integer" else "any",
            value=number_text(default),
            constraint=_range_words(low, high),
            **common,
        )
    if kind == "string":
        choices = _choices(schema)
        if choices is not None:
            options = tuple(Option(value, label, value == default) for value, label in choices)
            return FormField(control="select", json_type="string", options=options, **common)
        min_length, max_length = _count(schema.get("minLength")), _count(schema.get("maxLength"))
        lengths = _range_words(
            None if min_length is None else str(min_length),
            None if max_length is None else str(max_length),
            "characters",
        )
        fmt = schema.get("format")
        return FormField(
            control=_STRING_FORMATS.get(fmt, "text") if isinstance(fmt, str) else "text",
            json_type="string",
            min_length=min_length,
            max_length=max_length,
            value=default if isinstance(default, str) else None,
            constraint=lengths,
            **common,
        )
    if kind == "array":
        items = schema.get("items")
        choices = _multi_choices(items) if isinstance(items, Mapping) else None
        if choices is None:
            return _fallback(common, "array")
        chosen = set(default) if isinstance(default, list) else set()
        min_items, max_items = _count(schema.get("minItems")), _count(schema.get("maxItems"))
        return FormField(
            control="select-multiple",
            json_type="array",
            options=tuple(Option(value, label, value in chosen) for value, label in choices),
            min_items=min_items,
            max_items=max_items,
            constraint=_range_words(
                None if min_items is None else str(min_items),
                None if max_items is None else str(max_items),
                "choices",
            ),
            **common,
        )
    return _fallback(common, kind if isinstance(kind, str) else "unknown")


def _fallback(common: dict[str, Any], json_type: str) -> FormField:
    # Outside the restricted vocabulary (possible only under legacy protocol versions,
    # which are checked structurally): still one control, so the preview stays complete.
    return FormField(control="text", json_type=json_type, constraint="shape not shown in detail", **common)


def build_form_preview(schema: Mapping[str, Any]) -> FormPreview:
    properties = schema.get("properties")
    required = schema.get("required")
    required_names = {item for item in required if isinstance(item, str)} if isinstance(required, list) else set()
    fields: list[FormField] = []
    if isinstance(properties, Mapping):
        for name, property_schema in properties.items():
            shape = property_schema if isinstance(property_schema, Mapping) else {}
            fields.append(build_form_field(name, shape, name in required_names))
    return FormPreview(tuple(fields))
