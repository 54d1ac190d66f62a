"""Turn recall ranking rules (no I/O)."""

from __future__ import annotations

import numpy as np

from memwise.retrieval.turns import TurnDoc, TurnIndex, TurnRecallConfig


def docs() -> list[TurnDoc]:
    return [
        TurnDoc("a1", "c1", "Ann", "What did you do at the weekend?"),
        TurnDoc("a2", "c1", "Bob", "I went kayaking on the lake with my sister."),
        TurnDoc("a3", "c1", "Ann", "Sounds lovely. I painted a sunset."),
        TurnDoc("b1", "c2", "Bob", "My sister moved to Lisbon last month."),
        TurnDoc("b2", "c2", "Ann", "Lisbon is wonderful, I adopted a cat there once."),
        TurnDoc("b3", "c2", "Bob", "Pottery class starts on Monday."),
    ]


def test_the_turn_with_the_words_ranks_first() -> None:
    index = TurnIndex(docs())
    assert index.docs[index.search("kayaking lake")[0][0]].id == "a2"
    assert index.search("zebra quantum") == []  # nothing matches: nothing is made up


def test_neighbours_lend_their_words_within_a_conversation_only() -> None:
    index = TurnIndex(docs(), config=TurnRecallConfig(conversation_weight=0, speaker_boost=0))
    ranked = [index.docs[i].id for i, _ in index.search("weekend", k=6)]
    assert ranked[:2] == ["a1", "a2"]  # the reply is found through the question before it
    assert not {"b1", "b2", "b3"} & set(ranked)  # no leak across conversations


def test_a_named_speaker_is_boosted_and_leaves_the_query() -> None:
    index = TurnIndex(docs(), config=TurnRecallConfig(neighbour_weight=0, conversation_weight=0))
    assert index.named("What did Bob say about his sister?") == {"Bob"}
    ranked = [index.docs[i].id for i, _ in index.search("What did Bob say about his sister?")]
    assert ranked[0] in {"a2", "b1"} and "b2" not in ranked[:2]
    assert index.named("What do Ann and Bob like?") == {"Ann", "Bob"}  # two names: no boost


def test_vectors_add_meaning_when_given() -> None:
    d = docs()
    vectors = np.eye(len(d), dtype=np.float32)
    config = TurnRecallConfig(dense_neighbour_weight=0, neighbour_weight=0, conversation_weight=0)
    index = TurnIndex(d, vectors, config)
    query = vectors[5]  # "means" the pottery turn, shares no word with it
    assert index.docs[index.search("ceramics", query_vector=query)[0][0]].id == "b3"
    assert index.search("ceramics") == []  # without the vector, no word matches


def test_words_meet_at_their_full_stem() -> None:
    index = TurnIndex([TurnDoc("x1", "c1", "Ann", "The adoption agency called me back.")])
    assert index.search("when was the dog adopted?")  # adopted ~ adoption (Snowball)


def test_a_per_conversation_cap_lets_every_conversation_be_seen() -> None:
    plain = TurnIndex(docs(), config=TurnRecallConfig(conversation_weight=0, speaker_boost=0))
    capped = TurnIndex(
        docs(), config=TurnRecallConfig(conversation_weight=0, speaker_boost=0, session_cap=1)
    )
    question = "sister kayaking lake weekend Lisbon"
    assert {plain.docs[i].conversation_id for i, _ in plain.search(question, k=2)} == {"c1"}
    top = [capped.docs[i].conversation_id for i, _ in capped.search(question, k=2)]
    assert sorted(top) == ["c1", "c2"]


def test_turns_not_in_the_contacts_words_can_weigh_less() -> None:
    mixed = [
        TurnDoc("u1", "c1", "Ann", "I booked the dentist", customer=True),
        TurnDoc("x1", "c1", "Eve", "The dentist booking is noted, dentist dentist", customer=False),
    ]
    config = TurnRecallConfig(neighbour_weight=0, conversation_weight=0, speaker_boost=0)
    equal = TurnIndex(mixed, config=config)
    customer_first = TurnIndex(
        mixed, config=TurnRecallConfig(**{**vars(config), "other_weight": 0.3})
    )
    assert equal.docs[equal.search("dentist")[0][0]].id == "x1"
    assert customer_first.docs[customer_first.search("dentist")[0][0]].id == "u1"
