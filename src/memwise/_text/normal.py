"""The one normaliser of the text layer: case, quote marks, accents and compatibility forms
folded, and words with contractions spelled out ("I'd" is "I would"), each with the span of
the word it comes from (what quotes are found by and grounding reads)."""

from __future__ import annotations

import functools
import re
import unicodedata

from memwise._text import words as wordlists

QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "´": "'", "`": "'"})


@functools.lru_cache(maxsize=8192)
def fold_word(word: str) -> str:
    """``fold`` for one word, remembered (a turn says the same words again and again)."""
    return fold(word)


def fold(text: str) -> str:
    """Compatibility forms, quote marks, case and accents folded ("São" is "sao")."""
    t = unicodedata.normalize("NFKD", text).translate(QUOTES).casefold()
    return unicodedata.normalize("NFC", "".join(c for c in t if not unicodedata.combining(c)))


def norm(text: str) -> str:
    """``fold``ed, every character but letters, digits and apostrophes a space, one space
    between words."""
    t = fold(text)
    t = re.sub(r"[^\w\s']", " ", t)
    return " ".join(t.split())


# A word with its apostrophes, and where it is: the quote check's own tokenizer (moved here
# unchanged from the harness). spaCy's would split "don't" apart and cost a parse of every
# turn a quote is looked for in; linear (one character class, tests/security/test_cpu_budget).
_TOKEN = re.compile(r"[\w'’‘`´]+")
_SUFFIXES = (("n't", "not"), ("'m", "am"), ("'re", "are"), ("'ve", "have"), ("'ll", "will"))
_IRREGULAR = {  # "can't", "cannot", "im", "dont" … (a data file: text/data)
    word: tuple(full.split()) for word, full in wordlists.labelled("contractions")
}


def words_at(text: str) -> list[tuple[str, int, int]]:
    """The text's words, normalised (case, quote marks, contractions spelled out), each with
    the span of the original word it comes from."""
    out: list[tuple[str, int, int]] = []
    # ASCII folds to its lower case, character for character: fold it whole, once (a word
    # at a time cost most of an extraction's CPU on a long turn)
    whole = text.lower().replace("`", "'") if text.isascii() else None
    for m in _TOKEN.finditer(text):
        w = (whole[m.start() : m.end()] if whole is not None else fold_word(m.group())).strip("'")
        if not w:
            continue
        parts: tuple[str, ...] = (w,)
        if w in _IRREGULAR:
            parts = _IRREGULAR[w]
        elif "'" in w:
            for suffix, full in _SUFFIXES:
                if w.endswith(suffix) and len(w) > len(suffix):
                    parts = (w[: -len(suffix)], full)
                    break
            else:
                if w.endswith("'d") and len(w) > 2:
                    parts = (w[:-2], "would")
        out += [(part, m.start(), m.end()) for part in parts]
    return out
