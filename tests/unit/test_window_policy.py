"""Window limits at their boundaries: web 20/21, Telegram 8 earlier, 29:59/30:01, 9:59/10:01."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memwise import FixedClock, Limits, errors
from memwise._policies import window
from memwise._policies.compaction import ExtractiveSummariser, select
from memwise._policies.telegram import TelegramWindows
from memwise._policies.window import Message

LIMITS = Limits()


def _msgs(n: int) -> list[Message]:
    return [Message("user", f"message {i}") for i in range(n)]


@pytest.mark.parametrize(("sent", "kept"), [(20, 20), (21, 20), (5, 5)])
def test_web_window_keeps_the_last_20_non_empty(sent: int, kept: int) -> None:
    msgs = _msgs(sent)
    out = window.client_window(msgs, window.client_window_size(LIMITS, "web"))
    assert len(out) == kept and out[-1] == msgs[-1]
    assert out[0] == msgs[sent - kept]


def test_web_window_drops_empty_entries_before_counting() -> None:
    msgs = [*_msgs(20), Message("user", "   "), Message("assistant", "")]
    out = window.client_window(msgs, 20)
    assert len(out) == 20 and out[-1].text == "message 19"


def test_overrides_are_validated_and_applied() -> None:
    clean = window.check_overrides({"web": {"max_messages": 5}})
    limits = window.effective(LIMITS, clean)
    assert limits.web.max_messages == 5 and limits.telegram.idle_minutes == 30
    assert LIMITS.web.max_messages == 20  # defaults untouched
    with pytest.raises(errors.Invalid):
        window.check_overrides({"web": {"max_messages": 0}})
    with pytest.raises(errors.Invalid):
        window.check_overrides({"fax": {}})


def _telegram(clock: FixedClock) -> tuple[TelegramWindows, list[object]]:
    expired: list[object] = []
    tw = TelegramWindows(clock, LIMITS.telegram, on_expire=lambda k, c: expired.append((k, c)))
    return tw, expired


def test_telegram_model_sees_8_earlier_messages_plus_the_current(clock: FixedClock) -> None:
    tw, _ = _telegram(clock)
    for i in range(12):
        got = tw.receive("chat", f"m{i}", clock.now())
    assert [m.text for m in got.transcript] == [f"m{i}" for i in range(3, 12)]
    assert len(got.transcript) == 9


def test_telegram_with_fewer_messages_sees_them_all(clock: FixedClock) -> None:
    tw, _ = _telegram(clock)
    tw.receive("chat", "hello", clock.now())
    tw.add_reply("chat", "hi there")
    got = tw.receive("chat", "next", clock.now())
    assert [m.text for m in got.transcript] == ["hello", "hi there", "next"]


@pytest.mark.parametrize(
    ("idle", "alive"),
    [(timedelta(minutes=29, seconds=59), True), (timedelta(minutes=30, seconds=1), False)],
)
def test_telegram_state_lives_30_minutes_after_the_last_message(
    clock: FixedClock, idle: timedelta, alive: bool
) -> None:
    tw, expired = _telegram(clock)
    tw.receive("chat", "first", clock.now(), conversation_id="c1")
    tw.set_pending("chat", {"action": "send_invoice"})
    clock.advance(seconds=idle.total_seconds())
    got = tw.receive("chat", "second", clock.now())
    assert ([m.text for m in got.transcript] == ["first", "second"]) is alive
    assert (got.pending == {"action": "send_invoice"}) is alive
    assert (expired == [("chat", "c1")]) is not alive
    assert (got.expired_conversation == "c1") is not alive


@pytest.mark.parametrize(
    ("age", "ignored"),
    [(timedelta(minutes=9, seconds=59), False), (timedelta(minutes=10, seconds=1), True)],
)
def test_late_messages_are_ignored_never_executed(
    clock: FixedClock, age: timedelta, ignored: bool
) -> None:
    tw, _ = _telegram(clock)
    got = tw.receive("chat", "delete the deal", clock.now() - age)
    assert got.ignored is ignored
    assert (got.notice is not None and "did not act" in got.notice) is ignored
    assert (tw.transcript("chat") == []) is ignored


def test_pending_confirmation_is_never_part_of_the_transcript(clock: FixedClock) -> None:
    tw, _ = _telegram(clock)
    tw.receive("chat", "send the invoice", clock.now())
    tw.set_pending("chat", {"action": "send_invoice", "text": "CONFIRM-TOKEN"})
    got = tw.receive("chat", "yes", clock.now())
    assert all("CONFIRM-TOKEN" not in m.text for m in got.transcript)
    assert got.pending == {"action": "send_invoice", "text": "CONFIRM-TOKEN"}


def test_reset_and_restart_clear_the_state(clock: FixedClock) -> None:
    tw, _ = _telegram(clock)
    tw.receive("chat", "one", clock.now(), conversation_id="c1")
    tw.set_pending("chat", {"x": 1})
    assert tw.reset("chat") == "c1"
    assert tw.transcript("chat") == [] and tw.pending("chat") is None
    tw.receive("chat", "two", clock.now())
    restarted, _ = _telegram(clock)  # a restart: a new process holds nothing
    assert restarted.transcript("chat") == []


def test_sweep_expires_idle_chats(clock: FixedClock) -> None:
    tw, expired = _telegram(clock)
    tw.receive("a", "x", clock.now(), conversation_id="ca")
    clock.advance(minutes=20)
    tw.receive("b", "y", clock.now(), conversation_id="cb")
    clock.advance(minutes=11)
    assert tw.sweep() == ["a"] and expired == [("a", "ca")] and len(tw) == 1


def test_compaction_keeps_decisions_questions_dates_amounts_and_drops_chatter() -> None:
    msgs = [
        Message("customer", "Hi! Thanks so much."),
        Message("customer", "Can you deliver the Alpine 2 tent by Friday?"),
        Message("assistant", "Ok."),
        Message("assistant", "We will ship it on 3 Dec by courier."),
        Message("customer", "The total was 249,90 EUR. Lovely weather here today anyway"),
        Message("customer", "My cat likes boxes"),
    ]
    lines = select(msgs)
    text = "\n".join(lines)
    assert "Can you deliver the Alpine 2 tent by Friday?" in text
    assert "We will ship it on 3 Dec by courier." in text
    assert "249,90 EUR" in text
    assert "Thanks" not in text and "cat" not in text and "- assistant" in text


def test_running_summary_stays_within_its_limit_newest_first() -> None:
    s = ExtractiveSummariser()
    summary = None
    for i in range(50):
        summary = s.summarise(summary, [Message("customer", f"Can you check order {i}?")], 300)
    assert summary is not None and len(summary) <= 330
    assert "order 49" in summary and "order 0?" not in summary
    assert summary.startswith("- (earlier points trimmed)")


def test_every_limit_has_a_minimum_and_a_maximum_and_is_documented() -> None:
    from pathlib import Path

    from memwise._policies.limits import Limits, reference

    for group, info in Limits.model_fields.items():
        model = info.default_factory() if info.default_factory else info.default  # type: ignore[call-arg]
        assert type(model).model_config.get("extra") == "forbid", group
        for name, field in type(model).model_fields.items():
            kinds = {
                a
                for m in field.metadata
                for a in ("ge", "gt", "le", "lt")
                if getattr(m, a, None) is not None
            }
            assert kinds & {"ge", "gt"} and kinds & {"le", "lt"}, f"{group}.{name}"
    doc = (Path(__file__).parents[2] / "docs" / "limits.md").read_text()
    assert reference() in doc, "docs/limits.md is stale: regenerate its table"
