"""The synchronous client."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Literal, cast

import httpx

from ._errors import ApiError, ClientError, JobNotCompletedError, api_error
from ._generated import (
    GenerateAccepted,
    GenerateRequest,
    JobStatus,
    JobStatusCompleted,
    SessionToken,
    MetadataRequest,
    MetadataResponse,
    SignatureRequest,
    SignatureResponse,
    SongDownload,
    SyncOperations,
)
from ._http import ACCEPT, FINAL_JOB_EVENTS, JOB_EVENTS, PreparedRequest, RetryPolicy, prepare, read_answer
from ._operation import Operation, ServerSentEvent
from ._siwe import DEFAULT_STATEMENT, siwe_message, signature_hex
from ._sse import SseDecoder
from .signers import MessageSigner

#: The oracle's default `retry:` (3 s), used until a stream sends its own.
DEFAULT_RECONNECT_SECONDS = 3.0
#: Read timeout of an event stream: the oracle sends a heartbeat every 15 s.
STREAM_READ_TIMEOUT = 60.0


@dataclass(frozen=True)
class JobEvent:
    """One event of a job's stream: ``status`` while it runs, then ``completed``, ``failed`` or ``cancelled``."""

    event: str
    #: The event's id; pass it as ``last_event_id`` to resume after it.
    id: str | None
    #: The job's view, the body of ``GET /api/generate/{job_id}``.
    job: JobStatus

    @property
    def final(self) -> bool:
        return self.event in FINAL_JOB_EVENTS


def job_event(sse: ServerSentEvent) -> JobEvent | None:
    if sse.event not in JOB_EVENTS:
        return None
    return JobEvent(event=sse.event, id=sse.id, job=cast(JobStatus, json.loads(sse.data)))


def download_target(destination: str | os.PathLike[str], file_name: str) -> Path:
    """A directory gets the song's own file name; anything else is the file to write."""
    target = Path(destination)
    return target / Path(file_name).name if target.is_dir() else target


