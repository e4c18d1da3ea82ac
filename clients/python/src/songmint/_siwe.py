"""The EIP-4361 (Sign-In with Ethereum) message the oracle checks (oracle/src/domain/sign-in.ts).

The oracle parses it with viem's ``parseSiweMessage`` and requires its domain, the origin of its
URI and chain 8453 as ``GET /api/auth/nonce`` names them, a validity window around now, and the
nonce. The text is laid out exactly as viem's ``createSiweMessage`` lays it out.
"""

from __future__ import annotations

from datetime import datetime, timezone

from ._keccak import checksum_address

DEFAULT_STATEMENT = "Sign in to Songmint"


def iso_millis(when: datetime) -> str:
    """JavaScript's ``Date.toISOString()``: UTC, milliseconds, ``Z``."""
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.astimezone(timezone.utc).microsecond // 1000:03d}Z"


def siwe_message(
    *,
    domain: str,
    address: str,
    uri: str,
    chain_id: int,
    nonce: str,
    issued_at: datetime,
    expiration_time: str | None = None,
    statement: str | None = DEFAULT_STATEMENT,
) -> str:
    """The message text; ``address`` is written in its EIP-55 form, as the standard requires."""
    if statement is not None and "\n" in statement:
        raise ValueError("a SIWE statement cannot contain a line break")
    lines = [f"{domain} wants you to sign in with your Ethereum account:", checksum_address(address), ""]
    if statement:
        lines += [statement, ""]
    lines += [
        f"URI: {uri}",
        "Version: 1",
        f"Chain ID: {chain_id}",
        f"Nonce: {nonce}",
        f"Issued At: {iso_millis(issued_at)}",
    ]
    if expiration_time is not None:
        lines.append(f"Expiration Time: {expiration_time}")
    return "\n".join(lines)


def signature_hex(signature: str | bytes) -> str:
    """A signer's answer as 0x hex."""
    if isinstance(signature, (bytes, bytearray)):
        return "0x" + bytes(signature).hex()
    text = signature.strip()
    return text if text.startswith("0x") else "0x" + text
