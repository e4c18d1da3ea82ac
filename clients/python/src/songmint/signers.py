"""Who signs the sign-in message: anything with an address that signs an EIP-191 message."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from eth_account.signers.local import LocalAccount


@runtime_checkable
class MessageSigner(Protocol):
    """A wallet that signs a text message as EIP-191 ``personal_sign`` does.

    ``sign_message`` gets the message text and answers the signature as bytes or 0x hex: 65 bytes
    from an EOA, or whatever a smart wallet's ERC-1271/ERC-6492 signing gives (the oracle checks it
    on chain). The async client also accepts a ``sign_message`` that returns an awaitable.
    """

    @property
    def address(self) -> str: ...

    def sign_message(self, message: str) -> str | bytes | Awaitable[str | bytes]: ...


class EthAccountSigner:
    """eth-account's ``LocalAccount`` as a :class:`MessageSigner` (``pip install songmint[eth-account]``)::

        from eth_account import Account
        signer = EthAccountSigner(Account.from_key(os.environ["PRIVATE_KEY"]))
    """

    def __init__(self, account: LocalAccount) -> None:
        self._account = account

    @property
    def address(self) -> str:
        return str(self._account.address)

    def sign_message(self, message: str) -> bytes:
        from eth_account.messages import encode_defunct

        signed = self._account.sign_message(encode_defunct(text=message))
        # `bytes(...)`: HexBytes' own .hex() gained and then lost its 0x prefix across versions.
        return bytes(signed.signature)
