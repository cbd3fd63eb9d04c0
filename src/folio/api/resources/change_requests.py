"""Change requests (spec 4.9, without the content reads) and their semantic change list.

    crs = await client.change_requests.list("space-id", status="open").collect()
    cr = await client.change_requests.create("space-id", subject="Fix the install guide")
    await client.change_requests.update("space-id", cr.number, status="open")
    result = await client.change_requests.merge("space-id", cr.id)

A change request is named by its id or by its number within the space (``cr`` takes either).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from folio.api.errors import InvalidRequest
from folio.api.limits import check_int_range, check_length, check_one_of
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.models.change_request import (
    PATCHABLE_STATUSES,
    ChangeRequest,
    ChangeRequestChanges,
    ChangeRequestRowModel,
    ChangeRequestSummary,
    MergeResult,
    PatchableStatus,
    PdfLink,
    UpdateResult,
)
from folio.models.common import Document
from folio.models.content_changes import ContentChange, ContentUpdate, changes_body

__all__ = ["CONTENT_CHANGES_MAX", "SUBJECT_MAX", "ChangeRequestsResource", "document_body"]

SUBJECT_MAX = 100
"""Spec section 8: a change request's ``subject`` is at most 100 characters."""

CHANGES_LIMIT_MAX = 1000

CONTENT_CHANGES_MAX = 50
"""The description's ``maxItems`` of one batch of content changes."""


def document_body(value: Document | Mapping[str, Any] | str) -> dict[str, Any]:
    """A rich-text document in wire form, from a :class:`Document`, a wire dict, or plain text."""
    if isinstance(value, str):
        value = Document.from_text(value)
    if isinstance(value, Document):
        # Defaults included: the service needs ``object`` = ``document``, which is the model's default.
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dict(value)


def _cr_path(space_id: str, cr: str | int, suffix: str = "") -> str:
    return path("/spaces/{}/change-requests/{}" + suffix, space_id, cr)


def _org_params(
    status: str | Sequence[str] | None,
    creator: str | None,
    contributor: str | None,
    requested_reviewer: str | None,
    cluster: str | None,
    space: str | None,
    order_by: str | None,
) -> dict[str, Any]:
    """The query of an organization's change request list (``status``: one or several)."""
    return {
        "status": [status] if isinstance(status, str) else ([*status] if status else None),
        "creator": creator,
        "contributor": contributor,
        "requestedReviewer": requested_reviewer,
        "conversationsIssuesCluster": cluster,
        "space": space,
        "orderBy": order_by,
    }


