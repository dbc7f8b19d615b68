"""The shared corpus is present and whole: without it the conformance and example tests
would collect no cases and pass by accident (see ``shared_data.require``)."""

from __future__ import annotations

from .shared_data import CONFORMANCE, EXAMPLES_070_DIR, EXAMPLES_DIR, descriptions_in, require


def test_conformance_corpus_is_present_and_whole() -> None:
    require(CONFORMANCE, "the upstream 0.8.0 conformance corpus")
    # The corpus README: 94 fixtures, the folder is the verdict.
    counts = {
        folder: len(descriptions_in(CONFORMANCE / folder))
        for folder in ("expected-valid", "expected-invalid", "expected-warning")
    }
    assert counts == {"expected-valid": 20, "expected-invalid": 59, "expected-warning": 15}


def test_examples_corpus_is_present_and_whole() -> None:
    require(EXAMPLES_DIR, "the upstream 0.8.0 examples")
    assert len(descriptions_in(EXAMPLES_DIR)) == 8


def test_examples_070_corpus_is_present_and_whole() -> None:
    require(EXAMPLES_070_DIR, "the real 0.7.0 descriptions of public servers")
    assert len(descriptions_in(EXAMPLES_070_DIR)) == 9
