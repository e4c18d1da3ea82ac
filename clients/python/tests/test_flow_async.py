"""The same walkthrough with the async client (run by asyncio.run: no pytest plugin needed), plus
its upload refusal and a rate-limit refusal through Variant C (`/v1/music/generate`), whose error
shape is `{"error": "<code>", ...}`."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import cast

import pytest
from audio import chord_wav
from conftest import TestKeySigner
from test_flow_sync import wait_out_a_closing_hour

import songmint


class AsyncSigner:
    """A signer whose sign_message is a coroutine (a remote wallet, a KMS)."""

    def __init__(self, inner: TestKeySigner) -> None:
        self.inner = inner
        self.address = inner.address

    async def sign_message(self, message: str) -> str:
        await asyncio.sleep(0)
        return self.inner.sign_message(message)


def test_async_walkthrough(base_url: str, signer: TestKeySigner, tmp_path: Path) -> None:
    async def walk() -> None:
        async with songmint.AsyncClient(base_url) as api:
            session = await api.sign_in_with_ethereum(AsyncSigner(signer))
            assert session["user"]["wallet_address"] == signer.address

            job = await api.generate({"prompt": "python async walkthrough, soft synths", "duration": 5, "seed": secrets.randbelow(2**31)})
            status = await api.get_job(job["job_id"])
            assert status["job_id"] == job["job_id"]

            events = [event async for event in api.job_events(job["job_id"])]
            assert events[-1].event == "completed" and events[-1].final
            assert [event async for event in api.job_events(job["job_id"], last_event_id=events[-1].id)] == []

            seen: list[str] = []
            song = await api.wait_for_job(job["job_id"], on_event=lambda event: seen.append(event.event))
            assert song["status"] == "completed" and seen == ["completed"]

            path = await api.download(job["job_id"], tmp_path / "song.mp3")
            assert path == tmp_path / "song.mp3" and path.stat().st_size > 1000

            metadata = await api.upload_metadata({"name": "Python async walkthrough", "audio_url": song["audio_url"]})
            signature = await api.mint_signature(job["job_id"], signer.address, metadata["metadata_uri"])
            assert signature["audio_hash"] == song["audio_hash"] and signature["job_id"] == job["job_id"]

            upload = await api.upload_audio(chord_wav(1.5), content_type="audio/wav", songmint_rights_confirmed="true")
            assert upload["format"] == "wav"
            with pytest.raises(songmint.ApiError) as refused:
                await api.upload_audio(b"\x00" * 4096, content_type="audio/wav", songmint_rights_confirmed="true")
            assert refused.value.status in (400, 415) and refused.value.code in ("UPLOAD_001", "UPLOAD_002", "UPLOAD_003")

    asyncio.run(walk())


def test_async_rate_limit_refusal_in_variant_c(base_url: str, signer: TestKeySigner) -> None:
    async def probe() -> None:
        async with songmint.AsyncClient(base_url) as api:
            await api.sign_in_with_ethereum(signer)
            hourly = wait_out_a_closing_hour(await api.get_profile())
            for n in range(hourly):
                job = await api.create_job_v1({"prompt": f"async rate probe {n}", "duration": 5})
                await api.cancel_job(job["job_id"])
            with pytest.raises(songmint.RateLimitError) as refused:
                await api.create_job_v1({"prompt": "one too many", "duration": 5})
            assert (refused.value.status, refused.value.code) == (429, "RATE_002")
            body = refused.value.body
            assert isinstance(body, dict) and cast("dict[str, object]", body)["error"] == "RATE_002"

    asyncio.run(probe())
