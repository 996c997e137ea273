"""HTML: text is escaped (the report's templates autoescape; this is the helper for text built outside them)."""

from __future__ import annotations

import html
from typing import Any


def for_html(value: Any) -> str:
    return html.escape(str(value), quote=True)
