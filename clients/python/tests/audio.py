"""A real WAV file to upload: two seconds of a chord, written with the standard library."""

from __future__ import annotations

import io
import math
import struct
import wave


def chord_wav(seconds: float = 2.0, rate: int = 44100) -> bytes:
    frames = bytearray()
    for n in range(int(seconds * rate)):
        t = n / rate
        sample = 0.2 * sum(math.sin(2 * math.pi * f * t) for f in (220.0, 277.18, 329.63))
        value = int(max(-1.0, min(1.0, sample)) * 32767)
        frames += struct.pack("<hh", value, value)
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(2)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(bytes(frames))
    return out.getvalue()
