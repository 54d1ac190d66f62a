"""The offline extractor's everyday slots, on the phrasings a new user first tries."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from memwise._extraction.rules import RuleExtractor
from memwise._extraction.types import Line
from tests.tables import misses

AT = datetime(2026, 11, 29, 10, 0, tzinfo=ZoneInfo("Europe/Berlin"))


def found(*said: str, assistant: str | None = None) -> list[tuple[str, str | None, str]]:
    lines = [Line(f"t{i}", "customer", text, AT) for i, text in enumerate(said)]
    if assistant is not None:
        lines.append(Line("ta", "assistant", assistant, AT))
    got = RuleExtractor().extract(lines, [], None)
    return [(p.kind, p.key, p.text) for p in got.items]


MOVES = [
    "Actually I moved to Hamburg.",
    "I've moved to Hamburg.",
    "I now live in Hamburg.",
    "We relocated to Hamburg in October.",
    "Actually, I live in Hamburg now.",
    "we're in Hamburg now",
    "i moved to hamburg last year",
    # a filler or a small word after the place is not part of its name
    "i live in hamburg so it's close",
    "we live in hamburg btw",
]


def test_moves_in_the_past_and_present_are_the_home() -> None:
    def check(said: str) -> None:
        assert ("fact", "address.city", "Lives in Hamburg") in found(said)

    assert misses(MOVES, check) == []


def test_a_place_whose_name_begins_with_a_common_word() -> None:
    assert ("fact", "address.city", "Lives in New York") in found("I live in New York")
    assert found("I live in a new flat") == []


def test_a_future_move_is_an_upcoming_event_and_a_hypothetical_is_nothing() -> None:
    (item,) = found("I'm moving to Munich in March.")
    assert item == ("event", "address.move", "Is moving to Munich (in March)")
    assert found("If I moved to Vienna, would delivery cost more?") == []
    assert found("I lived in Paris for a while.") == []


CHANNELS = [
    ("Please email me, never call.", "email", "phone"),
    ("Please email me, I never pick up the phone.", "email", "phone"),
    ("Text is best for me.", "text message", None),
    ("WhatsApp only please.", "WhatsApp", None),
    ("Email rather than calls, please.", "email", None),
    ("Could you send the reminders by SMS from now on?", "SMS", None),
    ("Don't phone me, no calls please.", None, "phone"),
]


def test_channel_preferences_in_their_common_forms() -> None:
    def check(said: str, prefers: str | None, refuses: str | None) -> None:
        items = found(said)
        keys = {key: text for _, key, text in items}
        if prefers:
            assert keys["preference.contact_channel"] == f"Prefers to be contacted by {prefers}"
        else:
            assert "preference.contact_channel" not in keys
        assert ("preference.no_phone" in keys) == (refuses == "phone")

    assert misses(CHANNELS, check) == []


def test_a_one_off_request_is_never_a_preference() -> None:
    for said in (
        "I'd like to change my delivery address.",
        "Can you cancel my order?",
        "Please email me the invoice.",
        "Please don't call me today, I'm at a funeral.",
    ):
        assert not [i for i in found(said) if i[0] == "preference"], said


def test_a_request_the_team_promised_is_a_task_and_one_done_is_nothing() -> None:
    promised = found(
        "Can you resend the invoice for October?",
        assistant="I've asked accounts, they'll send it within a day.",
    )
    assert ("task", None, "Asked the team to resend the invoice for October") in promised
    done = found("Please cancel my order.", assistant="Done — it's cancelled.")
    assert [i for i in done if i[0] == "task"] == []


def test_weekday_and_time_phrases_make_dated_appointments() -> None:
    (item,) = (
        RuleExtractor()
        .extract(
            [Line("t", "customer", "I have a dentist appointment on Friday at 3.", AT)], [], None
        )
        .items
    )
    assert item.kind == "event" and item.occurs_phrase == "on Friday at 3"


EVERYDAY = [
    ("My daughter Lena is 7.", "family.daughter.lena", "Has a daughter, Lena (7)"),
    ("I work at Siemens in Erlangen.", "role", "Works at Siemens in Erlangen"),
    ("I'm a freelance graphic designer.", "role", "Works as a freelance graphic designer"),
    ("I'm allergic to peanuts.", "dietary.allergy.peanuts", "Is allergic to peanuts"),
    ("I'm not vegetarian any more.", "dietary", "Is no longer vegetarian"),
    ("I use a wheelchair.", "accessibility.wheelchair", "Uses a wheelchair"),
    ("Please reply in German.", "preference.language", "Prefers to be addressed in German"),
    ("My name's Jörg Müller.", "name", "Is called Jörg Müller"),
    ("Please address me as Dr. Albrecht.", "preference.address_as", None),
]


def test_everyday_facts_have_stable_keys() -> None:
    def check(said: str, key: str, text: str | None) -> None:
        items = {k: t for _, k, t in found(said)}
        assert key in items, items
        if text:
            assert items[key] == text

    assert misses(EVERYDAY, check) == []


def test_a_statement_before_a_question_is_read() -> None:
    assert ("fact", "address.city", "Lives in Stuttgart") in found(
        "I live in Stuttgart, do you ship there?"
    )
