"""What the generated module needs from the runtime: an operation's description and an event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Operation:
    """One operation of the OpenAPI document: how to call it and what it answers."""

    operation_id: str
    method: str
    path: str
    #: Whether it needs the session token (`Authorization: Bearer`).
    authenticated: bool
    path_params: tuple[str, ...]
    query_params: tuple[str, ...]
    header_params: tuple[str, ...]
    #: Media types of the request body; empty: no body.
    body_content_types: tuple[str, ...]
    #: `json`: a JSON body; `text`: text; `bytes`: any other media type; `events`: a Server-Sent
    #: Events stream; `empty`: nothing.
    result: Literal["json", "text", "bytes", "events", "empty"]

    @property
    def takes_idempotency_key(self) -> bool:
        return "Idempotency-Key" in self.header_params


@dataclass(frozen=True)
class ServerSentEvent:
    """One event of a `text/event-stream` answer (WHATWG HTML, "Server-sent events")."""

    event: str
    data: str
    id: str | None
    #: The `retry:` the server sent before this event, in milliseconds (None: none yet).
    retry_ms: int | None = None
