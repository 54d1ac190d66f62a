"""Dates, quote verification and the rule extractor, without storage."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memwise._extraction import dates, harness
from memwise._extraction import pack as packs
from memwise._extraction.rules import RuleExtractor
from memwise._extraction.types import Line, Proposal
from tests.tables import misses

BERLIN = ZoneInfo("Europe/Berlin")
SUNDAY = datetime(2026, 11, 29, 10, 0, tzinfo=BERLIN)


DATED = [
    ("lunch tomorrow at 11", None, "2026-11-30T11:00:00+01:00"),
    ("on the 3rd", None, "2026-12-03"),
    ("at 11", None, "2026-11-29T11:00:00+01:00"),
    ("next Friday", None, "2026-12-04"),
    ("this Friday", None, "2026-12-04"),
    ("on Monday", None, "2026-11-30"),
    ("3 Dec at 4pm", None, "2026-12-03T16:00:00+01:00"),
    ("in two weeks", None, "2026-12-13"),
    ("on 20 November", "I had the dentist on 20 November", "2026-11-20"),
    ("on 20 November", "I have the dentist on 20 November", "2027-11-20"),
    ("tonight around 7", None, "2026-11-29T19:00:00+01:00"),
    # a weekday with a day of the month: the nearest month where they meet, else the day
    ("tues 15th", None, "2026-12-15"),
    ("Friday the 18th", None, "2026-12-18"),
    ("Thursday the 26th", None, "2026-11-26"),
    ("tues 21st", None, "2026-12-21"),
    # a past verb reads a date as past, unless the date is what something was moved to
    ("the 11th", "the flight got moved to the 11th", "2026-12-11"),
    ("Dec 31", "the reopening got pushed to Dec 31", "2026-12-31"),
    ("the 5th", "my last appointment was on the 5th", "2026-11-05"),
    ("on the 5th", "we went to Paris on the 5th", "2026-11-05"),
    # what the conventions do not read is dateparser's
    ("two days ago", None, "2026-11-27"),
]


def test_dates_resolve_against_the_turn_in_the_workspace_timezone() -> None:
    def check(phrase: str, sentence: str | None, want: str) -> None:
        found = dates.resolve(phrase, SUNDAY, BERLIN, sentence)
        assert found is not None and found.value == want and found.phrase == phrase

    assert misses(DATED, check) == []


def test_a_run_of_numbers_is_not_searched_for_dates() -> None:
    from memwise._text import dates as text_dates

    assert text_dates.candidates("booked for friday 6 11 4 or 11 11 10 12 12 am pm 12 2") == []
    assert dates.find_phrase("booked for friday 6 11 4 or 11 11 10 12 12 am pm 12 2") == "friday 6"
    assert text_dates.candidates("arriving Friday the 17th of April at 3pm")


def test_no_date_no_resolution() -> None:
    assert dates.resolve("the blue one please", SUNDAY, BERLIN) is None
    assert dates.find_phrase("I like the blue one") is None
    assert dates.find_phrase("call me back at 9 tomorrow please") == "at 9 tomorrow"


def _one(turn: str, quote: str, item: str, kind: str = "fact") -> harness.Verified:
    """One customer turn, one quote of it and the item proposed from it, through the harness."""
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    line = Line("t1", "customer", turn, at)
    return harness.verify([Proposal(kind, item, [quote])], [], [line])


def _lines() -> list[Line]:
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    return [
        Line("t1", "customer", "I’d rather be contacted by E-mail, honestly.", at),
        Line("t2", "assistant", "So you are relocating in March?", at),
        Line("t3", "operator", "Customer is relocating in March.", at),
    ]


def test_quotes_count_only_from_the_customers_own_turns() -> None:
    verified = harness.verify(
        [
            Proposal("preference", "Prefers email", ["i'd rather be contacted by e-mail"]),
            Proposal("fact", "Relocating in March", ["relocating in March"]),
        ],
        [],
        _lines(),
    )
    assert [p.text for p, _ in verified.items] == ["Prefers email"]
    assert verified.items[0][1][0].turn_id == "t1" and verified.discarded == 1


def test_quotes_forgive_contractions_and_typos_and_keep_the_customers_words() -> None:
    spelled_out = Proposal("preference", "Prefers email", ["I would rather be contacted by e-mail"])
    kept = harness.verify([spelled_out], [], _lines(), threshold=99).items
    assert kept and kept[0][1][0].quote == "I’d rather be contacted by E-mail"
    typo = Proposal("preference", "Prefers email", ["I'd rather be contacetd by e-mail"])
    assert harness.verify([typo], [], _lines(), threshold=80).items
    assert not harness.verify([typo], [], _lines(), threshold=99).items


MADE_UP = [
    "I am allergic to walnuts",  # another word, however close its spelling
    "I am not allergic to peanuts",  # a negation added
    "I am allergic to peanuts since 2019",  # a number added
    "allergic to peanuts and shellfish",  # words added
    "I'm allergic to pecans",
    "I'm no longer allergic to peanuts",
]


def test_a_made_up_quote_is_never_a_near_match() -> None:
    def check(made_up: str) -> None:
        at = datetime(2026, 11, 29, 9, tzinfo=UTC)
        lines = [Line("t1", "customer", "I am allergic to peanuts, so no satay please.", at)]
        checker = harness.QuoteChecker(lines)
        assert checker.find("I am allergic to peanuts") is not None
        assert checker.find("I am alergic to peanuts") is not None  # a typo is forgiven
        assert checker.find(made_up) is None

    assert misses(MADE_UP, check) == []


def test_an_ellipsis_leaves_words_out_but_each_part_is_found_in_order() -> None:
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    lines = [Line("t1", "customer", "I live in Kiel, by the way, and I prefer email.", at)]
    checker = harness.QuoteChecker(lines)
    found = checker.find("I live in Kiel ... I prefer email")
    assert found is not None and found.quote == "I live in Kiel … I prefer email"
    assert checker.find("I prefer email ... I live in Kiel") is None  # out of order
    assert checker.find(found.quote) is not None  # what is kept is found again


def test_a_near_match_skips_no_contrast_and_adds_no_prefix() -> None:
    """An attack's cases (2026-12-08): an ellipsis that leaves out "but" joins two clauses
    that say opposite things ("I love … dogs"), and a negating prefix is two letters, as a
    typo is ("impossible" is not "possible", "unvaccinated" not "vaccinated")."""
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    said = (
        "I love cats but I hate dogs. It is impossible for me to come on Monday, I'm unvaccinated"
    )
    checker = harness.QuoteChecker([Line("t1", "customer", said, at)])
    assert checker.find("I love … dogs") is None
    assert checker.find("It is possible for me to come on Monday") is None
    assert checker.find("I'm vaccinated") is None
    assert checker.find("It is imposible for me to come on Monday") is not None  # a typo


STATED_ELSEWHERE = [
    # the issue's own example: the assistant asked, the customer said no
    (
        "Munich in March? No, I'm staying in Hamburg.",
        "Relocating to Munich in March",
        "Munich in March? No, I'm staying in Hamburg.",
    ),
    ("I'm not vegetarian, I just skip beef.", "Is vegetarian", "I'm not vegetarian"),
    (
        "If I ever moved to Vienna I'd want the same plan.",
        "Moved to Vienna",
        "If I ever moved to Vienna",
    ),
    (
        "My neighbour is allergic to peanuts, not me.",
        "Allergic to peanuts",
        "My neighbour is allergic to peanuts, not me",
    ),
    (
        "She's allergic to peanuts, my daughter.",
        "Allergic to peanuts",
        "She's allergic to peanuts",
    ),
    # grounded in the quote alone, not in the rest of its turn
    ("My sister lives in Vienna, and I prefer email.", "Lives in Vienna", "I prefer email"),
    # a capitalised first word is a name too
    ("I live in Hamburg.", "Munich is home", "I live in Hamburg"),
    # one word of many is not grounding
    ("I have a dog.", "Has a dog walker on Tuesdays and a cat sitter", "I have a dog"),
]


def test_an_item_must_be_stated_by_the_clause_it_quotes() -> None:
    wrong = [
        (turn, item, quote)
        for turn, item, quote in STATED_ELSEWHERE
        if (found := _one(turn, quote, item)).items or found.discarded != 1
    ]
    assert wrong == []


STILL_GROUNDED = [
    ("I'm not vegetarian, I just skip beef.", "Is not vegetarian", "I'm not vegetarian"),
    (
        "Please don't call me, email is better.",
        "Prefers not to be called",
        "Please don't call me",
    ),
    ("I don't eat meat at all.", "Vegetarian", "I don't eat meat at all"),
    ("My sister and I live in Vienna.", "Lives in Vienna", "My sister and I live in Vienna"),
    ("I live with my sister in Vienna.", "Lives in Vienna", "I live with my sister in Vienna"),
    (
        "My daughter is allergic to peanuts.",
        "Daughter is allergic to peanuts",
        "My daughter is allergic to peanuts",
    ),
    (
        "If possible, email me rather than calling.",
        "Prefers email",
        "If possible, email me rather than calling",
    ),
    ("I might move to Vienna next year.", "Might move to Vienna", "I might move to Vienna"),
    ("I live in Stuttgart, do you ship there?", "Lives in Stuttgart", "I live in Stuttgart"),
    ("Email me if there is a problem.", "Prefers email", "Email me if there is a problem"),
]


def test_what_the_customer_states_is_still_grounded() -> None:
    wrong = [
        (turn, item, quote)
        for turn, item, quote in STILL_GROUNDED
        if [p.text for p, _ in _one(turn, quote, item).items] != [item]
    ]
    assert wrong == []


def test_rule_extractor_reads_customers_only_and_emits_labelled_events() -> None:
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    out = RuleExtractor().extract(
        [
            Line("a", "assistant", "I prefer phone.", at),
            Line("b", "customer", "I ordered the trail stove. Does the Alpine 2 tent fit?", at),
        ],
        [],
        packs.load("retail"),
    )
    assert out.items == []
    assert [(e.type, e.labels) for e in out.events] == [
        ("order", {"product": "Trail Stove"}),
        ("enquiry", {"product": "Alpine 2"}),
    ]
    assert out.summary == []  # the session summary is written after extraction, for any


def test_unknown_domains_are_refused_by_name() -> None:
    with pytest.raises(Exception, match="choose one of automotive-equipment, general"):
        packs.load("astrology")


def test_quotes_match_whole_words_with_content() -> None:
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    lines = [
        Line("t1", "customer", "Hi there, thanks for the help with my tent.", at),
        Line("t2", "assistant", "So you are relocating to Munich in March?", at),
        Line("t3", "customer", "Vegetarian.", at),
    ]
    checker = harness.QuoteChecker(lines)
    assert checker.find("the") is None  # inside "there", and no content
    assert checker.find("here") is None  # part of a word
    assert checker.find("for the") is None  # stop words only
    assert checker.find("help with my tent") is not None
    assert checker.find("vegetarian") is not None  # one word, but the whole turn
    planted = Proposal("fact", "Relocating to Munich in March", ["the", "thanks for the help"])
    assert harness.verify([planted], [], lines).items == []


def test_items_must_be_grounded_in_their_quotes() -> None:
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    lines = [Line("t1", "customer", "I live in Hamburg and my budget is 400 euros.", at)]
    good = [
        Proposal("fact", "Lives in Hamburg", ["I live in Hamburg"]),
        Proposal("fact", "Budget of 400 euros", ["my budget is 400 euros"]),
    ]
    bad = [
        Proposal("fact", "Lives in Munich", ["I live in Hamburg"]),  # a name not said
        Proposal("fact", "Budget of 4000 euros", ["my budget is 400 euros"]),  # a number
        Proposal("preference", "Loves opera", ["I live in Hamburg"]),  # nothing of it said
    ]
    verified = harness.verify(good + bad, [], lines)
    assert [p.text for p, _ in verified.items] == ["Lives in Hamburg", "Budget of 400 euros"]
    assert verified.discarded == 3
    assert harness.grounded("Does not want to be called", []) is False


def test_a_custom_pack_is_validated_with_clear_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memwise import errors
    from memwise._extraction import pack

    monkeypatch.setattr(pack, "_DIRS", [])  # the folder added below is this test's alone

    example = Path(__file__).parents[2] / "examples" / "packs" / "bike-workshop.yaml"
    found = pack.validate_text(example.read_text())
    assert found.name == "bike-workshop" and "bike" in found.keys
    bad = "name: Bad Name\ndescription: x\nkinds: [preference, gossip]\nkeys: {'Bike!': ''}\n"
    with pytest.raises(errors.Invalid) as refused:
        pack.validate_text(bad, "bad.yaml")
    problems = refused.value.details["problems"]
    assert any(p.startswith("name:") for p in problems)
    assert any(p.startswith("kinds.1:") for p in problems)
    assert any("keys" in p for p in problems)
    with pytest.raises(errors.Invalid):
        pack.validate_text("- just\n- a list\n")
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "bike-workshop.yaml").write_text(example.read_text())
    pack.use_dir(folder)
    try:
        assert "bike-workshop" in pack.names() and pack.load("bike-workshop").events
    finally:
        pack.load.cache_clear()


# A second attack review: each (turn, quote, item) was stored before the quote was read in
# the clauses of its turn and the item held to all of its words.
NOT_STATED = [
    (
        "Am I allergic to peanuts? The doctor wasn't sure.",
        "Am I allergic to peanuts?",
        "Is allergic to peanuts",
    ),
    ("Do you deliver to Munich", "Do you deliver to Munich", "Lives in Munich"),
    (
        "Munich in March? No, I'm staying in Hamburg.",
        "Munich in March",
        "Moving to Munich in March",
    ),
    ("I don't live in Berlin any more.", "I … live in Berlin", "Lives in Berlin"),
    (
        "I am fine, thanks. My son is allergic to shellfish.",
        "I am … allergic to shellfish",
        "Is allergic to shellfish",
    ),
    ("I would never eat meat", "I would … eat meat", "Eats meat"),
    ("If I ever moved to Vienna, I'd tell you.", "moved to Vienna", "Moved to Vienna"),
    ("My sister moved to Vienna", "sister moved to Vienna", "Moved to Vienna"),
    ("I'll never move to Berlin", "move to Berlin", "Moving to Berlin"),
    ("I would hate to live in Berlin", "live in Berlin", "Lives in Berlin"),
    ("I'd love to live in Paris", "love to live in Paris", "Lives in Paris"),
    ("I'm thinking about going vegan", "thinking about going vegan", "Vegan"),
    ("My wife's allergic to cats", "allergic to cats", "Allergic to cats"),
    ("My lovely wife is allergic to cats", "is allergic to cats", "Allergic to cats"),
    ("Mum is allergic to cats", "is allergic to cats", "Allergic to cats"),
    (
        "My doctor thinks I am allergic to peanuts",
        "I am allergic to peanuts",
        "Allergic to peanuts",
    ),
    ("My doctor says I should avoid gluten", "I should avoid gluten", "Avoids gluten"),
    ("I live in Hamburg and my wife works in Berlin", "works in Berlin", "Works in Berlin"),
    ("My landlord lives in Hamburg", "lives in Hamburg", "Lives in Hamburg"),
    ("I love peanuts", "I love peanuts", "Allergic to peanuts"),
    ("I hate Hamburg", "I hate Hamburg", "Lives in Hamburg"),
    ("I visited Hamburg once", "I visited Hamburg once", "Lives in Hamburg"),
    ("I got fired from Siemens", "I got fired from Siemens", "Works at Siemens"),
    ("I used to be vegetarian", "I used to be vegetarian", "Vegetarian"),
    ("I'm vegetarian", "I'm vegetarian", "Eats meat"),
    ("I eat meat every day", "I eat meat every day", "Vegetarian"),
    ("I have two kids", "I have two kids", "Has three kids"),
    ("I have 2 kids", "I have 2 kids", "Has twelve kids"),
    ("My budget is 500 euros", "My budget is 500 euros", "Budget is 500 million euros"),
    ("I am 45 and live in Hamburg", "I am 45 and live in Hamburg", "Has 45 cats in Hamburg"),
    ("I live in Hamburg", "I live in Hamburg", "lives in hamburg and berlin"),
    # a held-out set's kinds of misses, in other words
    ("I was a keen cyclist until my knee op.", "I was a keen cyclist", "Is a keen cyclist"),
    ("We had two cats before the move.", "We had two cats", "Has two cats"),
    ("I lived in Leeds as a teenager.", "I lived in Leeds", "Lives in Leeds"),
    (
        "Your app says I'm on the family plan, which is wrong.",
        "I'm on the family plan",
        "On the family plan",
    ),
    (
        "According to the invoice I live in Bremen, but I don't.",
        "I live in Bremen",
        "Lives in Bremen",
    ),
    (
        "Is a halal menu offered on board, or should I bring food?",
        "a halal menu offered",
        "Eats halal",
    ),
    # said in other words, and of someone else
    ("My son doesn't eat meat at all.", "My son doesn't eat meat at all", "Vegetarian"),
]


def test_the_clauses_around_a_quote_and_all_of_an_items_words_count() -> None:
    wrong = [
        (turn, quote, item)
        for turn, quote, item in NOT_STATED
        if (found := _one(turn, quote, item)).items or found.discarded != 1
    ]
    assert wrong == []


WRONGLY_DISCARDED = [
    ("I don't smoke and I'm vegetarian", "I'm vegetarian", "Is vegetarian"),
    ("I never eat out and I live in Hamburg", "I live in Hamburg", "Lives in Hamburg"),
    ("My wife is a doctor and I am a teacher", "I am a teacher", "Works as a teacher"),
    (
        "I don't know if it matters: I'm allergic to peanuts",
        "I'm allergic to peanuts",
        "Allergic to peanuts",
    ),
    ("I live in São Paulo", "I live in São Paulo", "Lives in Sao Paulo"),
    ("I have 2 kids", "I have 2 kids", "Has two children"),
    ("I am forty-five years old", "I am forty-five years old", "Is 45"),
    (
        "she's allergic to nuts, my daughter",
        "she's allergic to nuts",
        "Daughter is allergic to nuts",
    ),
    ("I'd like to be contacted by email", "I'd like to be contacted by email", "Prefers email"),
    ("I'm based in Hamburg", "I'm based in Hamburg", "Lives in Hamburg"),
    (
        "I work as a nurse at the city hospital",
        "I work as a nurse at the city hospital",
        "Works as a nurse at the city hospital",
    ),
    ("Im allergic to sesame, fyi", "I'm allergic to sesame", "Allergic to sesame"),
    ("I'm allergic to sesame, fyi", "Im allergic to sesame", "Allergic to sesame"),
    ("I moved to Hamburg last month.", "I moved to Hamburg", "Lives in Hamburg"),
    ("I retired in May and I'm home most days.", "I'm home most days", "Home most days"),
    ("As I said, I prefer email.", "I prefer email", "Prefers email"),
]


def test_what_the_review_found_wrongly_discarded_is_kept() -> None:
    wrong = [
        (turn, quote, item)
        for turn, quote, item in WRONGLY_DISCARDED
        if [p.text for p, _ in _one(turn, quote, item).items] != [item]
    ]
    assert wrong == []


def test_the_harness_on_its_labelled_tuning_set() -> None:
    """Set 1 was written blind, measured once (0.786 kept, 0.897 discarded), then tuned on:
    these floors guard what the tuning bought (bench/README.md reports set 2, held out)."""
    import json

    data = Path(__file__).parents[1] / "data" / "harness_set_1.json"
    cases = json.loads(data.read_text())["cases"]
    right = {"keep": 0, "discard": 0}
    for c in cases:
        kept = bool(_one(c["turn"], c["quote"], c["item"]).items)
        right[c["label"]] += kept == (c["label"] == "keep")
    total = {label: sum(c["label"] == label for c in cases) for label in right}
    assert right["keep"] / total["keep"] >= 0.84, right
    assert right["discard"] / total["discard"] >= 0.94, right


def test_a_quote_about_someone_with_no_subject_grounds_only_an_item_that_names_them() -> None:
    turn = "also his metformin and his blood pressure ones"
    quote = "his metformin and his blood pressure ones"
    assert not _one(turn, quote, "Metformin and blood pressure tablets").items
    assert _one(turn, quote, "His metformin and blood pressure tablets").items


@pytest.mark.parametrize(("role", "kept"), [("assistant", True), ("tool", False)])
def test_a_confirmed_booking_takes_its_thing_from_the_offer_never_from_a_tool(
    role: str, kept: bool
) -> None:
    """ "Thursday the 19th at 8:15 is perfect" confirms what the assistant offered; a tool's
    output (retrieved text) is data and never grounds what the customer said."""
    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    lines = [
        Line("t1", role, "Root canal slots: Thursday the 19th at 8:15 or Friday at 9.", at),
        Line("t2", "customer", "Thursday the 19th at 8:15 is perfect.", at),
    ]
    item = Proposal("event", "Root canal Thursday 19th at 8:15", ["Thursday the 19th at 8:15"])
    verified = harness.verify([item], [], lines)
    assert bool(verified.items) is kept


def test_false_items_a_careless_model_proposes_with_real_quotes_are_refused() -> None:
    """tests/data/grounding_attack_1.json: the false items an attack stored through grounding
    by meaning (taken back): opposites, swapped roles, details never said, changed amounts,
    health flipped, orders as facts. The harness's words refuse every one."""
    import json

    cases = json.loads((Path(__file__).parents[1] / "data" / "grounding_attack_1.json").read_text())
    read = [(c, _one(c["turn"], c["quote"], c["item"], c["kind"])) for c in cases["cases"]]
    # each quote is the customer's own words: the item is refused for what it says
    assert [
        (c["item"], v.dropped) for c, v in read if v.dropped != [(c["item"], "not_grounded")]
    ] == []


def test_a_possessed_thing_is_named_by_its_owner_not_by_itself() -> None:
    """Whom "my mum's ipad" or "her photo" is about is the person who has it: the item must
    name that person, not the thing ("Uses an iPad" is not the customer's)."""
    for turn, item in [
        ("also my mum's ipad is stuck on an update", "Uses an iPad"),
        ("my wife hates having her photo taken", "Hates having photo taken"),
    ]:
        assert _one(turn, turn, item).items == [], item


def test_a_relatives_key_cut_to_its_length_is_still_a_key() -> None:
    """A relative's fact is kept under the relative (``people.sister.…``); cut to a key's
    200 characters, it never ends on a dot (which no key may)."""
    from memwise._domain.memory import Evidence, check_key

    at = datetime(2026, 11, 29, 9, tzinfo=UTC)
    said = "my sister lives in Denpasar"
    long_key = "a" * 185 + "." + "b" * 13
    evidence = [Evidence("t1", said, at)]
    key = harness.key_about("Sister lives in Denpasar", long_key, [said], evidence)
    assert key.startswith("people.sister.") and len(key) <= 200
    assert check_key(key) == key
