"""Which language a text is in, by a model that ships inside its package (py3langid: a
naive Bayes classifier over byte n-grams, 97 languages, about a twentieth of a millisecond a
sentence). Loaded once per process, on first use.

Short texts ("ok thanks", "Danke!") say too little to judge: below ``MIN_WORDS`` words, or
below ``MIN_CONFIDENCE``, the answer is None (unknown stays unknown).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

MIN_WORDS = 3
MIN_CONFIDENCE = 0.80
# The languages told apart (fewer candidates, fewer confusions between close ones), by name.
NAMES = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "nl": "Dutch",
    "pt": "Portuguese",
    "pl": "Polish",
    "sv": "Swedish",
    "da": "Danish",
    "no": "Norwegian",
    "fi": "Finnish",
    "tr": "Turkish",
    "ru": "Russian",
    "uk": "Ukrainian",
    "zh": "Chinese",
    "ja": "Japanese",
    "ko": "Korean",
    "ar": "Arabic",
    "he": "Hebrew",
    "el": "Greek",
    "cs": "Czech",
    "hu": "Hungarian",
    "ro": "Romanian",
    "id": "Indonesian",
    "vi": "Vietnamese",
    "th": "Thai",
    "hi": "Hindi",
}
_SPACELESS = {"zh", "ja", "th"}  # scripts written without spaces between words


@dataclass(frozen=True)
class Detected:
    code: str  # ISO 639-1
    confidence: float

    @property
    def name(self) -> str:
        return NAMES.get(self.code, self.code)


_model: Any = None
_lock = threading.Lock()


def _identifier() -> Any:
    global _model
    with _lock:
        if _model is None:
            from py3langid.langid import _load_identifier

            _model = _load_identifier(norm_probs=True, langs=sorted(NAMES))
        return _model


def detect(text: str) -> Detected | None:
    """The language of ``text``, or None when it is too short or too unclear to say."""
    sample = " ".join(text.split())[:2000]
    if not sample:
        return None
    code, confidence = _identifier().classify(sample)
    if len(sample.split()) < MIN_WORDS and code not in _SPACELESS:
        return None
    if float(confidence) < MIN_CONFIDENCE:
        return None
    return Detected(str(code), float(confidence))
