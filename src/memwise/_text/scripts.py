"""Text in scripts written without spaces between words — Chinese, Japanese, Thai, Lao,
Khmer, Myanmar — made searchable as overlapping pairs of letters.

A word-based index takes "我住在北京市" for one word, so a search for "北京" finds nothing.
Without a dictionary for each language (ICU's word breaks need a compiled library; none of
the installed ones segments all of these scripts), the standard answer is what Lucene's CJK
bigram filter and Elasticsearch's ``cjk_bigram`` do: index every pair of neighbouring
letters ("我住 住在 在北 北京 京市"), and search with the question's own pairs, all of which a
match must hold. Combining marks (Thai and Khmer vowel signs and tones, the kana voicing
marks) are left out of the pairs, as diacritics are elsewhere, so a pair is always letters.
A lone letter stays itself.

The rule is written here because the search indexes (SQLite FTS5's unicode61 tokenizer,
PostgreSQL's text search parser) split words at spaces and punctuation only; both index the
pairs this module gives (the ``grams`` column of turns and knowledge chunks), and memwise's
own rankings read the same pairs (``memwise._text.lexical``).
"""

from __future__ import annotations

import re
import unicodedata

# Han (with extensions and compatibility ideographs), Hiragana, Katakana (and its phonetic
# extensions), Thai, Lao, Myanmar, Khmer: the scripts whose words are not separated by spaces.
# One character class repeated: linear in the text, no backtracking (Unicode's script
# property would say the same, but the re module has no \p{Script}; no installed library
# exposes it).
_RUN = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]+"
)


def _letters(run: str) -> str:
    return "".join(ch for ch in run if not unicodedata.category(ch).startswith("M"))


def pairs(text: str) -> list[str]:
    """Every pair of neighbouring letters in the text's unspaced runs, in order."""
    out: list[str] = []
    for m in _RUN.finditer(text):
        run = _letters(m.group())
        if len(run) == 1:
            out.append(run)
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def spaced(text: str) -> str:
    """``text`` with each unspaced run replaced by its pairs, spaces between: what a word
    tokeniser then reads as words ("住在北京" → " 住在 在北 北京 ")."""
    if not _RUN.search(text):
        return text
    return _RUN.sub(lambda m: f" {' '.join(pairs(m.group()))} ", text)


def grams(text: str | None) -> str | None:
    """The pairs a search index keeps beside the text (None when it has no unspaced run)."""
    if not text:
        return None
    found = pairs(text)
    return " ".join(found) if found else None


def unspaced(word: str) -> bool:
    """Whether ``word`` is (or holds) letters of an unspaced script."""
    return bool(_RUN.search(word))
