"""Letters disguised by their code points, written plainly before the scrubber reads a text (issue 30).

A name can be written in full-width letters ("ＧＰＴ－５", "ｍｉｓｔｒａｌ-large"), with an invisible character
inside it ("Clau\\u200bde"), or with its letters set apart by a thin or other Unicode space ("G\\u2009e\\u2009m\\u2009
i\\u2009n\\u2009i"). None of the name patterns can see it there. :func:`folded_copy` writes a copy of the text with
full-width letters and digits as their ASCII forms, the invisible characters dropped and every Unicode space a plain
one, with the map from each character of the copy back to the input, so the scrubber reads the copy and answers in
the input's offsets (the letters set apart are then read as spaced letters, like "G e m i n i"). A Latin word right
after the first person in a script without spaces is read with a space before it ("私はClaudeです").

Only what can hide a Latin name is folded: full-width punctuation between CJK words ("：", "（", "。") stays as
written, except a full-width hyphen, dot or space inside a run of full-width letters ("ＧＰＴ－５", "Ｇｒｏｋ　４")."""

from __future__ import annotations

import re

_INVISIBLE = frozenset("\u00ad\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")
"""Characters that print nothing: a soft hyphen, zero-width spaces and joiners, the word joiner, the BOM."""
_SPACES = frozenset("\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f")
"""Unicode spaces that look like (or thinner than) a plain space; the ideographic space is folded only between
full-width letters (below)."""
_WIDE_ALNUM = re.compile(r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
_WIDE_JOINERS = frozenset("\uff0d\uff0e\uff3f\u3000")
"""A full-width hyphen, full stop, low line and the ideographic space: part of a full-width name only between
full-width letters or digits ("ＧＰＴ－５", "Ｇｒｏｋ　４")."""
_RUN_ON = re.compile(r"(?:(?<=私は|僕は|我是|我叫|我们|我們|저는|나는|저희)|(?<=わたしは)|(?<=우리는))(?=[A-Za-z])")
"""The first person in Japanese, Chinese or Korean right before a Latin letter: the copy has a space there ("私は
Claudeです" is read "私は Claudeです"), as the name after it starts a word though the script wrote none (only there: "谷歌
发布Gemini 3，GOOGL上涨" is news, read as written)."""
_NEEDS_FOLD = re.compile("[" + "".join(sorted(_INVISIBLE | _SPACES)) + "\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
"""Any character the fold changes (a full-width joiner only matters between full-width letters, which match too)."""


def _wide(ch: str) -> bool:
    return bool(_WIDE_ALNUM.match(ch))


def folded_copy(text: str) -> tuple[str, list[int]] | None:
    """``text`` with full-width letters as ASCII, invisible characters dropped and Unicode spaces plain, and the map
    from each character of the copy to the input; None when nothing needed folding (the common text)."""
    if _NEEDS_FOLD.search(text) is None and (text.isascii() or _RUN_ON.search(text) is None):
        return None
    out: list[str] = []
    index: list[int] = []
    n = len(text)
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            continue
        if ch in _SPACES:
            out.append(" ")
        elif _wide(ch):
            out.append(chr(ord(ch) - 0xFEE0))
        elif ch in _WIDE_JOINERS and 0 < i < n - 1 and _wide(text[i - 1]) and _wide(text[i + 1]):
            out.append(" " if ch == "\u3000" else chr(ord(ch) - 0xFEE0))
        else:
            out.append(ch)
        index.append(i)
        if _RUN_ON.match(text, i + 1):
            out.append(" ")
            index.append(i + 1)
    return "".join(out), index


__all__ = ["folded_copy"]
