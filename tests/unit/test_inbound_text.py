"""What an inbound message or call transcript records as the customer's own words."""

from __future__ import annotations

from memwise._services.conversation.inbound import new_words, spoken


def test_a_transcript_string_is_split_by_its_speakers() -> None:
    lines = spoken(
        "Agent: Thanks for calling Acme, this is Eve. I live in Berlin myself and I'm allergic "
        "to peanuts. Caller: OK, thanks, bye."
    )
    assert lines == [
        (
            "operator",
            "Thanks for calling Acme, this is Eve. I live in Berlin myself and I'm "
            "allergic to peanuts.",
        ),
        ("customer", "OK, thanks, bye."),
    ]
    assert spoken("I live in Kiel and prefer email") == [
        ("customer", "I live in Kiel and prefer email")
    ]


def test_a_reply_keeps_only_its_new_words() -> None:
    reply = (
        "Thanks, Friday works.\n\nOn Mon, 3 Nov 2026 at 10:02, Acme <hi@acme.test> wrote:\n"
        "> Hi! My name is Eve. I work at Siemens and I live in Munich.\n> I'm vegetarian."
    )
    mine, quoted = new_words(reply)
    assert mine == "Thanks, Friday works."
    assert "I live in Munich" in quoted  # kept in the record, as quoted material
    mine, quoted = new_words("Sounds good\n> I'm vegetarian\nsee you")
    assert "vegetarian" not in mine and "vegetarian" in quoted
    assert new_words("> only what you wrote") == ("", "> only what you wrote")
