"""An incremental `text/event-stream` decoder (WHATWG HTML, "Server-sent events", 9.2.6).

Fed raw bytes as they arrive, it answers the events they complete. It splits lines itself (CR,
LF or CRLF, a CR at the end of a chunk held until the next byte) so it behaves the same under every
httpx version (``iter_lines`` changed its line endings between 0.23 and 0.24).
"""

from __future__ import annotations

import codecs

from ._operation import ServerSentEvent

#: The longest line kept (1 MiB): the oracle's lines are one job view, a few kB.
MAX_LINE_CHARS = 1 << 20


class SseDecoder:
    def __init__(self) -> None:
        self._text = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._first = True
        self._event = ""
        self._data: list[str] = []
        #: The id of the last event (sticky across events, as the standard says).
        self.last_event_id: str | None = None
        self.retry_ms: int | None = None

    def feed(self, chunk: bytes) -> list[ServerSentEvent]:
        text = self._text.decode(chunk)
        if self._first and text:
            text = text.removeprefix("\ufeff")
            self._first = False
        self._buffer += text
        events: list[ServerSentEvent] = []
        while True:
            cr = self._buffer.find("\r")
            lf = self._buffer.find("\n")
            ends = [i for i in (cr, lf) if i >= 0]
            if not ends:
                if len(self._buffer) > MAX_LINE_CHARS:
                    raise ValueError(f"an event-stream line longer than {MAX_LINE_CHARS} characters")
                return events
            end = min(ends)
            if self._buffer[end] == "\r":
                if end + 1 == len(self._buffer):
                    return events  # a CRLF may be split across chunks: wait for the next one
                skip = 2 if self._buffer[end + 1] == "\n" else 1
            else:
                skip = 1
            line, self._buffer = self._buffer[:end], self._buffer[end + skip :]
            event = self._line(line)
            if event is not None:
                events.append(event)

    def finish(self) -> list[ServerSentEvent]:
        """At the end of the stream: a CR held back as a possible CRLF ends its line after all.
        (An event without its blank line is dropped, as the standard says.)"""
        self._buffer += self._text.decode(b"", final=True)
        if not self._buffer.endswith("\r"):
            return []
        self._buffer = self._buffer[:-1]
        line, self._buffer = self._buffer, ""
        event = self._line(line)
        return [] if event is None else [event]

    def _line(self, line: str) -> ServerSentEvent | None:
        if line == "":
            if not self._data:
                self._event = ""
                return None
            event = ServerSentEvent(
                event=self._event or "message",
                data="\n".join(self._data),
                id=self.last_event_id,
                retry_ms=self.retry_ms,
            )
            self._event, self._data = "", []
            return event
        if line.startswith(":"):
            return None  # a comment: the oracle's heartbeat
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self.last_event_id = value
        elif field == "retry" and value.isdigit():
            self.retry_ms = int(value)
        return None
