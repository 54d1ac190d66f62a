"""tools/locomo.py: LoCoMo-shaped data (written here, not LoCoMo's) runs end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memwise import errors
from tools import locomo


def _sample() -> dict[str, object]:
    return {
        "conversation": {
            "speaker_a": "Dana",
            "speaker_b": "Sam",
            "session_1_date_time": "10:00 am on 3 March, 2024",
            "session_1": [
                {"speaker": "Dana", "dia_id": "D1:1", "text": "I adopted a beagle named Pickle."},
                {"speaker": "Sam", "dia_id": "D1:2", "text": "Lovely, how old is Pickle?"},
                {"speaker": "Dana", "dia_id": "D1:3", "text": "Two years old, very loud."},
            ],
            "session_2_date_time": "4:30 pm on 9 April, 2024",
            "session_2": [
                {
                    "speaker": "Dana",
                    "dia_id": "D2:1",
                    "text": "I started pottery classes on Tuesdays.",
                },
                {"speaker": "Sam", "dia_id": "D2:2", "text": "Pottery sounds relaxing."},
            ],
        },
        "qa": [
            {"question": "What is the name of Dana's dog?", "evidence": ["D1:1"], "category": 4},
            {
                "question": "Which class does Dana take on Tuesdays?",
                "evidence": ["D2:1"],
                "category": 4,
            },
            {"question": "ignored: an adversarial category", "evidence": ["D1:2"], "category": 5},
        ],
    }


def test_main_prints_recall_per_k_and_category(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([_sample()]))
    locomo.main([str(path), "--quiet"])
    lines = dict(line.rsplit(" ", 1) for line in capsys.readouterr().out.splitlines())
    assert float(lines["recall@10"]) == 1.0  # five turns: every evidence turn is in the top 10
    assert 0.0 < float(lines["recall@1"]) <= 1.0
    assert float(lines["recall@10 single-hop"]) == 1.0
    assert "recall@1 temporal" not in lines  # no question of that category


def test_not_locomo_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"hello": 1}))
    with pytest.raises(errors.Invalid):
        locomo.load(path)
