"""The JSON Schema dialects examples are checked with: jsonschema's, with every keyword
that matches a regular expression on RE2, and every keyword paid for from the document's
budget.

jsonschema matches ``pattern``, ``patternProperties`` (and, through them,
``additionalProperties`` and ``unevaluatedProperties``) with Python's backtracking ``re``.
It has no pluggable regex engine, but a dialect can be extended with replacement keyword
functions: these keep jsonschema's messages and semantics and match with
:mod:`.linear_regex`. A pattern that cannot be matched in linear time (or that the budget
cannot pay for) is not applied; the evaluation notes why, and the check that ran it
reports itself incomplete.

Paying for keyword evaluations bounds what schemas can do without any regular
expression: a chain of ``anyOf`` branches sharing ``$ref`` targets doubles the work with
every link. ``uniqueItems`` and ``properties`` are replaced too: jsonschema compares
unsortable items (objects) pairwise, quadratic in the length of the array, and walks all
declared properties for every value, whatever the value holds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from jsonschema import validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

from .budget import BRANCH_COST, ITEM_COST, KEYWORD_COST, OVER_BUDGET, REFERENCE_COST, Budget
from .linear_regex import compile_linear


@dataclass(slots=True)
class Evaluation:
    """What one instance check may spend, and which of its parts it had to skip."""

    budget: Budget
    unchecked: dict[str, None] = field(default_factory=dict)
    """Why parts were skipped, each reason once, in the order met."""

    def note(self, reason: str) -> None:
        self.unchecked.setdefault(reason)


_CURRENT: ContextVar[Evaluation | None] = ContextVar("mcpdesc_schema_evaluation", default=None)


@contextmanager
def evaluating(budget: Budget) -> Iterator[Evaluation]:
    """Keyword evaluations inside the block spend from ``budget`` and note what they skip.
    (Keywords cannot carry it themselves: jsonschema creates a validator per subschema.)"""
    evaluation = Evaluation(budget)
    token = _CURRENT.set(evaluation)
    try:
        yield evaluation
    finally:
        _CURRENT.reset(token)


def _search(pattern: object, text: str) -> bool | None:
    """Whether ``pattern`` matches in ``text``; None when that cannot be found out."""
    if not isinstance(pattern, str):
        return None
    evaluation = _CURRENT.get()
    regex = compile_linear(pattern, evaluation.budget if evaluation is not None else None)
    if regex is None:
        if evaluation is not None:
            evaluation.note(OVER_BUDGET)
        return None
    if isinstance(regex, str):
        if evaluation is not None:
            evaluation.note(regex)
        return None
    if evaluation is not None and not evaluation.budget.afford(regex.cost(text)):
        evaluation.note(OVER_BUDGET)
        return None
    return regex.search(text)


def _listed(extras: list[Any]) -> tuple[str, str]:
    return ", ".join(repr(extra) for extra in extras), "was" if len(extras) == 1 else "were"


def pattern(validator: Any, patrn: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and _search(patrn, instance) is False:
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for regex, subschema in patterns.items():
        for key, value in instance.items():
            if _search(regex, key):
                yield from validator.descend(value, subschema, path=key, schema_path=regex)


def _additional_keys(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> set[str]:
    """The keys neither ``properties`` nor ``patternProperties`` cover. A key only a pattern
    that cannot be matched might cover is left out: whether it is additional is unknown."""
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras: set[str] = set()
    for key in instance:
        if key in properties:
            continue
        unknown = False
        for regex in patterns:
            found = _search(regex, key)
            if found:
                break
            unknown = unknown or found is None
        else:
            if not unknown:
                extras.add(key)
    return extras


def additional_properties(validator: Any, allowed: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    extras = _additional_keys(instance, schema)
    if validator.is_type(allowed, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], allowed, path=extra)
    elif not allowed and extras:
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")
        else:
            listed, verb = _listed(sorted(extras, key=str))
            yield ValidationError(f"Additional properties are not allowed ({listed} {verb} unexpected)")


def _valid(errors: Iterator[ValidationError]) -> bool:
    return next(errors, None) is None


def _evaluated_keys(validator: Any, instance: Mapping[str, Any], schema: Any) -> set[str]:
    """The keys of ``instance`` that keywords of ``schema`` (and the subschemas it applies
    successfully) evaluate: what ``unevaluatedProperties`` leaves alone (2020-12, 11.3).
    A key only an unmatchable pattern might evaluate counts as evaluated, so that it is
    not reported as unexpected on a guess."""
    if not isinstance(schema, Mapping):
        return set()
    keys: set[str] = set()
    for keyword in ("$ref", "$dynamicRef"):
        reference = schema.get(keyword)
        if isinstance(reference, str):
            resolved = validator._resolver.lookup(reference)
            target = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys |= _evaluated_keys(target, instance, resolved.contents)
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        keys.update(key for key in instance if key in properties)
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            subschema = schema[keyword]
            keys.update(key for key, value in instance.items() if _valid(validator.descend(value, subschema)))
    patterns = schema.get("patternProperties")
    if isinstance(patterns, Mapping):
        keys.update(key for key in instance if any(_search(regex, key) is not False for regex in patterns))
    for name, subschema in schema.get("dependentSchemas", {}).items():
        if name in instance:
            keys |= _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _valid(validator.descend(instance, subschema)):
                keys |= _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys |= _evaluated_keys(validator, instance, schema["if"])
            keys |= _evaluated_keys(validator, instance, schema.get("then"))
        else:
            keys |= _evaluated_keys(validator, instance, schema.get("else"))
    return keys


def unevaluated_properties(validator: Any, allowed: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    failing: list[str] = []
    for key in instance:
        if key not in evaluated:
            # One entry per error, as jsonschema reports them.
            failing.extend(key for _ in validator.descend(instance[key], allowed, path=key, schema_path=key))
    if not failing:
        return
    if allowed is False:
        listed, verb = _listed(sorted(failing, key=str))
        yield ValidationError(f"Unevaluated properties are not allowed ({listed} {verb} unexpected)")
    else:
        listed, verb = _listed(failing)
        yield ValidationError(
            f"Unevaluated properties are not valid under the given schema ({listed} {verb} unevaluated and invalid)"
        )


def _hashable(value: Any) -> Hashable:
    """A hashable stand-in for a JSON value, equal for values JSON Schema calls equal: 1 and
    1.0 are the same number, true is not 1, objects ignore member order."""
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, list):
        return ("array", tuple(_hashable(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, _hashable(item)) for key, item in value.items()))
    scalar: Hashable = value
    return scalar


def all_unique(items: list[Any]) -> bool:
    """Whether no two items are equal as JSON Schema compares them, in linear time
    (jsonschema compares objects pairwise)."""
    keys = [_hashable(item) for item in items]
    return len(set(keys)) == len(keys)


def unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if unique and validator.is_type(instance, "array") and not all_unique(instance):
        yield ValidationError(f"{instance!r} has non-unique elements")


def properties(validator: Any, declared: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """jsonschema walks every declared property for every value checked: a schema of 3,000
    properties against 3,000 examples of one property each is nine million steps. Walking
    the smaller side costs what the example holds; errors come in the order jsonschema
    gives them when the schema is the smaller side, else in the order of the value."""
    if not validator.is_type(instance, "object"):
        return
    if len(instance) < len(declared):
        names = [name for name in instance if name in declared]
    else:
        names = [name for name in declared if name in instance]
    for name in names:
        yield from validator.descend(instance[name], declared[name], path=name, schema_path=name)


Keyword = Callable[[Any, Any, Any, Any], Any]

LINEAR_KEYWORDS: dict[str, Keyword] = {
    "pattern": pattern,
    "patternProperties": pattern_properties,
    "additionalProperties": additional_properties,
    "unevaluatedProperties": unevaluated_properties,
    "uniqueItems": unique_items,
    "properties": properties,
}

_PER_ENTRY = {
    **dict.fromkeys(("allOf", "anyOf", "oneOf"), BRANCH_COST),
    **dict.fromkeys(("required", "enum", "dependentRequired", "dependentSchemas"), ITEM_COST),
}


def _cost(name: str, value: Any, instance: Any) -> int:
    cost = KEYWORD_COST + (REFERENCE_COST if name in ("$ref", "$dynamicRef") else 0)
    if name in _PER_ENTRY and isinstance(value, list | dict):
        cost += _PER_ENTRY[name] * len(value)
    elif name == "properties" and isinstance(value, dict) and isinstance(instance, dict):
        cost += ITEM_COST * min(len(value), len(instance))
    elif name == "uniqueItems" and isinstance(instance, list):
        cost += ITEM_COST * len(instance)
    return cost


def _paid(name: str, keyword: Keyword) -> Keyword:
    def evaluate(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        evaluation = _CURRENT.get()
        if evaluation is not None:
            evaluation.budget.spend(_cost(name, value, instance))
        return keyword(validator, value, instance, schema)

    return evaluate


extend_dialect: Callable[..., type[Validator]] = validators.extend
"""jsonschema's ``extend`` (untyped in its stubs), typed."""


def _beside_an_array_of_items(additional_items: Keyword) -> Keyword:
    """Draft-07's ``additionalItems`` applied only beside an array of ``items``, as the
    draft says: jsonschema measures ``len(items)`` whenever ``items`` is not an object, so
    a boolean ``items`` schema (``items: false``) crashed it with a TypeError."""

    def keyword(validator: Any, allowed: Any, instance: Any, schema: Any) -> Any:
        if isinstance(schema.get("items"), bool):
            return iter(())
        return additional_items(validator, allowed, instance, schema)

    return keyword


def linear_dialect(dialect: type[Validator]) -> type[Validator]:
    """``dialect`` with regular expressions on RE2 and every keyword paid for. Not
    registered for its meta-schema URI, so jsonschema's own lookups are unaffected."""
    keywords = {name: LINEAR_KEYWORDS.get(name) or function for name, function in dialect.VALIDATORS.items()}
    if "additionalItems" in keywords:
        keywords["additionalItems"] = _beside_an_array_of_items(keywords["additionalItems"])
    return extend_dialect(dialect, {name: _paid(name, keyword) for name, keyword in keywords.items()})


__all__ = ["Evaluation", "evaluating", "extend_dialect", "linear_dialect", "unique_items"]
