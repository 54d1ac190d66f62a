"""What a customer states of themselves, read off the parse and retold (_text/statements.py),
and the offline extractor's reading of it by meaning (_extraction/reader.py)."""

from __future__ import annotations

import pytest

from memwise._extraction import reader
from memwise._extraction.types import Existing, Proposal
from memwise._retrieval import embedders
from memwise._text import statements


def _texts(sentence: str) -> list[str]:
    return [s.text for s in statements.read(sentence)]


def test_a_statement_is_retold_in_the_third_person_from_its_own_words() -> None:
    assert _texts("I live in Cicero so it's a bit far.") == ["Lives in Cicero"]
    assert _texts("I'm vegetarian and allergic to nuts.") == [
        "Is vegetarian",
        "Is allergic to nuts",
    ]
    assert _texts("I don't eat pork.") == ["Doesn't eat pork"]
    assert _texts("My spa appointment moved to Wednesday at 2pm") == [
        "Their spa appointment moved to Wednesday at 2pm"
    ]


def test_what_is_not_the_speaker_s_statement_is_marked_or_left_out() -> None:
    assert _texts("my sister Joan gets terribly seasick") == []  # someone else's
    (moved,) = statements.read("If I move to Leeds would you deliver?")
    assert moved.conditional
    (pork,) = statements.read("I don't eat pork.")
    assert pork.negated and not pork.modal
    (flying,) = statements.read("I'll be flying out on 11 April")
    assert flying.dated and not flying.modal


def test_the_things_a_sentence_names_leave_out_dates_and_people() -> None:
    assert statements.things("can I book an eye test for this saturday?") == ["eye test"]
    assert "Jasmine" not in " ".join(statements.things("can I see Jasmine on Friday?"))


@pytest.fixture(scope="module")
def embedder() -> object:
    found = embedders.shipped()
    if found is None:
        pytest.fail("the shipped embedder is part of the base install")
    return found


def test_kinds_are_read_by_meaning_not_by_phrase(embedder: object) -> None:
    said = [
        "I've just moved to a little place in Harrogate.",
        "I work as a paramedic for the county.",
        "I get terrible hay fever and I'm allergic to penicillin.",
        "Honestly I'm just browsing your website tonight.",
    ]
    kept = reader.propose([r for s in said for r in reader.candidates(s)], embedder)
    keys = {p.text: p.key for p in kept}
    assert keys.get("Has moved to a little place in Harrogate") == "address.city"
    assert keys.get("Works as a paramedic for the county") == "role"
    assert any("penicillin" in t for t in keys)
    assert not any("browsing" in t for t in keys)  # the conversation itself is not memory


def test_a_booking_and_its_move_share_a_key(embedder: object) -> None:
    asked = reader.dated("Can I book an eye test for this Saturday?")
    made = reader.bookings(asked, [], [], embedder)
    assert [(p.kind, p.key) for p in made] == [("event", "appointment.eye_test")]
    moved = reader.bookings(
        reader.dated("Sorry, can we do Sunday instead, same time?"), made, [], embedder
    )
    assert [p.key for p in moved] == ["appointment.eye_test"]
    assert "eye test" in moved[0].text and moved[0].occurs_phrase
    # a booking of an earlier conversation, named again
    earlier = [Existing("appointment.eye_test", "event", "Asked for eye test Saturday")]
    again = reader.bookings(
        reader.dated("Could we move the eye test to Monday instead?"), [], earlier, embedder
    )
    assert [p.key for p in again] == ["appointment.eye_test"]


def test_a_supposed_date_books_nothing(embedder: object) -> None:
    assert reader.dated("If I move to Vienna next year, can I keep my subscription?") == []
    assert reader.bookings([], [Proposal("event", "x", ["x"], "appointment.x")], [], embedder) == []


def test_the_customer_s_people_are_read_with_their_names() -> None:
    found = [
        (r.relation, r.name)
        for s in (
            "could you also put my daughter Maisie down for a checkup?",
            "my gf Tahlia might join too",
            "my sister's friend Joan is coming",  # not the customer's own
        )
        for r in statements.relations(s)
    ]
    assert found == [("daughter", "Maisie"), ("gf", "Tahlia")]


def test_a_pasted_turn_is_read_within_bounds() -> None:
    reading = reader.Reading()
    reading.add(" ".join(f"I live in Town{i}." for i in range(3000)), [])
    assert reading.stated == [] and reading.read == 0  # a paste: the patterns only
    reading.add("I'm vegetarian. " * 200, [])
    assert reading.read <= reader.TURN_CHARS
    assert len(reading.stated) <= reader.per_turn("x")


def test_a_left_out_clause_leaves_no_punctuation_behind() -> None:
    (freelance, _) = statements.read(
        "I went freelance in September (graphic design, working from home), and we had our"
        " second baby in July."
    )
    assert "(" not in freelance.text and "," not in freelance.text
    assert "graphic design" in freelance.text


def test_a_time_said_alone_is_read_by_the_dates_module() -> None:
    assert [d.time_only for d in reader.dated("3.30pm ok.")] == [True]
    assert reader.dated("ok, sounds good") == []


def test_one_sentence_gives_one_value_of_a_key(embedder: object) -> None:
    """A pattern's "Prefers to be contacted by email" and the reading "Prefers email for
    anything about orders" of the same sentence were two values of one key: a conflict in
    the profile. The reading is kept without the key; another sentence's value keeps it."""
    said = "Please use email, not phone, I prefer email for anything about orders."
    slot = Proposal("preference", "Prefers to be contacted by email", [said], "x.channel")
    reading = reader.Reading()
    reading.add(said, [slot])
    assert reading.stated  # the sentence was read
    read = reader.propose(reading.stated, embedder)
    assert read and read[0].key  # read as a value of some key
    same = Proposal("preference", "Prefers email", [said], read[0].key)
    again = Proposal("preference", "Prefers email", ["Email me, please."], read[0].key)
    assert [p.key for p in reader._one_per_key(read, [same])] == [None]
    assert reader._one_per_key(read, [same])[0].text == read[0].text
    assert reader._one_per_key(read, [again]) == read
    assert [p.key for p in reader._one_per_key([*read, *read], [])] == [read[0].key, None]
