"""Names broken apart by layout, joined before the scrubber reads a text (issue 30).

A name can be split by markdown emphasis inside the word ("*Lla*ma 3.1 wrote this", "**Gem**ini"), by a hyphen
that breaks the word across a line ("Deep-\\nSeek-V3", "Gr-\\nok 4") or, in a script written without spaces, by a
line break ("通义\\n千问"). None of the name patterns can see the name there. :func:`joined_copy` writes a copy of
the text with such a break removed wherever the joined letters spell a lexicon name (and nowhere else: "long-\\nterm"
stays; an underscore joins no name: "Meta_Llama_4" is an identifier, read as written), with the map from each
character of the copy back to the input, so the scrubber reads the copy and answers in the input's offsets."""

from __future__ import annotations

import re
from collections.abc import Iterable

_BREAK = r"(?:\*{1,3}|~~|-[ \t]*\r?\n[ \t]*)"
_CJK = r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]"
_SPLIT = re.compile(rf"(?<![^\W\d_])[^\W\d_]+(?:{_BREAK}[^\W\d_]+)+(?![^\W\d_])|{_CJK}+(?:[ \t]*\r?\n[ \t]*{_CJK}+)+")
_SEP = re.compile(rf"{_BREAK}|[ \t]*\r?\n[ \t]*")


def name_keys(names: Iterable[str]) -> frozenset[str]:
    """The names as their letters alone, lower case ("Deep Seek" -> "deepseek", "通义千问" stays)."""
    return frozenset(k for k in (re.sub(r"[\W_]+", "", n.lower()) for n in names) if len(k) >= 2)


def _names_across(word: str, keys: frozenset[str]) -> bool:
    """Whether joining ``word``'s pieces spells a name: the whole word in a Latin script; in a script without
    spaces, a name inside the run that no single piece holds ("我是深度\\n求索的模型")."""
    joined = _SEP.sub("", word).lower()
    if word[0].isascii():
        return joined in keys
    pieces = _SEP.split(word)
    return any(k in joined and not any(k in p for p in pieces) for k in keys if not k.isascii())


def joined_copy(text: str, keys: frozenset[str]) -> tuple[str, list[int]] | None:
    """``text`` with every name split by emphasis or a line break written whole, and the map from each character of
    the copy to the input; None when nothing was split."""
    if "*" not in text and "~" not in text and "\n" not in text:
        return None
    out: list[str] = []
    index: list[int] = []
    pos = 0
    for m in _SPLIT.finditer(text):
        word = m.group(0)
        if not _names_across(word, keys):
            continue
        out.append(text[pos : m.start()])
        index.extend(range(pos, m.start()))
        cut = m.start()
        for sep in _SEP.finditer(word):
            out.append(text[cut : m.start() + sep.start()])
            index.extend(range(cut, m.start() + sep.start()))
            cut = m.start() + sep.end()
        out.append(text[cut : m.end()])
        index.extend(range(cut, m.end()))
        pos = m.end()
    if pos == 0:
        return None
    out.append(text[pos:])
    index.extend(range(pos, len(text)))
    return "".join(out), index
