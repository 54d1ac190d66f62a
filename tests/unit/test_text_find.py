"""The text layer's search for runs of words (memwise._text.find)."""

from __future__ import annotations

from memwise._text.find import NEAR_PLACES, Budget, Searchable, masked


def _words(text: str) -> list[str]:
    return [w for w, _, _ in Searchable(text).words]


def test_exact_finds_the_first_run_from_a_start() -> None:
    s = Searchable("I'm allergic to peanuts. Really allergic to peanuts!")
    assert s.exact(["allergic", "to", "peanuts"]) == 2
    assert s.exact(["allergic", "to", "peanuts"], 3) == 6
    assert s.exact(["allergic", "to", "walnuts"]) is None  # a word the text never says
    assert s.exact(["peanuts", "allergic"]) is None  # every word said, not in this order
    assert s.exact([]) is None


def test_near_gives_the_places_within_the_count_in_order() -> None:
    s = Searchable("a b c d e a b x d e a q q q q")
    budget = Budget(10_000)
    assert list(s.near(_words("a b c d e"), 0, 1, budget)) == [0, 5]
    assert list(s.near(_words("a b c d e"), 1, 1, budget)) == [5]
    assert list(s.near(_words("a b c d e"), 0, 0, budget)) == [0]
    # words the text never says count as differing, and too many of them end it at once
    spent = budget.spent
    assert list(s.near(_words("a b zz yy e"), 0, 1, budget)) == []
    assert budget.spent == spent


def test_near_stops_at_its_budget_and_at_its_places() -> None:
    s = Searchable("a " * 2000)
    budget = Budget(3 * 2000)
    assert len(list(s.near(["a", "a", "a"], 0, 1, budget))) == NEAR_PLACES
    assert list(s.near(["a", "a", "a"], 0, 1, budget)) == []  # the budget is spent
    assert budget.spent <= budget.limit


def test_masked_hides_every_part_of_a_hidden_span() -> None:
    text = "card 4111 1111 1111 1111 thanks"
    hidden = [((5, 24), "[card]")]
    assert masked(text, 0, len(text), hidden) == "card [card] thanks"
    assert masked(text, 0, 12, hidden) == "card [card]"  # cut in two: neither half kept
    assert masked(text, 25, len(text), hidden) == "thanks"
    assert masked(text, 0, 4, [((0, 0), "[x]")]) == "card"
