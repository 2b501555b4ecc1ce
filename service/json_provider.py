"""Response bodies are RFC 8259 JSON: a NaN or an infinity is a bug, never a body."""

from __future__ import annotations

from typing import Any

from flask.json.provider import DefaultJSONProvider


class StrictJSONProvider(DefaultJSONProvider):
    """Refuses NaN and Infinity, which json.dumps writes by default and JSON parsers reject.

    The refusal raises in the view, so the client gets a logged 500 problem instead of a body
    its parser cannot read.
    """

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)
