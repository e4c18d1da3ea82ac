"""The client's parts that need no server: SIWE text, address checksums, the event-stream decoder,
the three error shapes, and the retry policy (against httpx's MockTransport: its timing and attempt
counts cannot be provoked on a real oracle on demand)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping

import httpx
import pytest
from conftest import TestKeySigner, keccak256

import songmint
from songmint._errors import api_error, retry_after_seconds
from songmint._keccak import checksum_address, keccak256 as own_keccak256
from songmint._siwe import signature_hex, siwe_message
from songmint._sse import SseDecoder

HARDHAT_2_KEY = bytes.fromhex("5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a")


def test_keccak_matches_pycryptodome_across_block_boundaries() -> None:
    for size in (0, 1, 31, 135, 136, 137, 272, 1000):
        data = os.urandom(size)
        assert own_keccak256(data) == keccak256(data), size


def test_checksum_address_is_eip55() -> None:
    # EIP-55's own test vectors, and Hardhat account #2.
    for address in (
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    ):
        assert checksum_address(address.lower()) == address
    with pytest.raises(ValueError):
        checksum_address("0x1234")


def test_siwe_message_is_what_viem_createSiweMessage_writes() -> None:
    from datetime import datetime, timezone

    # viem 2's createSiweMessage with the same fields (address given in lower case).
    expected = (
        "127.0.0.1:3000 wants you to sign in with your Ethereum account:\n"
        "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n\nSign in to Songmint\n\n"
        "URI: http://127.0.0.1:3000\nVersion: 1\nChain ID: 8453\nNonce: 5f0c8d0e6a9c4b7f9a51c3e2d8b4a6f1\n"
        "Issued At: 2026-11-29T01:02:03.456Z\nExpiration Time: 2026-11-29T01:12:03.000Z"
    )
    text = siwe_message(
        domain="127.0.0.1:3000",
        address="0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
        uri="http://127.0.0.1:3000",
        chain_id=8453,
        nonce="5f0c8d0e6a9c4b7f9a51c3e2d8b4a6f1",
        issued_at=datetime(2026, 11, 29, 1, 2, 3, 456789, tzinfo=timezone.utc),
        expiration_time="2026-11-29T01:12:03.000Z",
    )
    assert text == expected


def test_test_signer_signs_as_viem_does() -> None:
    signer = TestKeySigner(HARDHAT_2_KEY)
    assert signer.address == "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"
    # viem's privateKeyToAccount(key).signMessage({ message: "hello" }).
    assert signer.sign_message("hello") == (
        "0xaf9bbf4ff092fbec1cf73ba470b3e12ba12e681c44fab04f8a09d139ed590c6a"
        "282c73ea63c11554b365854ee13661900bff90520b3ab869a6fde69007a35ae41b"
    )


def test_eth_account_adapter_signs_as_the_test_key() -> None:
    account_module = pytest.importorskip("eth_account", reason="eth-account is not installed (pip install songmint[eth-account])")
    signer = songmint.EthAccountSigner(account_module.Account.from_key(HARDHAT_2_KEY))
    assert signer.address == "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
    assert signature_hex(signer.sign_message("hello")) == TestKeySigner(HARDHAT_2_KEY).sign_message("hello")


def test_sse_decoder_takes_any_chunking_and_line_ending() -> None:
    stream = (
        "retry: 3000\r\n\r\n: heartbeat\r\n\r\n"
        'event: status\r\nid: queued-0\r\ndata: {"status":"queued"}\r\n\r\n'
        "event: completed\nid: completed\ndata: line one\ndata: line two\n\n"
        "data: no event name\rid\r\r"
    ).encode()
    for size in (1, 2, 3, 7, len(stream)):
        decoder = SseDecoder()
        events = [event for offset in range(0, len(stream), size) for event in decoder.feed(stream[offset : offset + size])]
        events += decoder.finish()
        assert [(e.event, e.id, e.data, e.retry_ms) for e in events] == [
            ("status", "queued-0", '{"status":"queued"}', 3000),
            ("completed", "completed", "line one\nline two", 3000),
            ("message", "", "no event name", 3000),
        ], size


def test_errors_carry_the_code_of_each_shape() -> None:
    variant_a = api_error(
        409,
        {"retry-after": "1"},
        json.dumps({"error": {"code": "IDEM_002", "message": "In progress", "details": "", "retry_after": 5, "job_id": "gen_x"}}),
    )
    assert (variant_a.code, variant_a.retry_after, variant_a.job_id, type(variant_a)) == ("IDEM_002", 1.0, "gen_x", songmint.ApiError)
    daily = api_error(
        429,
        {},
        json.dumps(
            {
                "error": "rate_limit_exceeded",
                "limit": 10,
                "reset_at": "2026-11-23T00:00:00.000Z",
                "code": "RATE_001",
                "message": "Daily generation limit reached",
                "retry_after": 3600,
            }
        ),
    )
    assert isinstance(daily, songmint.RateLimitError)
    assert (daily.code, daily.limit, daily.reset_at, daily.retry_after) == ("RATE_001", 10, "2026-11-23T00:00:00.000Z", 3600)
    variant_c = api_error(
        400, {}, json.dumps({"error": "GEN_003", "message": "Invalid prompt", "details": {"field": "prompt"}})
    )
    assert (variant_c.code, variant_c.details) == ("GEN_003", {"field": "prompt"})
    other = api_error(502, {}, "<html>bad gateway</html>")
    assert other.code == "HTTP_502" and other.body == "<html>bad gateway</html>"
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert retry_after_seconds("120") == 120.0


def _mock(answers: list[httpx.Response], seen: list[httpx.Request]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answers.pop(0)

    return httpx.MockTransport(handle)


ACCEPTED = {"job_id": "gen_1", "status": "queued", "estimated_time": 5, "position": 1}
BUSY = {"error": {"code": "GEN_001", "message": "Queue full", "details": "", "retry_after": 30}}


def test_retries_503_after_its_retry_after_with_the_same_idempotency_key() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    answers = [
        httpx.Response(503, headers={"Retry-After": "2"}, json=BUSY),
        httpx.Response(429, json={"error": {"code": "UPLOAD_006", "message": "busy", "details": ""}}),
        httpx.Response(202, json=ACCEPTED),
    ]
    with songmint.Client(
        "http://api.test", token="t", http_client=httpx.Client(transport=_mock(answers, seen)), sleep=waits.append
    ) as api:
        assert api.generate({"prompt": "lofi", "duration": 5}) == ACCEPTED
    assert len(seen) == 3
    assert waits[0] == 2.0 and 0.25 <= waits[1] <= 1.0  # Retry-After, then a jittered backoff
    keys = {request.headers["Idempotency-Key"] for request in seen}
    assert len(keys) == 1 and len(keys.pop()) == 36
    assert seen[0].headers["Authorization"] == "Bearer t"


def test_gives_up_after_max_attempts_and_at_once_on_long_or_daily_waits() -> None:
    seen: list[httpx.Request] = []
    answers = [httpx.Response(503, json=BUSY) for _ in range(3)]
    api = songmint.Client(
        "http://api.test",
        token="t",
        retry=songmint.RetryPolicy(max_attempts=3),
        http_client=httpx.Client(transport=_mock(answers, seen)),
        sleep=lambda _: None,
    )
    with pytest.raises(songmint.ApiError) as refused:
        api.generate({"prompt": "lofi", "duration": 5})
    assert (refused.value.code, refused.value.status, len(seen)) == ("GEN_001", 503, 3)
    hourly = {"error": {"code": "RATE_002", "message": "Hourly limit", "details": "", "retry_after": 1800}}
    for answer in (httpx.Response(429, headers={"Retry-After": "1800"}, json=hourly), httpx.Response(429, json={"error": "rate_limit_exceeded", "limit": 10, "reset_at": "x", "retry_after": 5})):
        seen.clear()
        api._http = httpx.Client(transport=_mock([answer], seen))  # pyright: ignore[reportPrivateUsage]
        with pytest.raises(songmint.RateLimitError):
            api.generate({"prompt": "lofi", "duration": 5})
        assert len(seen) == 1


def test_async_client_retries_too_and_refuses_without_a_session() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []

    async def record(delay: float) -> None:
        waits.append(delay)

    async def run() -> None:
        answers = [httpx.Response(503, headers={"Retry-After": "1"}, json=BUSY), httpx.Response(202, json=ACCEPTED)]
        async with songmint.AsyncClient(
            "http://api.test", token="t", http_client=httpx.AsyncClient(transport=_mock(answers, seen)), sleep=record
        ) as api:
            assert await api.generate({"prompt": "lofi", "duration": 5}, idempotency_key="mine") == ACCEPTED
        with pytest.raises(songmint.ClientError, match="needs a session token"):
            await songmint.AsyncClient("http://api.test").get_profile()

    asyncio.run(run())
    assert waits == [1.0]
    assert [request.headers["Idempotency-Key"] for request in seen] == ["mine", "mine"]


JOB = "gen_0b5e0e43-4d4c-4f7e-9d7e-3f7a0f6b2a11"
QUEUED = {"job_id": JOB, "status": "queued", "progress": 0, "estimated_remaining": 4, "position": 1}
PROCESSING = {"job_id": JOB, "status": "processing", "progress": 50, "estimated_remaining": 2}
DONE = {"job_id": JOB, "status": "cancelled"}


def _sse(*events: tuple[str, str, Mapping[str, object]], retry: int | None = None) -> httpx.Response:
    text = "" if retry is None else f"retry: {retry}\n\n"
    text += "".join(f"event: {name}\nid: {id_}\ndata: {json.dumps(job)}\n\n" for name, id_, job in events)
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=text.encode())


def _event_answers() -> list[httpx.Response | Exception]:
    """A stream cut after its first event, a connection refused, then the rest; then a resume after
    the final event (nothing sent), and the status route saying the job is over."""
    answers: list[httpx.Response | Exception] = [
        _sse(("status", "queued-0", QUEUED), retry=10),
        httpx.ConnectError("refused"),
        _sse(("status", "processing-50", PROCESSING), ("cancelled", "cancelled", DONE)),
        _sse(),
        httpx.Response(200, json=DONE),
    ]
    return answers


def _replay(answers: list[httpx.Response | Exception], seen: list[httpx.Request]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return httpx.MockTransport(handle)


def test_job_events_reconnect_with_last_event_id_after_a_cut_and_a_refused_connection() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    api = songmint.Client("http://api.test", token="t", http_client=httpx.Client(transport=_replay(_event_answers(), seen)), sleep=waits.append)
    events = list(api.job_events(JOB))
    assert [(event.event, event.id, event.final) for event in events] == [
        ("status", "queued-0", False),
        ("status", "processing-50", False),
        ("cancelled", "cancelled", True),
    ]
    assert [request.headers.get("Last-Event-ID") for request in seen[:3]] == [None, "queued-0", "queued-0"]
    assert waits == [0.01, 0.01]  # the stream's retry: 10 ms, before each reconnect
    assert all(request.headers["Accept"] == "text/event-stream" for request in seen[:3])
    # Resumed after the final event: the server sends nothing; the status route says it is over.
    assert list(api.job_events(JOB, last_event_id="cancelled")) == []
    assert seen[3].headers["Last-Event-ID"] == "cancelled" and seen[4].url.path == f"/api/generate/{JOB}"
    with pytest.raises(songmint.JobNotCompletedError) as ended:
        api._http = httpx.Client(transport=_replay(_event_answers(), seen))  # pyright: ignore[reportPrivateUsage]
        api.wait_for_job(JOB)
    assert ended.value.status == "cancelled"


def test_async_job_events_reconnect_the_same_way() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []

    async def record(delay: float) -> None:
        waits.append(delay)

    async def run() -> list[tuple[str, str | None]]:
        async with songmint.AsyncClient(
            "http://api.test", token="t", http_client=httpx.AsyncClient(transport=_replay(_event_answers(), seen)), sleep=record
        ) as api:
            events = [(event.event, event.id) async for event in api.job_events(JOB)]
            assert [event async for event in api.job_events(JOB, last_event_id="cancelled")] == []
            return events

    assert asyncio.run(run()) == [("status", "queued-0"), ("status", "processing-50"), ("cancelled", "cancelled")]
    assert [request.headers.get("Last-Event-ID") for request in seen] == [None, "queued-0", "queued-0", "cancelled", None]
    assert waits == [0.01, 0.01]