class ChangeRequestsResource(Resource):
    """``client.change_requests``: list, create, read, edit, merge and update change requests."""

    def list(
        self,
        space_id: str,
        *,
        status: str | None = None,
        creator: str | None = None,
        contributor: str | None = None,
        requested_reviewer: str | None = None,
        cluster: str | None = None,
        order_by: str | None = None,
        limit: int | None = None,
    ) -> Paginator[ChangeRequest]:
        """A space's change requests, most recently updated first. Without ``status`` the service lists the
        open ones; ``creator``, ``contributor`` and ``requested_reviewer`` are user ids, ``cluster`` an issues
        cluster id."""
        params = {
            "status": status,
            "creator": creator,
            "contributor": contributor,
            "requestedReviewer": requested_reviewer,
            "conversationsIssuesCluster": cluster,
            "orderBy": order_by,
        }
        return self._list(ChangeRequest, path("/spaces/{}/change-requests", space_id), params, limit=limit)

    def list_for_organization(
        self,
        org_id: str,
        *,
        status: str | Sequence[str] | None = None,
        creator: str | None = None,
        contributor: str | None = None,
        requested_reviewer: str | None = None,
        cluster: str | None = None,
        space: str | None = None,
        order_by: str | None = None,
        limit: int | None = None,
    ) -> Paginator[ChangeRequest]:
        """The change requests of every space of an organization, most recently updated first. ``status`` is
        one status or several (the service lists the open ones without it)."""
        params = _org_params(status, creator, contributor, requested_reviewer, cluster, space, order_by)
        return self._list(ChangeRequest, path("/orgs/{}/change-requests", org_id), params, limit=limit)

    def summaries_for_organization(
        self,
        org_id: str,
        *,
        status: str | Sequence[str] | None = None,
        creator: str | None = None,
        contributor: str | None = None,
        requested_reviewer: str | None = None,
        cluster: str | None = None,
        space: str | None = None,
        order_by: str | None = None,
        limit: int | None = None,
    ) -> Paginator[ChangeRequestSummary]:
        """:meth:`list_for_organization` as the inbox shows it (:class:`ChangeRequestSummary`, a msgspec Struct:
        what a row reads, the rest of each change request skipped while reading; a page msgspec refuses is read by
        pydantic as :class:`ChangeRequestRowModel` and converted): the way to page through thousands. :meth:`get`
        reads one in full."""
        params = _org_params(status, creator, contributor, requested_reviewer, cluster, space, order_by)
        url = path("/orgs/{}/change-requests", org_id)
        return self._list(ChangeRequestSummary, url, params, limit=limit, lenient=ChangeRequestRowModel)

    async def create(
        self,
        space_id: str,
        *,
        subject: str | None = None,
        template: Mapping[str, Any] | None = None,
        **extra: Any,
    ) -> ChangeRequest:
        """Open a change request on the space's current content (it starts as a draft). ``template`` is
        ``{id, params: {contentRefs}}``; other keyword arguments are sent as they are."""
        check_length("subject", subject, max=SUBJECT_MAX)
        if template is not None and not isinstance(template.get("id"), str):
            raise InvalidRequest("template.id", "is missing", "a template id")
        payload: dict[str, Any] = dict(extra)
        if subject is not None:
            payload["subject"] = subject
        if template is not None:
            payload["template"] = dict(template)
        return await self._send(ChangeRequest, "POST", path("/spaces/{}/change-requests", space_id), payload)

    async def get(self, space_id: str, cr: str | int) -> ChangeRequest:
        return await self._get(ChangeRequest, _cr_path(space_id, cr))

    async def update(
        self,
        space_id: str,
        cr: str | int,
        *,
        subject: str = UNSET,
        description: Document | Mapping[str, Any] | str = UNSET,
        status: PatchableStatus = UNSET,
    ) -> ChangeRequest:
        """Change the subject, the description (a document, or plain text made into one) or the status
        (``draft``, ``open`` or ``archived``; merging is :meth:`merge`)."""
        if subject is not UNSET:
            check_length("subject", subject, max=SUBJECT_MAX)
        if status is not UNSET:
            check_one_of("status", status, PATCHABLE_STATUSES)
        payload = body(
            subject=subject,
            description=document_body(description) if description is not UNSET else UNSET,
            status=status,
        )
        return await self._send(ChangeRequest, "PATCH", _cr_path(space_id, cr), payload, idempotent=True)

    async def update_content(
        self, space_id: str, cr: str | int, changes: Sequence[ContentChange], *, compat: bool = False
    ) -> ContentUpdate:
        """Apply 1 to 50 content changes to the change request as one new revision (all or nothing). Asks for
        the answer that lists the pages touched (``compat=false``); the older answer (the change request alone)
        reads as well. Optional: a service without it raises NotOffered."""
        check_int_range("changes", len(changes), min=1, max=CONTENT_CHANGES_MAX)
        return await self._send(
            ContentUpdate,
            "POST",
            _cr_path(space_id, cr, "/content"),
            changes_body(list(changes)),
            params={"compat": "true" if compat else "false"},
            optional="change_requests.update_content",
            probe=_cr_path(space_id, cr),
        )

    async def merge(self, space_id: str, cr: str | int) -> MergeResult:
        """Merge the change request into the space's main content."""
        return await self._send(MergeResult, "POST", _cr_path(space_id, cr, "/merge"))

    async def update_from_main(self, space_id: str, cr: str | int) -> UpdateResult:
        """Bring the changes made to the space's main content since the change request began into it."""
        return await self._send(UpdateResult, "POST", _cr_path(space_id, cr, "/update"))

    async def pdf(self, space_id: str, cr: str | int, *, only: bool | None = None, page: str | None = None) -> PdfLink:
        """A temporary link to the change request's content as PDF (``page`` with ``only`` for one page)."""
        params = {"only": only, "page": page}
        return await self._get(PdfLink, _cr_path(space_id, cr, "/pdf"), params)

    async def changes(self, space_id: str, cr: str | int, *, limit: int | None = None) -> ChangeRequestChanges:
        """What the change request changes, page by page (the service gives 10 unless ``limit`` says more;
        ``more`` counts the ones left out)."""
        check_int_range("limit", limit, min=1, max=CHANGES_LIMIT_MAX)
        return await self._get(ChangeRequestChanges, _cr_path(space_id, cr, "/changes"), {"limit": limit})
