"""Search in any script, on both backends: text written without spaces (Chinese, Japanese,
Thai) is found by any of its words, and text with diacritics by its own spelling — in the
record's search, in knowledge search and in record recall, with real sentences."""

from __future__ import annotations

import pytest

from memwise import Memwise
from memwise._text import scripts

TURNS = [
    "我下个月要搬到北京市朝阳区，请把地址改一下。",  # moving to Beijing's Chaoyang district
    "東京駅の近くで受け取りたいです。",  # I'd like to pick it up near Tokyo station
    "ผมอยากเปลี่ยนที่อยู่จัดส่งเป็นกรุงเทพมหานคร",  # change the delivery address to Bangkok
    "Ich ziehe nach Zürich um, bitte die Rechnung an die neue Adresse.",
    "Please send the invoice to my office in Leeds.",
]


def _record(mw: Memwise) -> tuple[str, str, list[str]]:
    ws, _ = mw.tenancy.create_workspace("Anywhere")
    agent = mw.tenancy.create_agent(ws.id, "Eve")
    contact = mw.tenancy.create_contact(ws.id, "Mei Lin")
    conv, _ = mw.record.start(ws.id, agent.id, "web", contact_id=contact.id)
    ids = [mw.record.append(ws.id, conv.id, "customer", text).id for text in TURNS]
    mw.record.end(ws.id, conv.id)
    return ws.id, contact.id, ids


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("北京", 0),  # two letters inside a longer run
        ("朝阳区", 0),
        ("東京駅", 1),
        ("受け取り", 1),
        ("กรุงเทพ", 2),  # Thai, vowel signs and all
        ("Zürich", 3),
        ("Leeds invoice", 4),
    ],
)
def test_the_records_search_finds_every_script(mw: Memwise, query: str, found: int) -> None:
    ws, _, ids = _record(mw)
    hits = mw.record.search(ws, query)
    assert [h.turn_id for h in hits] == [ids[found]], query
    assert hits[0].highlight


def test_a_word_not_said_is_not_found(mw: Memwise) -> None:
    ws, _, _ = _record(mw)
    assert mw.record.search(ws, "上海") == []  # Shanghai: no pair of it was said
    assert mw.record.search(ws, "大阪駅") == []


def test_record_recall_reads_every_script(mw: Memwise) -> None:
    ws, contact, _ = _record(mw)
    for query, found in (("北京的地址", 0), ("東京駅", 1), ("กรุงเทพ", 2), ("Zürich", 3)):
        hits = mw.history.recall(ws, contact, query, k=1)
        assert hits and hits[0].text == TURNS[found], query


def test_knowledge_search_finds_every_script(mw: Memwise) -> None:
    ws, _ = mw.tenancy.create_workspace("Shop")
    bodies = {
        "配送": "北京市内的订单通常两天内送达。其他城市需要三到五天。",  # delivery in Beijing
        "返品": "商品到着後30日以内であれば返品できます。",  # returns within 30 days
        "จัดส่ง": "ส่งฟรีทั่วกรุงเทพมหานครสำหรับคำสั่งซื้อที่เกิน 500 บาท",  # free delivery
        "Lieferung": "Wir liefern nach Zürich und Genf innerhalb von zwei Werktagen.",
    }
    for title, body in bodies.items():
        mw.knowledge.add_document(ws.id, kind="policy", title=title, body=body, version="1")
    for query, title in (
        ("北京送达", "配送"),
        ("返品できますか", "返品"),
        ("ส่งฟรีกรุงเทพ", "จัดส่ง"),
        ("Zürich", "Lieferung"),
    ):
        hits = mw.knowledge.search(ws.id, query, recipe="lexical")
        assert hits and hits[0].title == title, query


def test_pairs_are_letters_only() -> None:
    assert scripts.pairs("北京市") == ["北京", "京市"]
    assert scripts.pairs("字") == ["字"]
    assert scripts.grams("plain English text") is None
    thai = scripts.pairs("ที่อยู่")  # combining vowel signs and tone marks left out
    assert thai and all(len(p) == 2 and p.isalpha() for p in thai)
    assert scripts.spaced("iPhone手机") == "iPhone 手机 "
