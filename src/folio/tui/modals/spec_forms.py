"""The forms of the OpenAPI specs screen.

NewSpecForm      slug (1..100, the spec's pattern) and source URL (http(s), at most 2,048), checked as typed;
                 creates the spec -> OpenAPISpec | None
SpecSourceForm   a new source URL for a spec (the PUT: a new version, processed again) -> OpenAPISpec | None
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual.content import Content

from folio.models.openapi import OpenAPISpec
from folio.services.insights.references import slug_problem, url_problem
from folio.tui.modals.form import Field, FormModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.services.insights.references import ReferenceService

__all__ = ["NewSpecForm", "SpecSourceForm"]

_URL = Field("url", "Source URL", placeholder="https://example.com/openapi.yaml", hint="http(s), at most 2,048")


class NewSpecForm(FormModal[OpenAPISpec]):
    """Import an OpenAPI description by URL under a new slug."""

    TITLE = "Add an OpenAPI spec"
    INTRO = "The service fetches and processes the description after it answers; the list follows it."
    SEND_LABEL = "Add"
    FAILED = "Not added"
    FIELDS = (
        Field("slug", "Slug", placeholder="petstore (letters, digits, single dashes)", hint="1..100 characters"),
        _URL,
    )

    def __init__(self, references: ReferenceService, org_id: str) -> None:
        super().__init__(draft=f"openapi-new:{org_id}", where="a new OpenAPI spec")
        self.references = references
        self.org_id = org_id

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problems: dict[str, str] = {}
        if problem := slug_problem(values.get("slug") or ""):
            problems["slug"] = problem
        if problem := url_problem(values.get("url") or ""):
            problems["url"] = problem
        return problems

    async def submit(self, values: Mapping[str, Any]) -> OpenAPISpec:
        return await self.references.create(self.org_id, values["slug"], values["url"])

    async def find_sent(self, values: Mapping[str, Any]) -> OpenAPISpec | None:
        return await self.references.find(self.org_id, values["slug"])


class SpecSourceForm(FormModal[OpenAPISpec]):
    """A new source URL for ``spec`` (opened with its exact current URL)."""

    INTRO = "Sending makes a new version; the spec is processed again."
    SEND_LABEL = "Update"
    FAILED = "Not updated"
    FIELDS = (_URL,)

    def __init__(self, references: ReferenceService, org_id: str, spec: OpenAPISpec) -> None:
        title = Content.assemble("New source for ", (safe(spec.slug, limit=100).plain, "bold"))
        super().__init__(
            values={"url": spec.source_url or ""},
            draft=f"openapi-source:{org_id}/{spec.slug}",
            where=f"the source of {spec.slug}",
            title=title,
        )
        self.references = references
        self.org_id = org_id
        self.spec = spec

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = url_problem(values.get("url") or "")
        return {"url": problem} if problem else {}

    async def submit(self, values: Mapping[str, Any]) -> OpenAPISpec:
        # The version the spec has at the moment of sending: what a lost answer's new version is told from.
        self.spec = await self.references.get(self.org_id, self.spec.slug)
        return await self.references.update_source(self.org_id, self.spec.slug, values["url"])

    async def find_sent(self, values: Mapping[str, Any]) -> OpenAPISpec | None:
        # Each PUT that arrives makes a version: it was done when the spec has a version other than the one it
        # had when it was sent, read from this URL.
        return await self.references.find_source(
            self.org_id, self.spec.slug, values["url"], before=self.spec.last_version
        )
