"""Errors: what the API refused (with its code), and what the client itself refuses."""

from __future__ import annotations

import json
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from ._generated import JobStatus


class SongmintError(Exception):
    """Base of every error this package raises."""


class ClientError(SongmintError):
    """Refused by the client before or after talking to the API (no session, a broken stream, a bad signer)."""


class ApiError(SongmintError):
    """An error answer of the API, in any of its three shapes (docs/api.md, "Errors").

    ``code`` is the API's code: Variant A's ``error.code``, Variant C's ``error``, ``RATE_001`` for
    the daily limit's ``{"error": "rate_limit_exceeded", ...}``, or ``HTTP_<status>`` for an answer
    in none of these shapes.
    """

    def __init__(
        self,
        *,
        status: int,
        code: str,
        message: str,
        details: object = None,
        retry_after: float | None = None,
        job_id: str | None = None,
        earlier_song: Mapping[str, object] | None = None,
        body: object = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code} ({status}): {message}" + (f": {details}" if isinstance(details, str) and details else ""))
        self.status = status
        self.code = code
        self.message = message
        #: A string in Variant A, an object in Variant C.
        self.details = details
        #: Seconds after which a retry can succeed (the `Retry-After` header, else the body's `retry_after`).
        self.retry_after = retry_after
        self.job_id = job_id
        #: On `SIGN_007` and `UPLOAD_005`: `{"job_id", "token_id"}` of the song it contains.
        self.earlier_song = earlier_song
        #: The parsed JSON body (or its text when it is not JSON).
        self.body = body
        self.headers: Mapping[str, str] = dict(headers or {})


class RateLimitError(ApiError):
    """A 429: the daily tier counter (`RATE_001`, with ``limit`` and ``reset_at``), an hourly
    category (`RATE_002`) or too many uploads in flight (`UPLOAD_006`)."""

    def __init__(self, *, limit: int | None = None, reset_at: str | None = None, **fields: object) -> None:
        super().__init__(**fields)  # type: ignore[arg-type]
        self.limit = limit
        self.reset_at = reset_at


class JobNotCompletedError(SongmintError):
    """A job waited for ended failed or cancelled. ``code`` is the failed job's error code (e.g. `GEN_005`)."""

    def __init__(self, job: JobStatus) -> None:
        error = job.get("error") if job["status"] == "failed" else None
        self.job = job
        self.status: str = job["status"]
        self.code: str | None = str(error["code"]) if isinstance(error, dict) else None
        self.retry_after: int | None = error.get("retry_after") if isinstance(error, dict) else None
        message = str(error["message"]) if isinstance(error, dict) else "cancelled"
        super().__init__(f"job {job['job_id']} {job['status']}" + (f": {self.code}: {message}" if self.code else ""))


def retry_after_seconds(header: str | None, now: datetime | None = None) -> float | None:
    """`Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110, section 10.2.3)."""
    if header is None or header.strip() == "":
        return None
    text = header.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - (now or datetime.now(timezone.utc))).total_seconds())


def _optional_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _optional_number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _object(value: object) -> dict[str, object] | None:
    return cast("dict[str, object]", value) if isinstance(value, dict) else None


def _optional_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def api_error(status: int, headers: Mapping[str, str], text: str) -> ApiError:
    """The exception for an error answer: its code from whichever of the API's shapes the body has."""
    try:
        body: object = json.loads(text) if text else None
    except ValueError:
        body = text
    header_retry = retry_after_seconds(headers.get("retry-after"))
    fields: dict[str, object] = {"status": status, "body": body, "headers": headers}
    limit: int | None = None
    reset_at: str | None = None
    answer = _object(body)
    error: object = answer.get("error") if answer is not None else None
    nested = _object(error)
    if nested is not None:
        # Variant A: {"error": {"code", "message", "details", "retry_after"?, "job_id"?, "earlier_song"?}}
        fields.update(
            code=_optional_str(nested.get("code")) or f"HTTP_{status}",
            message=_optional_str(nested.get("message")) or "",
            details=nested.get("details"),
            retry_after=header_retry if header_retry is not None else _optional_number(nested.get("retry_after")),
            job_id=_optional_str(nested.get("job_id")),
            earlier_song=_object(nested.get("earlier_song")),
        )
    elif answer is not None and error == "rate_limit_exceeded":
        # The daily limit on /api/*: {"error": "rate_limit_exceeded", "limit", "reset_at", "code", "message", "retry_after"}
        fields.update(
            code=_optional_str(answer.get("code")) or "RATE_001",
            message=_optional_str(answer.get("message")) or "daily limit reached",
            retry_after=header_retry if header_retry is not None else _optional_number(answer.get("retry_after")),
        )
        limit = _optional_int(answer.get("limit"))
        reset_at = _optional_str(answer.get("reset_at"))
    elif answer is not None and isinstance(error, str):
        # Variant C: {"error": "<code>", "message", "details": {...}}
        details = answer.get("details")
        fields.update(code=error, message=_optional_str(answer.get("message")) or "", details=details, retry_after=header_retry)
        detail_fields = _object(details)
        if detail_fields is not None:
            limit = _optional_int(detail_fields.get("limit"))
            reset_at = _optional_str(detail_fields.get("reset_at"))
            fields["job_id"] = _optional_str(detail_fields.get("job_id"))
            fields["earlier_song"] = _object(detail_fields.get("earlier_song"))
    else:
        fields.update(code=f"HTTP_{status}", message=text[:200] if isinstance(body, str) else "", retry_after=header_retry)
    if status == 429:
        return RateLimitError(limit=limit, reset_at=reset_at, **fields)
    return ApiError(**fields)  # type: ignore[arg-type]
