"""RFC 6901 JSON Pointers: what ``join`` writes, ``split`` and ``lookup`` read back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcpdesc_docs.kinds import KINDS
from mcpdesc_docs.source import pointer as jp

SEGMENTS = st.lists(st.text(alphabet=st.sampled_from("ab~/01 é")) | st.integers(min_value=0, max_value=99), max_size=5)


def test_tilde_and_slash_are_escaped_in_that_order() -> None:
    assert jp.join("", "a/b", "m~n", 3) == "/a~1b/m~0n/3"
    assert jp.join("/tools/0", "~1") == "/tools/0/~01"  # "~1" literally, not an escaped "/"
    assert jp.join("/x") == "/x"


@given(SEGMENTS)
def test_a_joined_pointer_splits_back_into_its_segments(segments: list[str | int]) -> None:
    assert jp.split(jp.join("", *segments)) == [str(segment) for segment in segments]


@given(SEGMENTS)
def test_a_joined_pointer_looks_up_the_value_it_names(segments: list[str | int]) -> None:
    data: object = "leaf"
    for segment in reversed(segments):
        data = [None] * segment + [data] if isinstance(segment, int) else {segment: data}
    assert jp.lookup(data, jp.join("", *segments)) == "leaf"


def test_the_collections_need_no_escaping_in_a_pointer() -> None:
    # Document.build writes "/<collection>/<index>/elicitations/<position>" directly.
    for kind in KINDS:
        assert jp.join("", kind.collection, 3, "elicitations", 1) == f"/{kind.collection}/3/elicitations/1"
