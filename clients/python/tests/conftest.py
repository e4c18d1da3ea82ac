"""Fixtures: the stack under test (``SONGMINT_BASE_URL``, set by test/clients/python.test.ts) and
wallets that sign with a test key.

The test wallet signs EIP-191 messages with Debian's python3-ecdsa (secp256k1, low-s, recoverable)
and python3-pycryptodome's Keccak-256, libraries independent of the client and of the oracle's viem.
"""

from __future__ import annotations

import hashlib
import os
import secrets

import pytest
from Cryptodome.Hash import keccak
from ecdsa import SECP256k1, SigningKey, VerifyingKey
from ecdsa.util import sigdecode_string, sigencode_string_canonize


def keccak256(data: bytes) -> bytes:
    digest = keccak.new(digest_bits=256)
    digest.update(data)
    return digest.digest()


def eip191_hash(message: str) -> bytes:
    payload = message.encode("utf-8")
    return keccak256(b"\x19Ethereum Signed Message:\n" + str(len(payload)).encode("ascii") + payload)


class TestKeySigner:
    """A private key that signs as a wallet's ``personal_sign`` does (r || s || v, v = 27 + recovery id)."""

    __test__ = False  # not a test class for pytest

    def __init__(self, private_key: bytes | None = None) -> None:
        self.key = SigningKey.from_string(private_key or secrets.token_bytes(32), curve=SECP256k1)
        self.public_key: bytes = self.verifying_key().to_string()  # x || y, 64 bytes
        public = self.public_key
        self.address = "0x" + keccak256(public)[-20:].hex()

    def verifying_key(self) -> VerifyingKey:
        key = self.key.get_verifying_key()
        assert key is not None
        return key

    def sign_message(self, message: str) -> str:
        digest = eip191_hash(message)
        rs = self.key.sign_digest_deterministic(digest, hashfunc=hashlib.sha256, sigencode=sigencode_string_canonize)
        candidates = VerifyingKey.from_public_key_recovery_with_digest(
            rs, digest, SECP256k1, hashfunc=hashlib.sha256, sigdecode=sigdecode_string
        )
        recovery = next(i for i, candidate in enumerate(candidates) if candidate.to_string() == self.public_key)
        return "0x" + rs.hex() + bytes([27 + recovery]).hex()


@pytest.fixture(scope="session")
def base_url() -> str:
    url = os.environ.get("SONGMINT_BASE_URL")
    if not url:
        pytest.skip("SONGMINT_BASE_URL is not set: these tests need a running stack (`npm start`)")
    return url


@pytest.fixture
def signer() -> TestKeySigner:
    """A fresh wallet, so a fresh free-tier user with untouched limits."""
    return TestKeySigner()
