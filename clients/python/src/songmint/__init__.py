"""Songmint's Python client: the whole API, sync and async, typed from its OpenAPI document.

    import songmint
    with songmint.Client("http://127.0.0.1:3000") as api:
        api.sign_in_with_ethereum(signer)
        job = api.generate({"prompt": "dreamy lofi", "duration": 10})
        song = api.wait_for_job(job["job_id"])

See clients/python/README.md.
"""

from . import _generated as types
from ._async_client import AsyncClient
from ._client import Client, JobEvent
from ._errors import ApiError, ClientError, JobNotCompletedError, RateLimitError, SongmintError
from ._generated import API_ERROR_CODES, API_VERSION, OPERATIONS
from ._http import RetryPolicy
from ._operation import Operation, ServerSentEvent
from ._siwe import siwe_message
from ._version import __version__
from .signers import EthAccountSigner, MessageSigner

__all__ = [
    "API_ERROR_CODES",
    "API_VERSION",
    "OPERATIONS",
    "ApiError",
    "AsyncClient",
    "Client",
    "ClientError",
    "EthAccountSigner",
    "JobEvent",
    "JobNotCompletedError",
    "MessageSigner",
    "Operation",
    "RateLimitError",
    "RetryPolicy",
    "ServerSentEvent",
    "SongmintError",
    "__version__",
    "siwe_message",
    "types",
]
