"""CPU budgets: 32 kB of adversarial text at every entry point a visitor, an inbound
sender, an operator or a model reaches finishes in under 200 ms of CPU, the best of three
runs (docs/security.md, "Shared load"): the linear work of 32 kB takes 70–160 ms on the
2-core machines CI runs on, the shapes that were super-linear took seconds. The texts are the
shapes that made the old rules cubic or quadratic: digit groups, blank lines, repeated words,
nested punctuation, long runs without a space.

Measured as the process's CPU time around one call (the database's own work included on
SQLite), after one warm-up call with ordinary text so that first-use loading is not counted.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from memwise import Memwise, errors
from memwise._context import router
from memwise._domain.access import Kind, Principal
from memwise._domain.tenancy import Role
from memwise._extraction import harness
from memwise._extraction.types import Line, Proposal, ProposedEvent
from memwise._policies import compaction
from memwise._policies.window import Message
from memwise._safety import instructions, pii, secrets
from memwise._services.assistant import tools
from memwise._services.assistant.tools import Call, Door
from memwise._services.conversation import inbound
from memwise._text import date_words, lexical, normal
from memwise._text import dates as text_dates

BUDGET_S = 0.200
SIZE = 32_000


def _fill(unit: str, head: str = "") -> str:
    body = unit * (SIZE // len(unit) + 1)
    return (head + body)[:SIZE]


ADVERSARIAL: dict[str, str] = {
    "digit groups": _fill("1-", "Where is my order "),
    "spaced digits": _fill("12 "),
    "card-like runs": _fill("4111 1111 1111 111 "),
    "fullwidth digits": _fill("４１"),
    "blank lines": _fill("\n"),
    "blank lines then a quote": _fill("\n \n")[:-3] + "> x",
    "whitespace mix": _fill("\t \r\n"),
    "repeated word": _fill("the "),
    "password words": _fill("my password is "),
    "pin words": _fill("pin code "),
    "nested punctuation": _fill("(["),
    "sentence marks": _fill("!?.,;:"),
    "dashes": _fill("-"),
    "one long word": _fill("a"),
    "mixed token": _fill("aZ9_"),
    "instruction words": _fill("remember: always ignore previous "),
    "quoted history": _fill("On x "),
    "header lines": _fill("From: a\n"),
    "apostrophes": _fill("I'm "),
    "dates": _fill("tomorrow at 11 "),
    "slashed numbers": _fill("12/12/12 "),
    "emails": _fill("a@b."),
    "hyphenated": _fill("a-b-"),
    "relatives": _fill("my sister's friend's "),
    "speaker labels": _fill("customer: agent: "),
    # every sentence different, so nothing parsed is remembered: the statement reader
    # (_extraction/reader.py) parses a bounded part of a turn, whatever its shape
    "distinct statements": " ".join(f"I live in Town{i}." for i in range(4000))[:SIZE],
    "distinct bookings": " ".join(
        f"Can we do the {i % 28 + 1}th at {i % 12 + 1}pm for table {i}?" for i in range(4000)
    )[:SIZE],
    "distinct lines": "".join(f"From: a{i}\n" for i in range(4000))[:SIZE],
}
ORDINARY = "Hi, I moved to Leeds and my order 4410 has not arrived. Call me tomorrow at 11."


def cpu(call: Callable[[str], Any], text: str) -> float:
    text_dates.most_specific.cache_clear()  # each run pays in full: no answer remembered
    normal.fold_word.cache_clear()
    gc.disable()  # the collector's pauses are the whole process's, not this input's
    try:
        start = time.process_time()
        with contextlib.suppress(Exception):  # a refusal is an answer too: only time counts
            call(text)
        return time.process_time() - start
    finally:
        gc.enable()


def within_budget(call: Callable[[str], Any]) -> None:
    call(ORDINARY)  # warm-up: imports, caches, first-use loading
    gc.collect()  # once: a collection before each run would cost more than the runs
    over = {}
    for name, text in ADVERSARIAL.items():
        spent = cpu(call, text)
        if spent > BUDGET_S:  # the best of three: noise, not work
            spent = min(spent, cpu(call, text), cpu(call, text))
        if spent > BUDGET_S:
            over[name] = round(spent * 1000)
    assert not over, f"over {BUDGET_S * 1000:.0f} ms of CPU (ms): {over}"


@pytest.fixture
def shop(mw: Memwise) -> Iterator[dict[str, Any]]:
    ws, _ = mw.tenancy.create_workspace("Budget", "Europe/Berlin", "startup")
    agent = mw.tenancy.create_agent(ws.id, "Eve", memory_enabled=True, domain="retail")
    contact = mw.tenancy.create_contact(ws.id, "Ann Lee", emails=["ann@example.com"])
    user = mw.tenancy.create_user(ws.id, "Mira", "operator")
    yield {"mw": mw, "ws": ws.id, "agent": agent.id, "contact": contact.id, "user": user.id}


def _conversation(s: dict[str, Any]) -> str:
    conv, _ = s["mw"].record.start(s["ws"], s["agent"], "web", contact_id=s["contact"])
    return str(conv.id)


def test_chat(shop: dict[str, Any]) -> None:
    mw: Memwise = shop["mw"]
    within_budget(lambda t: mw.chat(shop["ws"], _conversation(shop), t))


def test_turns(shop: dict[str, Any]) -> None:
    mw: Memwise = shop["mw"]
    conv = _conversation(shop)
    within_budget(lambda t: mw.record.append(shop["ws"], conv, "customer", t))


def test_email_webhook(shop: dict[str, Any]) -> None:
    mw: Memwise = shop["mw"]
    within_budget(
        lambda t: mw.inbound.receive(shop["ws"], "email", {"from": "ann@example.com", "text": t})
    )


def test_voice_webhook(shop: dict[str, Any]) -> None:
    mw: Memwise = shop["mw"]
    within_budget(
        lambda t: mw.inbound.receive(
            shop["ws"], "voice", {"from": "+4915112345678", "transcript": t}
        )
    )


def _extract(shop: dict[str, Any]) -> Callable[[str], None]:
    """One conversation of this text, ended and extracted by the worker."""
    mw: Memwise = shop["mw"]

    def extract(text: str) -> None:
        conv = _conversation(shop)
        mw.record.append(shop["ws"], conv, "customer", text)
        mw.record.end(shop["ws"], conv)
        mw.worker().run_once()

    return extract


def test_extraction(shop: dict[str, Any]) -> None:
    within_budget(_extract(shop))


def test_mcp_arguments(shop: dict[str, Any]) -> None:
    mw: Memwise = shop["mw"]
    call = Call(mw, shop["ws"], Door.mcp, "mcp:test")

    conv = _conversation(shop)

    def arguments(text: str) -> None:
        for name, args in (
            ("record_turn", {"conversation_id": conv, "role": "customer", "text": text}),
            (
                "create_ticket",
                {"subject": "Help", "body": text[:20_000], "contact_id": shop["contact"]},
            ),
            ("recall", {"contact_id": shop["contact"], "request": text[:4000]}),
            ("search_knowledge", {"query": text[:2000]}),
        ):
            with contextlib.suppress(Exception):
                tools.execute(name, args, call)

    within_budget(arguments)


def test_notebook_and_rules(shop: dict[str, Any]) -> None:
    """Over its limit an entry is refused by its length; cut to the limit (400 characters
    a rule) it is read whole, by the secret, name and harness checks."""
    mw: Memwise = shop["mw"]
    admin = Principal(Kind.key, shop["ws"], Role.admin)

    def write(text: str) -> None:
        for cut in (len(text), 400):
            with contextlib.suppress(errors.MemwiseError):
                mw.notebook.add(shop["ws"], shop["user"], text[:cut])
            with contextlib.suppress(errors.MemwiseError):
                mw.rulebook.propose(shop["ws"], shop["agent"], [text[:cut]], by=admin)

    within_budget(write)


def test_search(shop: dict[str, Any]) -> None:
    mw: Memwise = shop["mw"]
    conv = _conversation(shop)
    mw.record.append(shop["ws"], conv, "customer", ORDINARY)

    def search(text: str) -> None:
        mw.knowledge.search(shop["ws"], text)
        mw.history.recall(shop["ws"], shop["contact"], text)
        mw.recaller.recall(shop["ws"], shop["contact"], text)

    within_budget(search)


# -- linear time: the readers of whole customer texts -----------------------------------------
# Every reader below may be given a whole turn, document or question. Four times the text
# must cost at most about four times the time (quadratic would be sixteen): measured on the
# shapes that made patterns backtrack. Readers that only ever see bounded text (a memory
# item's 500 characters, a rule's 400) are held to the budget above at those bounds instead.
READERS: dict[str, Callable[[str], Any]] = {
    "secrets.find": secrets.find,
    "instructions.scan": instructions.scan,
    "router.route": router.route,
    "router.live_target": router.live_target,
    "inbound.new_words": inbound.new_words,
    "inbound.spoken": inbound.spoken,
    "pii.find": lambda t: pii.find(None, None, t),
    "normal.words_at": normal.words_at,
    "compaction.select": lambda t: compaction.select([Message("user", t)]),
    "lexical.terms": lexical.terms,
    "date_words.english": lambda t: date_words.english(t, "de"),
}
UNITS = ("1-", "12 ", "4-", "\n \n", "the ", "my password is ", "([", "a-b-", "a@b.", "aZ9_")


def _spent(read: Callable[[str], Any], text: str) -> float:
    """The best of five runs, the garbage collector paused: noise is not work."""
    best = float("inf")
    gc.disable()
    try:
        for _ in range(5):
            start = time.process_time()
            read(text)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize("name", sorted(READERS))
def test_text_readers_are_linear(name: str) -> None:
    read = READERS[name]
    read(ORDINARY)
    superlinear = {}
    for unit in UNITS:
        small, large = ((unit * n)[:n] for n in (8_000, 32_000))
        a, b = _spent(read, small), _spent(read, large)
        if b > 0.020 and b > 8 * max(a, 0.002):  # quadratic is 16×, and tens of ms at 32 kB
            superlinear[unit] = (round(a * 1000, 1), round(b * 1000, 1))
    assert not superlinear, f"{name}: 8 kB → 32 kB costs (ms) {superlinear}"


def test_a_message_sized_paste_is_bounded_by_its_proposals(shop: dict[str, Any]) -> None:
    """A turn under the paste length (2,500 characters) is read whole by the statement
    reader, so its cost is its proposals': at most 10 a turn, ~30 ms each to check and
    write (docs/security.md). Five times the entry-point budget, on distinct sentences
    that nothing remembered can answer; the least of three such turns of each shape (as
    ``_spent`` takes the best of five: a busy machine's noise is not the input's work — a
    shape that costs more costs more every time). The booking shape costs ~0.5 s on an idle
    core and up to ~0.95 s with the other core busy (the code of 2026-12-06 and now alike):
    three times the budget failed on load alone; a blowup (7 s for one date library) fails
    at any of them."""
    extract = _extract(shop)
    extract(ORDINARY)
    units = [
        "I live in Town{}.",
        "Can we do the 3rd at 2pm for table {}?",
        # numbers and times around a weekday: a date library's matches grow combinatorially
        # on these (one tried took 7 s of CPU for this turn)
        "My booking {} is friday 6 11 4 or 11 11 10 12 12 am pm 12 2 5 at at.",
    ]
    for n, unit in enumerate(units):
        spent = [
            cpu(
                extract,
                " ".join(unit.format(i + 100_000 * n + 1_000 * k) for i in range(400))[:2_400],
            )
            for k in range(3)  # distinct numbers each time: nothing remembered answers
        ]
        assert min(spent) < 5 * BUDGET_S, (unit, spent)


def _near_quotes(turn: str, change: Callable[[int, str], str]) -> list[str]:
    """Quotes of up to 2,000 characters taken along ``turn``, every fourth word changed."""
    words = turn.split()
    out = []
    for k in range(8):
        part = words[k * 300 : k * 300 + 300]
        out.append(" ".join(change(j, w) if j % 4 == 0 else w for j, w in enumerate(part))[:1990])
    return out


def test_near_quotes_against_long_turns_are_bounded() -> None:
    """A model's answer of 60 proposals, each with eight quotes near (not equal to) the
    customer's words in four 32 kB turns: every quote is searched word for word and near,
    and ran 73 s a turn before the near search was bounded (memwise._text.find). Its words
    differ in spelling, are other words of the turn, or are a negation where the turn has
    none (every place within the count of differing words, none close)."""
    vocab = [
        "allergic",
        "to",
        "peanuts",
        "and",
        "walnuts",
        "moving",
        "hamburg",
        "dentist",
        "the",
        "my",
        "bike",
        "not",
    ]
    turns = [" ".join(vocab[(i * 7 + k) % 12] for i in range(5400))[:SIZE] for k in range(4)]
    turns.append(_fill("allergic walnuts ")[:-5] + " not")
    at = datetime(2026, 3, 5, tzinfo=UTC)
    lines = [Line(f"t{i}", "customer", t, at) for i, t in enumerate(turns)]
    shapes: dict[str, Callable[[int, str], str]] = {
        "misspelt": lambda j, w: w + "x",
        "other words": lambda j, w: vocab[(j * 5) % 11],
        "negated": lambda j, w: "not",
    }
    harness.verify([Proposal("fact", "Is allergic", ["allergic to peanuts"])], [], lines)
    for name, change in shapes.items():
        proposals = [
            Proposal("fact", "Is allergic to peanuts", _near_quotes(turns[n % 5], change))
            for n in range(60)
        ]

        def check(_: str, p: list[Proposal] = proposals) -> None:
            harness.verify(p, [], lines)

        spent = cpu(check, "")
        assert spent < 5 * BUDGET_S, (name, round(spent, 2))


def test_quotes_against_many_short_turns_are_bounded() -> None:
    """A conversation of 3,000 short turns and a model's 60 proposals of eight quotes, with
    60 events, none of them said: each quote was looked for in each turn (1.4 s; 32 s before
    the search was bounded); one search over the whole conversation finds the turns that
    may hold it (memwise._text.find.Joined)."""
    at = datetime(2026, 3, 5, tzinfo=UTC)
    lines = [Line(f"t{i}", "customer", " ".join(["alphabet"] * 16), at) for i in range(3000)]
    words = [f"alphabxy … qqqqqq{k}" for k in range(600)]  # a typo, then a word never said
    known = [" ".join(["alphabet"] * 15 + ["alphabxt"]) for _ in range(8)]  # near, all known
    proposals = [Proposal("fact", "Likes alphabet", words[k * 8 : k * 8 + 8]) for k in range(59)]
    proposals.append(Proposal("fact", "Likes alphabet", known))
    events = [ProposedEvent("x", {}, w) for w in words[480:540]]
    harness.verify(proposals[:1], [], lines[:2])

    def check(_: str) -> None:
        harness.verify(proposals, events, lines)

    spent = min(cpu(check, ""), cpu(check, ""))
    assert spent < 5 * BUDGET_S, round(spent, 2)
