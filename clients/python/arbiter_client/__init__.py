"""A typed client for Arbiter, the rules service: ``ArbiterClient`` (sync) and
``AsyncArbiterClient``, on httpx, with models generated from the service's OpenAPI
document. Its version is the API's (``info.version``)."""

from arbiter_client._generated import SCHEMA_SHA256, __version__
from arbiter_client.boards import board_id
from arbiter_client.client import ArbiterClient, AsyncArbiterClient
from arbiter_client.errors import (
    BOARD_NOT_FOUND,
    ArbiterError,
    ArbiterNetworkError,
    ArbiterProblem,
    ArbiterTimeoutError,
    ProblemError,
)
from arbiter_client.transport import NO_RETRY, Retry

__all__ = ["BOARD_NOT_FOUND", "NO_RETRY", "SCHEMA_SHA256", "ArbiterClient", "ArbiterError",
           "ArbiterNetworkError", "ArbiterProblem", "ArbiterTimeoutError", "AsyncArbiterClient",
           "ProblemError", "Retry", "__version__", "board_id"]
