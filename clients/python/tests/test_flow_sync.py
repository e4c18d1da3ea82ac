"""The README's walkthrough with the sync client against a running stack: sign in with a test key,
generate, status, follow the events (and resume them), download, metadata, the mint signature; an
upload and its refusal; a rate-limit refusal."""

from __future__ import annotations

import hashlib
import secrets
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from audio import chord_wav
from conftest import TestKeySigner

import songmint


def wait_out_a_closing_hour(profile: songmint.types.UserProfile) -> int:
    """The hourly song limit; first waits for the next window when this one closes within 2 minutes
    (the limits are fixed one-hour windows: a probe straddling two would never be refused)."""
    hourly = profile["limits"]["songs"]["hourly"]
    left = (datetime.fromisoformat(hourly["reset_at"].replace("Z", "+00:00")) - datetime.now(timezone.utc)).total_seconds()
    if left < 120:
        time.sleep(max(0.0, left) + 2)
    return hourly["limit"]


def test_walkthrough(base_url: str, signer: TestKeySigner, tmp_path: Path) -> None:
    with songmint.Client(base_url) as api:
        session = api.sign_in_with_ethereum(signer)
        assert session["user"]["wallet_address"] == signer.address
        assert api.get_profile()["tier"] == "free"

        # A fresh seed: each sound is signed once (SIGN_006), and the stack may be asked again.
        request: songmint.types.GenerateRequest = {"prompt": "python sync walkthrough, warm piano", "duration": 5, "seed": secrets.randbelow(2**31)}
        key = secrets.token_hex(16)
        job = api.generate(request, idempotency_key=key)
        assert job["status"] == "queued" and job["job_id"].startswith("gen_")
        # The same key and body again: the first answer, no second job.
        assert api.generate(request, idempotency_key=key) == job
        with pytest.raises(songmint.ApiError) as reused:
            api.generate({"prompt": "another body", "duration": 5}, idempotency_key=key)
        assert (reused.value.status, reused.value.code) == (422, "IDEM_001")

        status = api.get_job(job["job_id"])
        assert status["job_id"] == job["job_id"] and status["status"] in ("queued", "processing", "completed")

        events = list(api.job_events(job["job_id"]))
        assert [event.event for event in events][-1] == "completed"
        assert all(event.event == "status" for event in events[:-1])
        progress = [event.job.get("progress", 100) for event in events]
        assert progress == sorted(progress)
        # Resuming after the final event: nothing more, the stream just ends.
        assert list(api.job_events(job["job_id"], last_event_id=events[-1].id)) == []
        # Resuming after an earlier event: only what came after it.
        if len(events) > 1:
            resumed = list(api.job_events(job["job_id"], last_event_id=events[0].id))
            assert resumed[-1].event == "completed" and events[0].id not in [event.id for event in resumed]

        song = api.wait_for_job(job["job_id"])
        assert song["status"] == "completed" and song["duration"] == 5

        # The status route reads as the final event did. Only `lossless` may have moved on since:
        # the WAV and FLAC follow completion (pending, then ready), and may land in between.
        view = api.get_job(job["job_id"])
        assert {k: v for k, v in view.items() if k != "lossless"} == {k: v for k, v in song.items() if k != "lossless"}
        assert view["lossless"] == song["lossless"] or (song["lossless"] or {}).get("status") == "pending"

        path = api.download(job["job_id"], tmp_path)
        assert path.parent == tmp_path and path.suffix == ".mp3"
        audio = path.read_bytes()
        assert audio[:3] == b"ID3" or audio[0] == 0xFF

        metadata = api.upload_metadata({"name": "Python walkthrough", "audio_url": song["audio_url"]})
        assert metadata["metadata_uri"].startswith("ipfs://")
        signature = api.mint_signature(job["job_id"], signer.address, metadata["metadata_uri"])
        assert signature["audio_hash"] == song["audio_hash"]
        assert len(bytes.fromhex(signature["signature"][2:])) == 65
        with pytest.raises(songmint.ApiError) as again:
            api.mint_signature(job["job_id"], signer.address, metadata["metadata_uri"])
        assert (again.value.status, again.value.code, again.value.job_id) == (409, "SIGN_002", job["job_id"])

        listed = api.list_jobs(limit=5)
        assert job["job_id"] in [summary["job_id"] for summary in listed["jobs"]]


def test_upload_and_its_refusals(base_url: str, signer: TestKeySigner) -> None:
    with songmint.Client(base_url) as api:
        api.sign_in_with_ethereum(signer)
        wav = chord_wav()
        upload = api.upload_audio(wav, content_type="audio/wav", songmint_rights_confirmed="true")
        assert (upload["format"], upload["channels"], upload["sample_rate"]) == ("wav", 2, 44100)
        assert upload["sha256"] == "0x" + hashlib.sha256(wav).hexdigest()
        assert upload["upload_id"] in [item["upload_id"] for item in api.list_uploads()["uploads"]]

        with pytest.raises(songmint.ApiError) as not_audio:
            api.upload_audio(b"this is no audio file" * 100, songmint_rights_confirmed="true")
        assert (not_audio.value.status, not_audio.value.code) == (415, "UPLOAD_001")

        assert api.delete_upload(upload["upload_id"])["status"] == "deleted"


def test_rate_limit_refusal_carries_its_code_and_is_not_retried(base_url: str, signer: TestKeySigner) -> None:
    with songmint.Client(base_url) as api:
        api.sign_in_with_ethereum(signer)
        hourly = wait_out_a_closing_hour(api.get_profile())
        for n in range(hourly):
            job = api.generate({"prompt": f"rate limit probe {n}", "duration": 5})
            api.cancel_job(job["job_id"])  # gives the daily song back, not the hourly request
        with pytest.raises(songmint.RateLimitError) as refused:
            api.generate({"prompt": "one too many", "duration": 5})
        error = refused.value
        assert (error.status, error.code) == (429, "RATE_002")
        assert error.retry_after is not None and error.retry_after > 0
        assert error.headers.get("x-ratelimit-remaining") == "0"
