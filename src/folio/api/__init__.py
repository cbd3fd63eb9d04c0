"""Async HTTP access to the GitBook API (httpx): the client, its errors, and one resource class per area."""

from folio.api.client import DEFAULT_BASE_URL, GitBookClient, Timeouts
from folio.api.retry import RetryPolicy
from folio.api.token import Token

__all__ = ["DEFAULT_BASE_URL", "GitBookClient", "RetryPolicy", "Timeouts", "Token"]
