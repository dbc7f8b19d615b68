"""Page paths, tag paths and anchor ids: one allocation rule, linear in the number of names."""

from __future__ import annotations

import random

import pytest

from mcpdesc_docs.model.urls import PageAnchors, PagePaths, UniqueNames


def probing_from_two(names: list[str]) -> list[str]:
    """The rule as users see it, the slow way: a repeat gets the first free -2, -3 ..."""
    taken: set[str] = set()
    result = []
    for name in names:
        candidate, n = name, 2
        while candidate in taken:
            candidate, n = f"{name}-{n}", n + 1
        taken.add(candidate)
        result.append(candidate)
    return result


def take_all(names: list[str]) -> list[str]:
    allocator = UniqueNames()
    return [allocator.take(name) for name in names]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["a", "a", "a-2"], ["a", "a-2", "a-2-2"]),
        (["a-2", "a", "a"], ["a-2", "a", "a-3"]),
        (["a", "a", "a", "a-3"], ["a", "a-2", "a-3", "a-3-2"]),
        (["a", "a-2", "a", "a", "a-2"], ["a", "a-2", "a-3", "a-4", "a-2-2"]),
        (["a-3", "a", "a", "a", "a"], ["a-3", "a", "a-2", "a-4", "a-5"]),
        (["b", "a", "b", "a"], ["b", "a", "b-2", "a-2"]),
    ],
)
def test_repeats_get_the_first_free_suffix(names, expected):
    assert take_all(names) == expected


def test_same_names_as_probing_from_two_on_random_sequences():
    rng = random.Random(14)
    alphabet = ["a", "a-2", "a-3", "a-2-2", "b", "a-10", "b-2"]
    for _ in range(300):
        names = [rng.choice(alphabet) for _ in range(rng.randint(1, 25))]
        assert take_all(names) == probing_from_two(names), names


def probes(names: list[str]) -> int:
    allocator = UniqueNames()
    for name in names:
        allocator.take(name)
    return allocator.probes


def test_many_equal_names_cost_linear_work():
    # Probing from -2 each time would look at n²/2 candidates (2 million for 2000 names).
    assert probes(["doc"] * 2000) == 2 * 2000 - 1
    assert probes(["doc"] * 4000) / probes(["doc"] * 2000) <= 2.01


def test_names_taken_by_others_are_skipped_once():
    # "doc-2" ... "doc-1001" declared first: each later "doc" must skip them, but only once.
    names = [f"doc-{n}" for n in range(2, 1002)] + ["doc"] * 1001
    assert take_all(names)[-1] == "doc-2001"
    assert probes(names) <= 4 * len(names)


def test_page_paths_are_unique_slugs_within_a_directory():
    tools, tags = PagePaths("tools"), PagePaths("tags")
    assert [tools.take(name) for name in ["Search", "search", "search-2", "Sëarch"]] == [
        ("search", "tools/search.html"),
        ("search-2", "tools/search-2.html"),
        ("search-2-2", "tools/search-2-2.html"),
        ("search-3", "tools/search-3.html"),
    ]
    assert tags.take("search") == ("search", "tags/search.html")  # another directory, another namespace


def test_page_anchors_in_reading_order():
    single = PageAnchors()
    assert single.variants(1) == ["declaration"]
    assert single.elicitation("ask") == "elicitation-ask"
    several = PageAnchors()
    assert several.variants(2) == ["variant-1", "variant-2"]
    # Two variants declaring the same names: the later ones get a suffix.
    assert [several.elicitation("ask"), several.elicitation("ask"), several.elicitation("ask-2")] == [
        "elicitation-ask",
        "elicitation-ask-2",
        "elicitation-ask-2-2",
    ]
    assert [several.example("ok"), several.interaction("ok"), several.completion("ok"), several.example("ok")] == [
        "example-ok",
        "interaction-ok",
        "completion-ok",
        "example-ok-2",
    ]