class Client(SyncOperations):
    """The Songmint API over httpx, one method per operation plus the flow's helpers::

        with songmint.Client("http://127.0.0.1:3000") as api:
            api.sign_in_with_ethereum(signer)
            job = api.generate({"prompt": "dreamy lofi", "duration": 10})
            song = api.wait_for_job(job["job_id"])
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        #: The session token sent to every authenticated operation (set by sign_in_with_ethereum).
        self.token = token
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(timeout=timeout)

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    # -- transport -------------------------------------------------------------------------

    def _send(self, request: PreparedRequest) -> httpx.Response:
        attempt = 1
        while True:
            try:
                response = self._http.request(
                    request.method,
                    request.url,
                    headers=request.headers,
                    content=request.content,
                    params=request.params,
                    timeout=self._timeout_for(request),
                )
            except httpx.TransportError:
                delay = self.retry.delay_after_disconnect(attempt, request)
                if delay is None:
                    raise
            else:
                if response.status_code < 400:
                    return response
                error = read_error(response)
                delay = self.retry.delay_after_error(attempt, error)
                if delay is None:
                    raise error
            self._sleep(delay)
            attempt += 1

    def _timeout_for(self, request: PreparedRequest) -> httpx.Timeout:
        timeout = self._http.timeout
        if request.read_timeout is None:
            return timeout
        return httpx.Timeout(timeout.connect, read=request.read_timeout, write=timeout.write, pool=timeout.pool)

    def _call(
        self,
        operation: Operation,
        *,
        path: Mapping[str, str],
        query: Mapping[str, object],
        headers: Mapping[str, str | None],
        json: object = None,
        content: bytes | None = None,
        content_type: str | None = None,
    ) -> object:
        request = prepare(
            self.base_url,
            operation,
            token=self.token,
            path=path,
            query=query,
            headers=headers,
            json_body=json,
            content=content,
            content_type=content_type,
            accept=ACCEPT[operation.result],
        )
        response = self._send(request)
        return read_answer(operation, response.status_code, response.headers, response.content)

    def _events(
        self,
        operation: Operation,
        *,
        path: Mapping[str, str],
        query: Mapping[str, object],
        headers: Mapping[str, str | None],
    ) -> Iterator[ServerSentEvent]:
        request = prepare(
            self.base_url, operation, token=self.token, path=path, query=query, headers=headers, accept="text/event-stream"
        )
        return self._event_stream(request)

    def _event_stream(self, request: PreparedRequest) -> Iterator[ServerSentEvent]:
        attempt = 1
        timeout = httpx.Timeout(self._http.timeout.connect, read=STREAM_READ_TIMEOUT)
        while True:
            with self._http.stream(
                request.method, request.url, headers=request.headers, params=request.params, timeout=timeout
            ) as response:
                if response.status_code >= 400:
                    response.read()
                    error = read_error(response)
                    delay = self.retry.delay_after_error(attempt, error)
                    if delay is None:
                        raise error
                else:
                    decoder = SseDecoder()
                    for chunk in response.iter_bytes():
                        yield from decoder.feed(chunk)
                    yield from decoder.finish()
                    return
            self._sleep(delay)
            attempt += 1

    # -- the flow --------------------------------------------------------------------------

    def sign_in_with_ethereum(self, signer: MessageSigner, *, statement: str | None = DEFAULT_STATEMENT) -> SessionToken:
        """Sign-In with Ethereum: fetch a nonce, have ``signer`` sign the EIP-4361 message the
        oracle expects, exchange it for a session token and keep the token for later calls."""
        nonce = self.get_sign_in_nonce()
        message = siwe_message(
            domain=nonce["domain"],
            address=signer.address,
            uri=nonce["uri"],
            chain_id=nonce["chain_id"],
            nonce=nonce["nonce"],
            issued_at=datetime.now(timezone.utc),
            expiration_time=nonce["expires_at"],
            statement=statement,
        )
        signed = signer.sign_message(message)
        if not isinstance(signed, (str, bytes, bytearray)):
            raise ClientError("the signer answered an awaitable: use songmint.AsyncClient with an async signer")
        session = self.sign_in({"message": message, "signature": signature_hex(signed)})
        self.token = session["token"]
        return session

    def generate(self, request: GenerateRequest, *, idempotency_key: str | None = None) -> GenerateAccepted:
        """Start a generation job (Variant A); a retry after a lost answer reuses its Idempotency-Key."""
        return cast(GenerateAccepted, self.create_job(request, idempotency_key=idempotency_key))

    def job_events(self, job_id: str, *, last_event_id: str | None = None, max_reconnects: int = 5) -> Iterator[JobEvent]:
        """The job's events until its final one, reconnecting with ``Last-Event-ID`` when the
        stream breaks or the server ends it early (after ``max_reconnects`` failed reconnects in a
        row it raises). A stream that ends with nothing new after a final event just ends."""
        last = last_event_id
        failures = 0
        reconnect = DEFAULT_RECONNECT_SECONDS
        while True:
            received = False
            try:
                for sse in self.stream_job_events(job_id, last_event_id=last):
                    if sse.retry_ms is not None:
                        reconnect = sse.retry_ms / 1000
                    event = job_event(sse)
                    if event is None:
                        continue
                    received, failures, last = True, 0, event.id
                    yield event
                    if event.final:
                        return
            except httpx.TransportError as error:
                cause: Exception = error
            else:
                cause = ClientError("the event stream ended before the job's final event")
                if not received and self.get_job(job_id)["status"] in FINAL_JOB_EVENTS:
                    return  # nothing after `last`, and the job is over
            failures += 1
            if failures > max_reconnects:
                raise ClientError(f"job {job_id}: the event stream failed {failures} times in a row") from cause
            self._sleep(reconnect)

    def wait_for_job(
        self, job_id: str, *, on_event: Callable[[JobEvent], None] | None = None, poll_interval: float = 2.0
    ) -> JobStatusCompleted:
        """Follow the job's events until it ends; the completed view, or JobNotCompletedError.
        When the stream is refused (503: the server's stream limit) it polls instead."""
        final: JobStatus | None = None
        try:
            for event in self.job_events(job_id):
                if on_event is not None:
                    on_event(event)
                if event.final:
                    final = event.job
        except ApiError as error:
            if error.status != 503:
                raise
        while final is None or final["status"] not in FINAL_JOB_EVENTS:
            final = self.get_job(job_id)
            if final["status"] not in FINAL_JOB_EVENTS:
                self._sleep(poll_interval)
        if final["status"] != "completed":
            raise JobNotCompletedError(final)
        return final

    def download(
        self, job_id: str, destination: str | os.PathLike[str], *, format: Literal["mp3", "wav", "flac"] = "mp3"
    ) -> Path:
        """Save the song (``mp3``, or ``wav``/``flac`` once its lossless files are ready) to
        ``destination``: a file, or a directory where it takes the song's own file name."""
        info: SongDownload = self.get_lossless_download(job_id, format)
        target = download_target(destination, info["file_name"])
        written = 0
        # The URL is presigned storage: no Authorization header goes there.
        with self._http.stream("GET", info["url"]) as response:
            if response.status_code != 200:
                raise ClientError(f"download of {job_id} answered {response.status_code}")
            with open(target, "wb") as out:
                for chunk in response.iter_bytes():
                    written += out.write(chunk)
        if written != info["bytes"]:
            raise ClientError(f"download of {job_id}: {written} bytes, the API announced {info['bytes']}")
        return target

    def upload_metadata(self, request: MetadataRequest, *, idempotency_key: str | None = None) -> MetadataResponse:
        """Publish the song's metadata (and cover) to IPFS (Variant A): its ``metadata_uri`` goes into the mint signature."""
        return cast(MetadataResponse, self.publish_metadata(request, idempotency_key=idempotency_key))

    def mint_signature(self, job_id: str, user_address: str, metadata_uri: str, *, idempotency_key: str | None = None) -> SignatureResponse:
        """The one-time platform signature that lets ``user_address`` mint the song (Variant A)."""
        body: SignatureRequest = {"job_id": job_id, "user_address": user_address, "metadata_uri": metadata_uri}
        return cast(SignatureResponse, self.issue_signature(body, idempotency_key=idempotency_key))


def read_error(response: httpx.Response) -> ApiError:
    return api_error(response.status_code, response.headers, response.text)
