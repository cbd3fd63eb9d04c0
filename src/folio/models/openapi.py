"""Imported OpenAPI descriptions (spec section 2.9): specs addressed by slug, their versions and content.

A spec is created from a source, one of ``{url}`` or ``{text}`` (others may come: the client passes any
mapping through). Processing happens after the write: ``processingState`` starts at ``pending`` and ends at
``complete``; a failed run leaves ``lastProcessErrorCode`` (``FETCH_TIMEOUT``...) and ``lastProcessedErrors``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from folio.models._base import Json, Model, OpenEnum, Timestamp
from folio.models.common import Urls

__all__ = [
    "KNOWN_OPENAPI_PROCESSING_STATES",
    "KNOWN_OPENAPI_PROCESS_ERROR_CODES",
    "OPENAPI_VISIBILITIES",
    "OpenAPIProcessError",
    "OpenAPISpec",
    "OpenAPISpecContent",
    "OpenAPISpecContentUrls",
    "OpenAPISpecPermissions",
    "OpenAPISpecVersion",
    "OpenAPIVisibility",
]

OpenAPIVisibility = Literal["private", "public"]
OPENAPI_VISIBILITIES: tuple[OpenAPIVisibility, ...] = ("private", "public")

OpenAPIProcessingState = OpenEnum
KNOWN_OPENAPI_PROCESSING_STATES = ("pending", "progress", "complete")

OpenAPIProcessErrorCode = OpenEnum
KNOWN_OPENAPI_PROCESS_ERROR_CODES = ("FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR")


class OpenAPIProcessError(Model):
    """One problem met while processing the description: ``{message, code}``."""

    message: str = ""
    code: str | None = None


class OpenAPISpecPermissions(Model):
    """What the caller may do with the spec."""

    view: bool = False
    edit: bool = False


class OpenAPISpec(Model):
    """An imported OpenAPI description (``object`` = ``openapi-spec``), addressed by its ``slug``."""

    object: str = "openapi-spec"
    id: str
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    slug: str = ""
    source_url: str | None = Field(default=None, alias="sourceURL")
    processing_state: OpenAPIProcessingState = "pending"
    visibility: OpenAPIVisibility | None = None
    last_version: str | None = None
    last_processed_at: Timestamp | None = None
    last_process_error_code: OpenAPIProcessErrorCode | None = None
    last_processed_errors: list[OpenAPIProcessError] = []
    last_processed_error_count: int | None = None
    permissions: OpenAPISpecPermissions | None = None
    urls: Urls | None = None

    @property
    def is_processing(self) -> bool:
        """Still waiting for (or in) processing: the content of ``lastVersion`` may not be ready."""
        return self.processing_state in ("pending", "progress")

    @property
    def has_errors(self) -> bool:
        """The last processing run failed or reported problems."""
        return self.last_process_error_code is not None or bool(self.last_processed_errors)

    @property
    def error_count(self) -> int:
        """How many problems the last run found (the list itself may be cut short by the service)."""
        if self.last_processed_error_count is not None:
            return self.last_processed_error_count
        return len(self.last_processed_errors)


class OpenAPISpecVersion(Model):
    """One version of a spec (``object`` = ``openapi-spec-version``): each change of the source makes one."""

    object: str = "openapi-spec-version"
    id: str
    created_at: Timestamp | None = None
    url: str | None = None
    urls: Urls | None = None


class OpenAPISpecContentUrls(Model):
    """Where a version's content is: ``source``, and ``public`` (null for private specs)."""

    source: str | None = None
    public: str | None = None


class OpenAPISpecContent(Model):
    """The content of a version: a ``filesystem`` object and where the description can be fetched.

    The spec document names the place ``url``; the public description puts it in ``urls.source`` (with
    ``urls.public`` for public specs). Both are read; :attr:`source_url` gives whichever came.
    """

    filesystem: dict[str, Json] = {}
    url: str | None = None
    urls: OpenAPISpecContentUrls | None = None

    @property
    def source_url(self) -> str | None:
        if self.url is not None:
            return self.url
        return self.urls.source if self.urls else None

    @property
    def public_url(self) -> str | None:
        return self.urls.public if self.urls else None
