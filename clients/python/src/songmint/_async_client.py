"""The asynchronous client: the same operations and helpers as :class:`songmint.Client`, awaited."""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Literal, cast

import httpx

from ._client import DEFAULT_RECONNECT_SECONDS, STREAM_READ_TIMEOUT, JobEvent, download_target, job_event, read_error
from ._errors import ApiError, ClientError, JobNotCompletedError
from ._generated import (
    AsyncOperations,
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
)
from ._http import ACCEPT, FINAL_JOB_EVENTS, PreparedRequest, RetryPolicy, prepare, read_answer
from ._operation import Operation, ServerSentEvent
from ._siwe import DEFAULT_STATEMENT, siwe_message, signature_hex
from ._sse import SseDecoder
from .signers import MessageSigner


class AsyncClient(AsyncOperations):
    """The Songmint API over ``httpx.AsyncClient``::

        async with songmint.AsyncClient("http://127.0.0.1:3000") as api:
            await api.sign_in_with_ethereum(signer)
            job = await api.generate({"prompt": "dreamy lofi", "duration": 10})
            async for event in api.job_events(job["job_id"]):
                print(event.event, event.job.get("progress"))
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        http_client: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()

    # -- transport -------------------------------------------------------------------------

    async def _send(self, request: PreparedRequest) -> httpx.Response:
        attempt = 1
        while True:
            try:
                response = await self._http.request(
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
            await self._sleep(delay)
            attempt += 1

    def _timeout_for(self, request: PreparedRequest) -> httpx.Timeout:
        timeout = self._http.timeout
        if request.read_timeout is None:
            return timeout
        return httpx.Timeout(timeout.connect, read=request.read_timeout, write=timeout.write, pool=timeout.pool)

    async def _call(
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
        response = await self._send(request)
        return read_answer(operation, response.status_code, response.headers, response.content)

    def _events(
        self,
        operation: Operation,
        *,
        path: Mapping[str, str],
        query: Mapping[str, object],
        headers: Mapping[str, str | None],
    ) -> AsyncIterator[ServerSentEvent]:
        request = prepare(
            self.base_url, operation, token=self.token, path=path, query=query, headers=headers, accept="text/event-stream"
        )
        return self._event_stream(request)

    async def _event_stream(self, request: PreparedRequest) -> AsyncIterator[ServerSentEvent]:
        attempt = 1
        timeout = httpx.Timeout(self._http.timeout.connect, read=STREAM_READ_TIMEOUT)
        while True:
            async with self._http.stream(
                request.method, request.url, headers=request.headers, params=request.params, timeout=timeout
            ) as response:
                if response.status_code >= 400:
                    await response.aread()
                    error = read_error(response)
                    delay = self.retry.delay_after_error(attempt, error)
                    if delay is None:
                        raise error
                else:
                    decoder = SseDecoder()
                    async for chunk in response.aiter_bytes():
                        for event in decoder.feed(chunk):
                            yield event
                    for event in decoder.finish():
                        yield event
                    return
            await self._sleep(delay)
            attempt += 1

    # -- the flow --------------------------------------------------------------------------

    async def sign_in_with_ethereum(self, signer: MessageSigner, *, statement: str | None = DEFAULT_STATEMENT) -> SessionToken:
        """Sign-In with Ethereum, as :meth:`songmint.Client.sign_in_with_ethereum`; the signer may be async."""
        nonce = await self.get_sign_in_nonce()
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
        if inspect.isawaitable(signed):
            signed = await signed
        session = await self.sign_in({"message": message, "signature": signature_hex(signed)})
        self.token = session["token"]
        return session

    async def generate(self, request: GenerateRequest, *, idempotency_key: str | None = None) -> GenerateAccepted:
        return cast(GenerateAccepted, await self.create_job(request, idempotency_key=idempotency_key))

    async def job_events(
        self, job_id: str, *, last_event_id: str | None = None, max_reconnects: int = 5
    ) -> AsyncIterator[JobEvent]:
        """The job's events until its final one, as :meth:`songmint.Client.job_events`."""
        last = last_event_id
        failures = 0
        reconnect = DEFAULT_RECONNECT_SECONDS
        while True:
            received = False
            try:
                async for sse in self.stream_job_events(job_id, last_event_id=last):
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
                if not received and (await self.get_job(job_id))["status"] in FINAL_JOB_EVENTS:
                    return
            failures += 1
            if failures > max_reconnects:
                raise ClientError(f"job {job_id}: the event stream failed {failures} times in a row") from cause
            await self._sleep(reconnect)

    async def wait_for_job(
        self, job_id: str, *, on_event: Callable[[JobEvent], None] | None = None, poll_interval: float = 2.0
    ) -> JobStatusCompleted:
        """As :meth:`songmint.Client.wait_for_job`."""
        final: JobStatus | None = None
        try:
            async for event in self.job_events(job_id):
                if on_event is not None:
                    on_event(event)
                if event.final:
                    final = event.job
        except ApiError as error:
            if error.status != 503:
                raise
        while final is None or final["status"] not in FINAL_JOB_EVENTS:
            final = await self.get_job(job_id)
            if final["status"] not in FINAL_JOB_EVENTS:
                await self._sleep(poll_interval)
        if final["status"] != "completed":
            raise JobNotCompletedError(final)
        return final

    async def download(
        self, job_id: str, destination: str | os.PathLike[str], *, format: Literal["mp3", "wav", "flac"] = "mp3"
    ) -> Path:
        """As :meth:`songmint.Client.download` (the file is written as the bytes arrive)."""
        info: SongDownload = await self.get_lossless_download(job_id, format)
        target = download_target(destination, info["file_name"])
        written = 0
        async with self._http.stream("GET", info["url"]) as response:
            if response.status_code != 200:
                raise ClientError(f"download of {job_id} answered {response.status_code}")
            with open(target, "wb") as out:
                async for chunk in response.aiter_bytes():
                    written += out.write(chunk)
        if written != info["bytes"]:
            raise ClientError(f"download of {job_id}: {written} bytes, the API announced {info['bytes']}")
        return target

    async def upload_metadata(self, request: MetadataRequest, *, idempotency_key: str | None = None) -> MetadataResponse:
        """Publish the song's metadata (and cover) to IPFS (Variant A): its ``metadata_uri`` goes into the mint signature."""
        return cast(MetadataResponse, await self.publish_metadata(request, idempotency_key=idempotency_key))

    async def mint_signature(
        self, job_id: str, user_address: str, metadata_uri: str, *, idempotency_key: str | None = None
    ) -> SignatureResponse:
        body: SignatureRequest = {"job_id": job_id, "user_address": user_address, "metadata_uri": metadata_uri}
        return cast(SignatureResponse, await self.issue_signature(body, idempotency_key=idempotency_key))
