"""The text layer's search for runs of words (memwise._text.find)."""

from __future__ import annotations

from datetime import UTC, datetime

from memwise._extraction import harness
from memwise._extraction.types import Line
from memwise._text.find import (
    CLOSE_READ,
    NEAR_PLACES,
    Budget,
    Joined,
    Searchable,
    Vocabulary,
    masked,
    searchable,
)
from memwise._text.normal import words_at


def _words(text: str) -> list[str]:
    return [w for w, _, _ in words_at(text)]


def _searchable(text: str) -> tuple[Searchable, Vocabulary]:
    words = Vocabulary()
    return searchable(text, words), words


def test_exact_finds_the_first_run_from_a_start() -> None:
    s, words = _searchable("I'm allergic to peanuts. Really allergic to peanuts!")
    said = words.code(["allergic", "to", "peanuts"])
    assert s.exact(said) == 2
    assert s.exact(said, 3) == 6
    assert s.exact(words.code(["allergic", "to", "walnuts"])) is None  # never said
    assert s.exact(words.code(["peanuts", "allergic"])) is None  # not in this order
    assert s.exact([]) is None


def test_texts_searched_together_share_their_words_and_one_search() -> None:
    joined = Joined(["we moved to Leeds", "no", "Leeds is home", "leeds leeds", "moved to Lee"])
    code = joined.words.code(["leeds"])  # put in numbers once, found in any
    first, _, third, *_ = joined.texts
    assert (first.exact(code), third.exact(code)) == (3, 0)
    assert joined.holding(code, None, Budget(0)) == [0, 2, 3]  # each text once, in order
    assert joined.holding(joined.words.code(["to", "leeds"]), None, Budget(0)) == [0]
    assert joined.holding(joined.words.code(["leeds", "is"]), None, Budget(0)) == [2]
    # never across two texts: "leeds" ends one, "no" is the next
    assert joined.holding(joined.words.code(["leeds", "no"]), None, Budget(0)) == []
    near = joined.holding(joined.words.code(["moved", "to", "leads"]), 1, Budget(10**6))
    assert near == [0, 4]  # the texts that may say it, read closely after
    assert Joined([]).holding(code, None, Budget(0)) == []
    # near, every text that says it word for word too, not only the first places' texts
    many = Joined(["a b c"] * 70 + ["x", "a b c d"])
    assert many.holding(many.words.code(["a", "b", "c"]), 1, Budget(10**9))[-1] == 71


def test_a_near_quote_is_found_past_a_turn_with_its_first_part() -> None:
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    turns = ["I live in Leeds.", "Yes, I live in Leeds … near the big park with my cats"]
    checker = harness.QuoteChecker([Line(f"t{i}", "customer", t, at) for i, t in enumerate(turns)])
    found = checker.find("I live in Leeds … near the big prak with my cats")
    assert found is not None and found.turn_id == "t1"


def test_near_gives_the_places_within_the_count_before_the_first_exact_one() -> None:
    s, words = _searchable("a b x d e a b c d e a q q q q")
    budget = Budget(10**6)
    assert s.near(words.code(_words("a b c d e")), 0, 1, budget) == [0, 5]
    assert s.near(words.code(_words("a b c d e")), 1, 1, budget) == [5]
    assert s.near(words.code(_words("a b x d e")), 0, 1, budget) == [0]  # exact first
    # words the text never says count as differing, and too many of them end it at once
    spent = budget.spent
    assert s.near(words.code(_words("a b zz yy e")), 0, 1, budget) == []
    assert budget.spent == spent


def test_near_stops_at_its_budget_and_charges_the_places_it_gives() -> None:
    s, words = _searchable("a b " * 1000)
    budget = Budget(10**9)
    found = s.near(words.code(["a", "b", "c"]), 0, 1, budget)  # no exact place: the cap
    assert len(found) == NEAR_PLACES
    read = CLOSE_READ[0] * 3 + CLOSE_READ[1]
    assert budget.spent >= read * NEAR_PLACES
    poor = Budget(budget.spent + 3 * (2000 + 1500) + 2 * read)  # room for two reads
    poor.spent = budget.spent
    assert len(s.near(words.code(["a", "b", "c"]), 0, 1, poor)) == 2
    assert s.near(words.code(["a", "b", "c"]), 0, 1, poor) == []  # the budget is spent
    assert poor.spent <= poor.limit


def test_masked_hides_every_part_of_a_hidden_span() -> None:
    text = "card 4111 1111 1111 1111 thanks"
    hidden = [((5, 24), "[card]")]
    assert masked(text, 0, len(text), hidden) == "card [card] thanks"
    assert masked(text, 0, 12, hidden) == "card [card]"  # cut in two: neither half kept
    assert masked(text, 25, len(text), hidden) == "thanks"
    assert masked(text, 0, 4, [((0, 0), "[x]")]) == "card"
