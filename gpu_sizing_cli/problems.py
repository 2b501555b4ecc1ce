"""An API problem document (RFC 9457) as one line naming the field, by its flag where it has one."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

# A field of a request body, dotted ("nodes.min"), to the flag that sets it ("--nodes").
Flags = Mapping[str, str]


def field_name(pointer: str, flags: Flags) -> str:
    field = ".".join(part for part in pointer.strip("/").split("/") if part) or "request"
    parts = field.split(".")
    for length in range(len(parts), 0, -1):
        flag = flags.get(".".join(parts[:length]))
        if flag:
            return flag if flag.lstrip("-") == field else f"{flag} ({field})"
    return field


def one_line(status: int, code: str, detail: str, errors: Iterable[tuple[str, str]],
             flags: Flags) -> str:
    named = [f"{field_name(pointer, flags)}: {text}" for pointer, text in errors]
    return f"{'; '.join(named) if named else detail} ({status} {code})"


def from_body(status: int, content: bytes, flags: Flags) -> str:
    """The line for any error answer: a problem document, or what else came back."""
    try:
        body: Any = json.loads(content)
    except ValueError:
        body = None
    if isinstance(body, dict) and "detail" in body:
        errors = [(e.get("pointer", ""), e.get("detail", "")) for e in body.get("errors") or []
                  if isinstance(e, dict)]
        return one_line(body.get("status", status), body.get("code", "error"), body["detail"],
                        errors, flags)
    text = content.decode("utf-8", "replace").strip().splitlines()
    return f"HTTP {status}{': ' + text[0][:200] if text else ''}"
