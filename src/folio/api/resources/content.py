"""Content reads (spec 4.8, the change request content reads of 4.9, and revisions by id) and templates.

Every read serves three places through keyword arguments: the space's current content (the default), a
change request's content (``change_request=`` its id or number) and one revision (``revision=`` its id; for
the revision, its pages and a page):

    rev = await client.content.revision(space_id)
    tree = await client.content.pages(space_id, change_request=12)
    page = await client.content.page(space_id, page_id, revision=rev_id, format="markdown")
"""

from __future__ import annotations

from typing import Any, Literal

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import Resource, path
from folio.api.resources.spaces import LinksPaginator, check_link_status
from folio.models.common import ContentRefFile, File, Page, PagesList, Revision
from folio.models.content import BacklinkRecord, ContentLink

__all__ = ["ContentResource", "PageFormat"]

PageFormat = Literal["document", "markdown"]
Evaluated = bool | Literal["deterministic-only"]
Dereferenced = bool | Literal["reusable-contents"]


def _flags(metadata: bool | None, computed: bool | None) -> dict[str, Any]:
    return {"metadata": metadata, "computed": computed}


class ContentResource(Resource):
    """``client.content``."""

    @staticmethod
    def _base(space_id: str, change_request: str | int | None, revision: str | None = None) -> str:
        if change_request is not None and revision is not None:
            raise InvalidRequest("revision", "given with a change request", "one of change_request or revision")
        if change_request is not None:
            return path("/spaces/{}/change-requests/{}/content", space_id, change_request)
        if revision is not None:
            return path("/spaces/{}/revisions/{}", space_id, revision)
        return path("/spaces/{}/content", space_id)

    async def revision(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        revision: str | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> Revision:
        """The whole revision: the space's current one, a change request's, or one by id."""
        return await self._get(Revision, self._base(space_id, change_request, revision), _flags(metadata, computed))

    async def pages(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        revision: str | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> PagesList:
        """The page tree (``walk()`` flattens it)."""
        url = self._base(space_id, change_request, revision) + "/pages"
        return await self._get(PagesList, url, _flags(metadata, computed))

    def files(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
        limit: int | None = None,
    ) -> Paginator[File]:
        return self._list(
            File, self._base(space_id, change_request) + "/files", _flags(metadata, computed), limit=limit
        )

    async def file(
        self,
        space_id: str,
        file_id: str,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> File:
        url = self._base(space_id, change_request) + path("/files/{}", file_id)
        return await self._get(File, url, _flags(metadata, computed))

    def file_backlinks(
        self,
        space_id: str,
        file_id: str,
        *,
        change_request: str | int | None = None,
        limit: int | None = None,
    ) -> Paginator[BacklinkRecord]:
        """Where the file is referenced (optional: some services lack it and raise NotOffered)."""
        base = self._base(space_id, change_request)
        return self._list(
            BacklinkRecord,
            base + path("/files/{}/backlinks", file_id),
            limit=limit,
            optional="content.file_backlinks",
            probe=base + path("/files/{}", file_id),
        )

    async def page(
        self,
        space_id: str,
        page_id: str,
        *,
        change_request: str | int | None = None,
        revision: str | None = None,
        format: PageFormat | None = None,
        evaluated: Evaluated | None = None,
        dereferenced: Dereferenced | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> Page:
        """One page with its body: ``markdown`` with ``format="markdown"``, a ``document`` otherwise."""
        limits.check_one_of("format", format, ("document", "markdown"))
        if isinstance(evaluated, str):
            limits.check_one_of("evaluated", evaluated, ("deterministic-only",))
        if isinstance(dereferenced, str):
            limits.check_one_of("dereferenced", dereferenced, ("reusable-contents",))
        params = {
            "format": format,
            "evaluated": evaluated,
            "dereferenced": dereferenced,
            **_flags(metadata, computed),
        }
        url = self._base(space_id, change_request, revision) + path("/page/{}", page_id)
        return await self._get(Page, url, params)

    def page_links(
        self,
        space_id: str,
        page_id: str,
        *,
        change_request: str | int | None = None,
        status: str | None = None,
        limit: int | None = None,
    ) -> LinksPaginator:
        """The links a page makes (optional operation); :meth:`LinksPaginator.fetch` also gives the stats."""
        check_link_status(status)
        base = self._base(space_id, change_request)
        return LinksPaginator(
            self._client,
            base + path("/page/{}/links", page_id),
            ContentLink,
            {"status": status},
            limit=limit,
            optional="content.page_links",
            probe=base + path("/page/{}", page_id),
        )

    async def apply_template(
        self,
        space_id: str,
        template_id: str,
        *,
        content_refs: dict[str, ContentRefFile | dict[str, Any]] | None = None,
        change_request_id: str | None = None,
    ) -> None:
        """Apply a template to the space's content, or to a change request's with ``change_request_id``."""
        if not template_id:
            raise InvalidRequest("id", "is empty", "a template id")
        data: dict[str, Any] = {"id": template_id}
        if content_refs:
            refs: dict[str, Any] = {}
            for key, ref in content_refs.items():
                value = ref if isinstance(ref, ContentRefFile) else _file_ref(key, ref)
                refs[key] = value.model_dump(mode="json", by_alias=True, exclude_none=True)
            data["params"] = {"contentRefs": refs}
        if change_request_id is not None:
            data["changeRequestId"] = change_request_id
        await self._send_empty("POST", path("/spaces/{}/content/template", space_id), data)


def _file_ref(key: str, value: dict[str, Any]) -> ContentRefFile:
    if not isinstance(value, dict) or value.get("kind") != "file" or not isinstance(value.get("file"), str):
        raise InvalidRequest(f"params.contentRefs.{key}", "is not a file reference", "{kind: file, file: id}")
    return ContentRefFile.model_validate(value)
