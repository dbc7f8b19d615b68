"""A compact structural check of SARIF 2.1.0 logs, as a JSON Schema written for these tests
from the object definitions of the OASIS standard (sections 3.11-3.58): the objects a log
of ours can hold, each closed (as the standard's own schema closes them), with the members
each requires and the values its enumerations allow. Anything our logs do not use is left
out, so a member we start writing must be added here first, from the standard."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

_MESSAGE = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}, "id": {"type": "string"}},
    "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
    "additionalProperties": False,
}
_MULTIFORMAT = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}},
    "required": ["text"],
    "additionalProperties": False,
}
_LEVEL = {"enum": ["none", "note", "warning", "error"]}
_PROPERTY_BAG = {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}
_POSITIVE = {"type": "integer", "minimum": 1}

SARIF_2_1_0: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "items": {"$ref": "#/$defs/run"}},
    },
    "additionalProperties": False,
    "$defs": {
        "run": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {
                    "type": "object",
                    "required": ["driver"],
                    "properties": {"driver": {"$ref": "#/$defs/toolComponent"}},
                    "additionalProperties": False,
                },
                "invocations": {"type": "array", "items": {"$ref": "#/$defs/invocation"}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "results": {"type": "array", "items": {"$ref": "#/$defs/result"}},
            },
            "additionalProperties": False,
        },
        "toolComponent": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "version": {"type": "string"},
                "informationUri": {"type": "string", "format": "uri"},
                "rules": {"type": "array", "items": {"$ref": "#/$defs/reportingDescriptor"}},
            },
            "additionalProperties": False,
        },
        "reportingDescriptor": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "shortDescription": _MULTIFORMAT,
                "fullDescription": _MULTIFORMAT,
                "help": _MULTIFORMAT,
                "defaultConfiguration": {
                    "type": "object",
                    "properties": {"level": _LEVEL},
                    "additionalProperties": False,
                },
            },
            "additionalProperties": False,
        },
        "invocation": {
            "type": "object",
            "required": ["executionSuccessful"],
            "properties": {
                "executionSuccessful": {"type": "boolean"},
                "toolExecutionNotifications": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["message"],
                        "properties": {"message": _MESSAGE, "level": _LEVEL},
                        "additionalProperties": False,
                    },
                },
            },
            "additionalProperties": False,
        },
        "result": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "ruleId": {"type": "string"},
                "ruleIndex": {"type": "integer", "minimum": -1},
                "level": _LEVEL,
                "message": _MESSAGE,
                "locations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                "properties": _PROPERTY_BAG,
            },
            "additionalProperties": False,
        },
        "location": {
            "type": "object",
            "properties": {
                "physicalLocation": {
                    "type": "object",
                    "required": ["artifactLocation"],
                    "properties": {
                        "artifactLocation": {
                            "type": "object",
                            "properties": {"uri": {"type": "string", "format": "uri-reference"}},
                            "additionalProperties": False,
                        },
                        "region": {
                            "type": "object",
                            "properties": {"startLine": _POSITIVE, "startColumn": _POSITIVE},
                            "additionalProperties": False,
                        },
                    },
                    "additionalProperties": False,
                },
                "logicalLocations": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"fullyQualifiedName": {"type": "string"}, "kind": {"type": "string"}},
                        "additionalProperties": False,
                    },
                },
            },
            "additionalProperties": False,
        },
    },
}


def sarif_problems(log: object) -> list[str]:
    """Where ``log`` departs from the structure of SARIF 2.1.0 (empty when it does not)."""
    validator = Draft202012Validator(SARIF_2_1_0, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(log)]
