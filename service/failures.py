"""Domain errors: what went wrong, in the service's own terms; the API layer makes them problems."""

from __future__ import annotations

from collections.abc import Sequence


class DomainError(Exception):
    """Raised by service code that knows nothing of HTTP; mapped by service.api."""

    status = 500
    code = "internal_error"

    def __init__(self, detail: str, *, code: str | None = None,
                 errors: Sequence[tuple[str, str]] = (), headers: dict[str, str] | None = None):
        super().__init__(detail)
        self.detail = detail
        self.code = code or self.code
        self.errors = list(errors)  # (JSON pointer, what is wrong there)
        self.headers = headers or {}


class Invalid(DomainError):
    """The request names something that cannot be done; each (pointer, detail) says where."""

    status = 422
    code = "validation_failed"

    @classmethod
    def at(cls, pointer: str, detail: str, code: str | None = None) -> Invalid:
        return cls(f"{pointer}: {detail}", code=code, errors=[(pointer, detail)])

    @classmethod
    def of(cls, problems: Sequence[tuple[str, str]], code: str | None = None) -> Invalid:
        return cls("; ".join(f"{p}: {d}" for p, d in problems), code=code, errors=problems)


# The kinds of failure, each with the HTTP status and stable code the API answers it with.
class NotFound(DomainError):
    status, code = 404, "not_found"


class Forbidden(DomainError):
    status, code = 403, "insufficient_scope"


class Conflict(DomainError):
    status, code = 409, "conflict"


class PreconditionFailed(DomainError):
    """The record changed since the caller read it (If-Match)."""

    status, code = 412, "precondition_failed"


class PreconditionRequired(DomainError):
    status, code = 428, "precondition_required"


class Unavailable(DomainError):
    status, code = 503, "unavailable"
