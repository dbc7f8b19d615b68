"""jsonschema's share of checking embedded schemas: wording why a schema is not valid under
its dialect's meta-schema, and evaluating a value against a schema, budgeted, with the
keywords of :mod:`.schema_keywords`.

Imported only when the compiled checks of :mod:`.json_schema` cannot decide: a schema the
compiled meta-schema refuses, a value the compiled copy finds invalid (or cannot check).
Valid descriptions never load jsonschema.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import referencing.exceptions
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError
from jsonschema.protocols import Validator
from referencing import Registry

from .budget import OVER_BUDGET, TOO_DEEP, Budget, OutOfWork, stack_headroom
from .linear_regex import is_regex
from .schema_keywords import evaluating, linear_dialect

Dialect = type[Draft202012Validator] | type[Draft7Validator]

CLASSES: dict[str, Dialect] = {"2020-12": Draft202012Validator, "draft-07": Draft7Validator}
"""jsonschema's class for each dialect :mod:`.json_schema` names."""


def _safe_formats(dialect: Dialect) -> FormatChecker:
    """The dialect's format checker, with the ``regex`` format (which schemas' patterns are
    checked against, by the meta-schema) safe on untrusted patterns."""
    checker = FormatChecker(formats=())
    checker.checkers = {**dialect.FORMAT_CHECKER.checkers, "regex": (is_regex, ())}
    return checker


META_FORMATS: dict[str, FormatChecker] = {name: _safe_formats(cls) for name, cls in CLASSES.items()}
_LINEAR: dict[str, type[Validator]] = {name: linear_dialect(cls) for name, cls in CLASSES.items()}
"""Each dialect as examples are checked with it (see schema_keywords)."""


def meta_schema_problem(dialect: str, schema: Any) -> str | None:
    """Why ``schema`` is not valid under the dialect's meta-schema, in jsonschema's words;
    None when it is. Raises RecursionError for a schema too deep to check."""
    try:
        CLASSES[dialect].check_schema(schema, format_checker=META_FORMATS[dialect])
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        return f"{exc.message}" + (f" (at {where})" if where else "")
    return None


@lru_cache(maxsize=512)
def evaluator(text: str, dialect: str) -> Validator:
    """The budgeted evaluator of a schema (by its text), built once."""
    # An empty registry: a reference outside the schema is never retrieved.
    return _LINEAR[dialect](json.loads(text), registry=Registry())


def problems(
    validator: Validator, instance: Any, budget: Budget, limit: int
) -> tuple[list[tuple[tuple[str | int, ...], str]], list[str], bool]:
    """Up to ``limit`` (path, message) problems of ``instance``, why parts went unchecked,
    and whether a reference could not be resolved (the problems are then left out)."""
    found: list[tuple[tuple[str | int, ...], str]] = []
    with evaluating(budget) as evaluation, stack_headroom():
        try:
            for problem in validator.iter_errors(instance):
                found.append((tuple(problem.absolute_path), problem.message))
                if len(found) >= limit:
                    break
        except referencing.exceptions.Unresolvable:
            return [], [], True
        except RecursionError:
            evaluation.note(TOO_DEEP)
        except OutOfWork:
            evaluation.note(OVER_BUDGET)
    return found, list(evaluation.unchecked), False


__all__ = ["CLASSES", "META_FORMATS", "evaluator", "meta_schema_problem", "problems"]
