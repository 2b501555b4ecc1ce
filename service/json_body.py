"""Request bodies read exactly: JSON only, bounded nesting, one value per name, finite numbers."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np

from service.errors import Problem

# The deepest body the API defines is four levels (an estimate's cluster.custom_server.gpu);
# anything far deeper is an attack on the parser, refused before it runs.
MAX_DEPTH = 16
# No field takes a number of more digits than a double's largest (309); a longer integer is
# refused before Python converts it (its cost grows with the square of the digits).
MAX_INTEGER_DIGITS = 1000
# A JSON string, so that brackets inside strings are not counted as nesting.
STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
# A \uD800-\uDFFF escape: the only way a UTF-8 body can carry half of a surrogate pair.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
OPEN = np.frombuffer(b"[{", dtype=np.uint8)
CLOSE = np.frombuffer(b"]}", dtype=np.uint8)


def invalid(detail: str, pointer: str = "/") -> Problem:
    where = "" if pointer == "/" else f"{pointer}: "
    return Problem(400, "invalid_json", f"The body is not acceptable JSON: {where}{detail}",
                   errors=[{"pointer": pointer, "detail": detail}])


def nesting_depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects, counted in one vectorised pass."""
    skeleton = np.frombuffer(STRING.sub(b'""', raw), dtype=np.uint8)
    if skeleton.size == 0:
        return 0
    # Comparisons, not np.isin: on a body of a few hundred bytes isin's set-up is most of it.
    steps = ((skeleton == OPEN[0]) | (skeleton == OPEN[1])).astype(np.int32) \
        - ((skeleton == CLOSE[0]) | (skeleton == CLOSE[1]))
    return int(np.cumsum(steps).max(initial=0))


def deeper_than(raw: bytes, depth: int) -> bool:
    """Whether arrays and objects nest deeper than `depth`. A body with no more brackets than
    that cannot (brackets in strings count here, so this only ever errs towards the pass)."""
    if raw.count(b"[") + raw.count(b"{") <= depth:
        return False
    return nesting_depth(raw) > depth


class DuplicateName(ValueError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Two values for one name are read differently by different parsers (a proxy, a WAF, this
    # app): refusing them leaves no room for one to see what the other does not.
    out: dict[str, Any] = {}
    for name, value in pairs:
        if name in out:
            raise DuplicateName(name)
        out[name] = value
    return out


def no_constant(literal: str) -> float:
    raise ValueError(f"{literal} is not a JSON number")


class Unreadable:
    """A number the body cannot give, left in its place by the parser so that the refusal can
    name where it is (a hook of json.loads is not told the position of its number)."""

    def __init__(self, detail: str):
        self.detail = detail


class Numbers:
    """json.loads' number hooks for one body: each number read, or an Unreadable in its place."""

    def __init__(self) -> None:
        self.unreadable = False

    def integer(self, text: str) -> int | Unreadable:
        # Python's own refusal (past 4300 digits) would name its internals to the client.
        if len(text) - text.startswith("-") > MAX_INTEGER_DIGITS:
            return self.refuse(f"number too long (more than {MAX_INTEGER_DIGITS} digits)")
        return int(text)

    def real(self, text: str) -> float | Unreadable:
        value = float(text)
        if not math.isfinite(value):
            return self.refuse("number beyond the range of a double")
        return value

    def refuse(self, detail: str) -> Unreadable:
        self.unreadable = True
        return Unreadable(detail)


def first_unreadable(node: Any, trail: tuple[str, ...] = ()) -> tuple[tuple[str, ...], str] | None:
    """Where the first Unreadable number is, and why."""
    if isinstance(node, Unreadable):
        return trail, node.detail
    children = node.items() if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else ()
    for key, child in children:
        if found := first_unreadable(child, (*trail, str(key))):
            return found
    return None


def pointer(trail: tuple[str, ...]) -> str:
    """The JSON Pointer (RFC 6901) of a path of names and indices."""
    return "/" + "/".join(t.replace("~", "~0").replace("/", "~1") for t in trail)


class Members(list):
    """An object's (name, value) pairs in order, repeats kept, to find where a repeat is."""


def first_repeat(node: Any, trail: tuple[str, ...] = ()) -> tuple[str, ...] | None:
    if isinstance(node, Members):
        seen: set[str] = set()
        for name, value in node:
            if name in seen:
                return (*trail, name)
            seen.add(name)
            if found := first_repeat(value, (*trail, name)):
                return found
    elif isinstance(node, list):
        for i, item in enumerate(node):
            if found := first_repeat(item, (*trail, str(i))):
                return found
    return None


def pointer_of_repeat(text: str) -> str:
    """The JSON Pointer of the first name an object gives twice."""
    return pointer(first_repeat(json.loads(text, object_pairs_hook=Members,
                                           parse_int=Numbers().integer)) or ())


def has_lone_surrogate(value: Any) -> bool:
    """Whether any name or string holds half a surrogate pair, which is not text: it cannot be
    written as UTF-8 to the database, a log or a document."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def loads(raw: bytes) -> Any:
    """The body as a JSON value, or a 400 problem saying what is wrong with it."""
    if deeper_than(raw, MAX_DEPTH):
        raise invalid(f"nested deeper than {MAX_DEPTH} levels")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise invalid("not UTF-8") from None
    if text.startswith("\ufeff"):
        raise invalid("starts with a byte order mark, which JSON does not allow")
    numbers = Numbers()
    try:
        value = json.loads(text, object_pairs_hook=unique_object, parse_constant=no_constant,
                           parse_float=numbers.real, parse_int=numbers.integer)
    except DuplicateName as exc:
        raise Problem(400, "invalid_json", f"The body gives {exc.name!r} more than once",
                      errors=[{"pointer": pointer_of_repeat(text),
                               "detail": "given more than once"}]) from None
    except RecursionError:
        raise invalid(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        # json's messages say where ("line 1 column 9"), which helps the client find it.
        raise invalid(str(exc)) from None
    if numbers.unreadable and (found := first_unreadable(value)):
        raise invalid(found[1], pointer(found[0]))
    if SURROGATE_ESCAPE.search(text) and has_lone_surrogate(value):
        raise invalid("a string holds an unpaired UTF-16 surrogate (\\uD800-\\uDFFF)")
    return value
