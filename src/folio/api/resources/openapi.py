"""Imported OpenAPI descriptions of an organization (spec section 4.1), addressed by slug, and their versions.

spec = await client.openapi.create(org_id, slug="petstore", url="https://example.com/petstore.yaml")
spec = await client.openapi.put(org_id, "petstore", text=yaml_text)      # creates or updates: a new version
spec = await client.openapi.update(org_id, "petstore", visibility="public")
content = await client.openapi.latest_version_content(org_id, "petstore")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import Resource, path
from folio.models.openapi import (
    OPENAPI_VISIBILITIES,
    OpenAPISpec,
    OpenAPISpecContent,
    OpenAPISpecVersion,
    OpenAPIVisibility,
)

__all__ = ["SLUG_MAX", "OpenAPIResource", "check_slug", "check_source_url", "source_body"]

SLUG_MAX = 100
URL_MAX = 2048


def check_slug(slug: str) -> None:
    """A spec slug: 1..100 characters of letters and digits in dash-separated groups."""
    limits.check_length("slug", slug, min=1, max=SLUG_MAX)
    limits.check_pattern("slug", slug, "openapi.slug")


def check_source_url(field: str, url: str) -> None:
    """A source URL: an absolute URI of at most 2,048 characters, with no space or control character in it (a URI
    has none: ``https://exa mple.com/x`` is two words, not an address)."""
    limits.check_uri(field, url, max=URL_MAX)
    bad = next((i for i, c in enumerate(url) if c.isspace() or ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        what = "a space" if url[bad] == " " else "a blank or control character"
        raise InvalidRequest(field, f"has {what} at character {bad + 1}", "uri with no spaces, at most 2048 characters")


def source_body(
    url: str | None = None, text: str | None = None, source: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``source`` one-of: ``{url}``, ``{text}``, or any other variant passed through as given."""
    given = [name for name, value in (("url", url), ("text", text), ("source", source)) if value is not None]
    if len(given) != 1:
        problem = "is missing" if not given else "is given more than once (" + ", ".join(given) + ")"
        raise InvalidRequest("source", problem, "exactly one of url, text or source")
    if url is not None:
        check_source_url("source.url", url)
        return {"url": url}
    if text is not None:
        limits.check_length("source.text", text, min=1)
        return {"text": text}
    assert source is not None
    out = dict(source)
    if "url" in out:
        check_source_url("source.url", out["url"])
    return out


class OpenAPIResource(Resource):
    """``client.openapi``: the imported OpenAPI specs of an organization."""

    def list(self, organization_id: str, *, limit: int | None = None) -> Paginator[OpenAPISpec]:
        return self._list(OpenAPISpec, path("/orgs/{}/openapi", organization_id), limit=limit)

    async def create(
        self,
        organization_id: str,
        *,
        slug: str,
        url: str | None = None,
        text: str | None = None,
        source: Mapping[str, Any] | None = None,
    ) -> OpenAPISpec:
        """Import a spec from exactly one of ``url``, ``text`` or another ``source`` variant. It starts
        ``pending``: the service processes it after answering."""
        check_slug(slug)
        payload = {"slug": slug, "source": source_body(url, text, source)}
        return await self._send(OpenAPISpec, "POST", path("/orgs/{}/openapi", organization_id), payload)

    async def get(self, organization_id: str, slug: str) -> OpenAPISpec:
        return await self._get(OpenAPISpec, path("/orgs/{}/openapi/{}", organization_id, slug))

    async def put(
        self,
        organization_id: str,
        slug: str,
        *,
        url: str | None = None,
        text: str | None = None,
        source: Mapping[str, Any] | None = None,
    ) -> OpenAPISpec:
        """Create the spec with this slug, or give it a new source (which makes a new version)."""
        check_slug(slug)
        payload = {"source": source_body(url, text, source)}
        # Not sent again by the client when its answer is lost: every PUT that arrives adds a version, so a
        # repeat adds one more. The caller looks (``lastVersion``) before sending it again.
        return await self._send(
            OpenAPISpec, "PUT", path("/orgs/{}/openapi/{}", organization_id, slug), payload, idempotent=False
        )

    async def delete(self, organization_id: str, slug: str) -> None:
        await self._send_empty("DELETE", path("/orgs/{}/openapi/{}", organization_id, slug))

    async def update(self, organization_id: str, slug: str, *, visibility: OpenAPIVisibility) -> OpenAPISpec:
        """Make the spec ``public`` (anyone with the public link) or ``private``."""
        limits.check_one_of("visibility", visibility, OPENAPI_VISIBILITIES)
        return await self._send(
            OpenAPISpec,
            "PATCH",
            path("/orgs/{}/openapi/{}", organization_id, slug),
            {"visibility": visibility},
            idempotent=True,
        )

    def versions(self, organization_id: str, slug: str, *, limit: int | None = None) -> Paginator[OpenAPISpecVersion]:
        return self._list(OpenAPISpecVersion, path("/orgs/{}/openapi/{}/versions", organization_id, slug), limit=limit)

    async def latest_version(self, organization_id: str, slug: str) -> OpenAPISpecVersion:
        return await self._get(OpenAPISpecVersion, path("/orgs/{}/openapi/{}/versions/latest", organization_id, slug))

    async def latest_version_content(self, organization_id: str, slug: str) -> OpenAPISpecContent:
        return await self._get(
            OpenAPISpecContent, path("/orgs/{}/openapi/{}/versions/latest/content", organization_id, slug)
        )

    async def version(self, organization_id: str, slug: str, version_id: str) -> OpenAPISpecVersion:
        return await self._get(
            OpenAPISpecVersion, path("/orgs/{}/openapi/{}/versions/{}", organization_id, slug, version_id)
        )

    async def version_content(self, organization_id: str, slug: str, version_id: str) -> OpenAPISpecContent:
        return await self._get(
            OpenAPISpecContent,
            path("/orgs/{}/openapi/{}/versions/{}/content", organization_id, slug, version_id),
        )
