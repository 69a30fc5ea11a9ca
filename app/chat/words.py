"""The words a chat line may not hold: a list (app/chat/blocked_words.txt, or the file of
``KODAMA_CHAT_BLOCKED_WORDS_FILE``) matched on whole words, in any case, after a simple
normalisation of the line: compatibility forms folded (full-width letters, ligatures),
accents dropped, the usual digit and symbol stand-ins read as letters ("n1gg3r"), and a
letter repeated three times or more read as two. A plural "s" is allowed after a word.

A refused line is ``400 chat.refused_words`` and kept nowhere; the refusal does not say
which word (it would teach the way around the list)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from app.core.errors import ServiceError

DEFAULT_FILE = Path(__file__).with_name("blocked_words.txt")
_STAND_INS = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t",
                            "@": "a", "$": "s"})  # fmt: skip
_I_STAND_INS = re.compile(r"[!|](?=\w)")  # "n!gger"; a "!" ending a sentence stays one
_REPEATED = re.compile(r"(\w)\1{2,}")


def normal(text: str) -> str:
    """``text`` as the list is matched against (see the module's docstring)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    plain = _I_STAND_INS.sub("i", plain).translate(_STAND_INS)
    return _REPEATED.sub(r"\1\1", plain)


def read_list(path: Path) -> list[str]:
    """The words of a list file: one per line; blank lines and ``#`` comments skipped."""
    words = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        word = raw.split("#", 1)[0].strip()
        if word:
            words.append(normal(word))
    return words


class BlockedWords:
    def __init__(self, words: Iterable[str]) -> None:
        found = sorted({w for w in words if w}, key=len, reverse=True)
        alternatives = "|".join(re.escape(w) for w in found)
        # Word boundaries of the normalised text: "\b" treats digits and letters alike, so
        # "spice" and "class" pass where "spic" and "ass" are listed.
        self._pattern = re.compile(rf"\b(?:{alternatives})s?\b") if found else None

    @classmethod
    def from_file(cls, path: Path | None) -> BlockedWords:
        return cls(read_list(path or DEFAULT_FILE))

    def found_in(self, text: str) -> bool:
        return self._pattern is not None and self._pattern.search(normal(text)) is not None

    def check(self, text: str) -> None:
        """Refuse a line holding a listed word (``400 chat.refused_words``)."""
        if self.found_in(text):
            raise ServiceError(
                "chat.refused_words", "this line holds a word the chat does not allow"
            )
