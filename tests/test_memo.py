"""``ByObject``: results kept by the identity of the (never mutated) value they came from."""

from __future__ import annotations

from mcpdesc_docs.validation.memo import ByObject


def test_a_result_is_computed_once_per_object_not_per_equal_value() -> None:
    calls: list[object] = []

    def compute(value: object) -> int:
        calls.append(value)
        return len(calls)

    memo: ByObject[int] = ByObject(compute)
    schema = {"type": "string"}
    assert memo(schema) == memo(schema) == 1
    twin = {"type": "string"}  # equal, but another object: its own entry
    assert memo(twin) == 2
    assert calls == [schema, twin]


def test_entries_keep_their_objects_and_the_memo_stays_bounded() -> None:
    # Each value is dropped right after use; were its id reused by the next value while an
    # entry still named it, the next value would get the old result.
    counter = iter(range(1000))
    memo: ByObject[int] = ByObject(lambda value: next(counter), limit=3)
    seen: set[int] = set()
    for _ in range(50):
        result = memo({"n": 1})
        assert result not in seen
        seen.add(result)
        assert len(memo) <= 3
