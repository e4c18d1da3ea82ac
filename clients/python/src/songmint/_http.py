"""What the sync and the async client share: requests built from the operation table, answers
read into values or errors, and the retry policy."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote

from ._errors import ApiError, ClientError, api_error
from ._generated import API_VERSION
from ._operation import Operation
from ._version import __version__

USER_AGENT = f"songmint-python/{__version__} (API {API_VERSION})"

#: Read timeout of a Variant B request (`Prefer: wait`): the oracle holds it up to the 300 s job limit.
PREFER_WAIT_READ_TIMEOUT = 330.0

#: A job's stream ends with an event named for its final state.
FINAL_JOB_EVENTS = frozenset({"completed", "failed", "cancelled"})
JOB_EVENTS = FINAL_JOB_EVENTS | {"status"}


@dataclass(frozen=True)
class RetryPolicy:
    """Retries of a refused request that may succeed later, with the same Idempotency-Key.

    Retried: 429 and 503 (the limits, `GEN_001`, `GEN_002`, `UPLOAD_006`, `SERVICE_UNAVAILABLE`) and
    409 `IDEM_002` (the first request with the key still runs), waiting the answer's `Retry-After`
    (or its body's `retry_after`), else an exponential backoff with jitter; a connection that fails
    before an answer is retried only where that is safe (GET, or a request with an Idempotency-Key).
    Not retried: the daily limit `RATE_001` (it resets at midnight UTC) and any wait longer than
    ``max_retry_after`` (an hourly limit), which raise at once with ``retry_after`` set.
    """

    #: Attempts in all, the first included (1: never retry).
    max_attempts: int = 4
    backoff_base: float = 0.5
    backoff_max: float = 8.0
    #: The longest `Retry-After` (seconds) waited for; a longer one raises.
    max_retry_after: float = 60.0

    def backoff(self, attempt: int) -> float:
        """Seconds before attempt ``attempt + 1`` when the answer names no wait: full jitter."""
        return random.uniform(0.5, 1.0) * min(self.backoff_max, self.backoff_base * 2 ** (attempt - 1))

    def delay_after_error(self, attempt: int, error: ApiError) -> float | None:
        """Seconds to wait before retrying after ``error`` on attempt ``attempt`` (1-based); None: raise."""
        if attempt >= self.max_attempts or not retryable(error):
            return None
        if error.retry_after is None:
            return self.backoff(attempt)
        return error.retry_after if error.retry_after <= self.max_retry_after else None

    def delay_after_disconnect(self, attempt: int, request: PreparedRequest) -> float | None:
        if attempt >= self.max_attempts or not request.replay_safe:
            return None
        return self.backoff(attempt)


def retryable(error: ApiError) -> bool:
    if error.code == "RATE_001":
        return False
    return error.status in (429, 503) or (error.status == 409 and error.code == "IDEM_002")


@dataclass
class PreparedRequest:
    method: str
    url: str
    headers: dict[str, str]
    content: bytes | None
    #: Whether sending it twice does no harm: a GET, or a request carrying an Idempotency-Key.
    replay_safe: bool
    params: dict[str, str] = field(default_factory=dict)
    #: A read timeout longer than the client's, for a request the server holds open on purpose.
    read_timeout: float | None = None


def _query_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def prepare(
    base_url: str,
    operation: Operation,
    *,
    token: str | None,
    path: Mapping[str, str],
    query: Mapping[str, object],
    headers: Mapping[str, str | None],
    json_body: object = None,
    content: bytes | None = None,
    content_type: str | None = None,
    accept: str = "application/json",
) -> PreparedRequest:
    """The request for one call of ``operation``. An operation that takes an Idempotency-Key gets a
    fresh UUID when none is given, so its retries can never run it twice."""
    if operation.authenticated and token is None:
        raise ClientError(f"{operation.operation_id} needs a session token: call sign_in_with_ethereum() first, or pass token=")
    url_path = operation.path
    for name in operation.path_params:
        value = path.get(name)
        if value is None or value == "":
            raise ClientError(f"{operation.operation_id}: the path parameter {name} is missing")
        url_path = url_path.replace("{" + name + "}", quote(str(value), safe=""))
    sent: dict[str, str] = {"Accept": accept, "User-Agent": USER_AGENT}
    for name, value in headers.items():
        if value is not None:
            sent[name] = value
    if operation.takes_idempotency_key and "Idempotency-Key" not in sent:
        sent["Idempotency-Key"] = str(uuid.uuid4())
    if operation.authenticated and token is not None:
        sent["Authorization"] = f"Bearer {token}"
    body: bytes | None = None
    if content is not None:
        body = content
        sent["Content-Type"] = content_type or "application/octet-stream"
    elif operation.body_content_types:
        body = json.dumps(json_body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        sent["Content-Type"] = "application/json"
    return PreparedRequest(
        method=operation.method,
        url=base_url.rstrip("/") + url_path,
        headers=sent,
        content=body,
        replay_safe=operation.method in ("GET", "HEAD") or "Idempotency-Key" in sent,
        params={name: _query_value(value) for name, value in query.items() if value is not None},
        read_timeout=PREFER_WAIT_READ_TIMEOUT if "wait" in sent.get("Prefer", "") else None,
    )


ACCEPT = {"json": "application/json", "text": "text/plain", "bytes": "*/*", "events": "text/event-stream", "empty": "*/*"}


def read_answer(operation: Operation, status: int, headers: Mapping[str, str], content: bytes) -> object:
    """The value of a 2xx or 304 answer; raises the API's error otherwise."""
    if status == 304:
        return None
    text = content.decode("utf-8", errors="replace") if operation.result != "bytes" or not 200 <= status < 300 else ""
    if not 200 <= status < 300:
        raise api_error(status, headers, text)
    if operation.result == "json":
        return json.loads(text) if text else None
    if operation.result == "text":
        return text
    if operation.result == "bytes":
        return content
    return None
