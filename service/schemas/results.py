"""Schemas of a sizing's result, derived from its dataclasses (service/sizing_result.py)."""

from __future__ import annotations

from service.sizing_result import SizingError, SizingResult
from service.typed import schema_for

SizingResultSchema = schema_for(SizingResult)
SizingErrorSchema = schema_for(SizingError)
