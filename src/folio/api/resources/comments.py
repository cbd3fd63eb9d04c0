"""Comments and replies (spec 4.10), on a space's content or inside a change request, and commenters.

Every method serves both prefixes: ``change_request=None`` addresses ``/spaces/{id}/comments``, a change
request id (or its number in the space) addresses ``/spaces/{id}/change-requests/{cr}/comments``.

    async for c in client.comments.list(space_id, change_request=7, status="open"): ...
    comment = await client.comments.create(space_id, "Typo here", page=page_id)
    await client.comments.update(space_id, comment.id, resolved=True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from folio.api.errors import InvalidRequest
from folio.api.limits import check_length
from folio.api.pagination import Paginator
from folio.api.resources._base import Resource, path
from folio.models.comment import Comment, Commenter, CommentReply, TableCellTarget

__all__ = ["CommentsResource"]

Order = Literal["asc", "desc"]
Format = Literal["document", "markdown"]
StatusFilter = Literal["open", "resolved", "all"]

EMOJI_MAX = 50


def _check_one_of(field: str, value: str | None, allowed: tuple[str, ...]) -> None:
    if value is not None and value not in allowed:
        raise InvalidRequest(field, f"{value!r} is not a known value", "one of " + ", ".join(allowed))


def _markdown(field: str, value: str) -> dict[str, str]:
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(field, "is empty", "a non-empty markdown text")
    return {"markdown": value}


def _reactions(field: str, emojis: Sequence[str] | None) -> list[str] | None:
    if emojis is None:
        return None
    if isinstance(emojis, str):
        raise InvalidRequest(field, "must be a list of emoji, not one string", "string[]")
    out = list(emojis)
    for emoji in out:
        check_length(field, emoji, min=1, max=EMOJI_MAX)
    return out


def _edits(markdown: str | None, added: Sequence[str] | None, removed: Sequence[str] | None) -> dict[str, Any]:
    """The body of a comment or reply update: only the fields given."""
    payload: dict[str, Any] = {}
    if markdown is not None:
        payload["body"] = _markdown("body.markdown", markdown)
    if added is not None:
        payload["addedReactions"] = _reactions("addedReactions", added)
    if removed is not None:
        payload["removedReactions"] = _reactions("removedReactions", removed)
    return payload


class CommentsResource(Resource):
    """``client.comments``: comments and replies under a space or a change request; commenters."""

    @staticmethod
    def _base(space_id: str, change_request: str | int | None) -> str:
        if change_request is None:
            return path("/spaces/{}/comments", space_id)
        return path("/spaces/{}/change-requests/{}/comments", space_id, change_request)

    def _comment(self, space_id: str, change_request: str | int | None, comment_id: str) -> str:
        return self._base(space_id, change_request) + path("/{}", comment_id)

    def _reply(self, space_id: str, change_request: str | int | None, comment_id: str, reply_id: str) -> str:
        return self._comment(space_id, change_request, comment_id) + path("/replies/{}", reply_id)

    # -- comments --------------------------------------------------------------------------------------------

    def list(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        order: Order | None = None,
        format: Format | None = None,
        status: StatusFilter | None = None,
        target_page: str | None = None,
        authors: Sequence[str] | None = None,
        limit: int | None = None,
    ) -> Paginator[Comment]:
        """The comments, newest first unless ``order="asc"``; ``status`` defaults to all on the service."""
        _check_one_of("order", order, ("asc", "desc"))
        _check_one_of("format", format, ("document", "markdown"))
        _check_one_of("status", status, ("open", "resolved", "all"))
        if isinstance(authors, str):
            authors = [authors]
        params: dict[str, Any] = {
            "order": order,
            "format": format,
            "status": status,
            "targetPage": target_page,
            "authors": list(authors) if authors else None,
        }
        return self._list(Comment, self._base(space_id, change_request), params, limit=limit)

    async def create(
        self,
        space_id: str,
        markdown: str,
        *,
        change_request: str | int | None = None,
        page: str | None = None,
        node: str | None = None,
        table_cell: TableCellTarget | None = None,
    ) -> Comment:
        """Post a comment on the whole space or change request, or on a page, a block (``node``), a cell."""
        payload: dict[str, Any] = {"body": _markdown("body.markdown", markdown)}
        if page is not None:
            payload["page"] = page
        if node is not None:
            payload["node"] = node
        if table_cell is not None:
            payload["tableCell"] = table_cell.to_wire()
        url = self._base(space_id, change_request)
        return await self._send(Comment, "POST", url, payload, idempotent=False)

    async def get(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        format: Format | None = None,
    ) -> Comment:
        _check_one_of("format", format, ("document", "markdown"))
        url = self._comment(space_id, change_request, comment_id)
        return await self._get(Comment, url, {"format": format} if format else None)

    async def update(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        resolved: bool | None = None,
        markdown: str | None = None,
        added_reactions: Sequence[str] | None = None,
        removed_reactions: Sequence[str] | None = None,
    ) -> Comment:
        """Resolve or reopen, edit the body (author only), add or remove the caller's emoji reactions."""
        payload = _edits(markdown, added_reactions, removed_reactions)
        if resolved is not None:
            payload["resolved"] = resolved
        url = self._comment(space_id, change_request, comment_id)
        return await self._send(Comment, "PUT", url, payload, idempotent=True)

    async def delete(self, space_id: str, comment_id: str, *, change_request: str | int | None = None) -> None:
        """Delete a comment and its replies."""
        await self._send_empty("DELETE", self._comment(space_id, change_request, comment_id))

    # -- replies ---------------------------------------------------------------------------------------------

    def replies(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        format: Format | None = None,
        limit: int | None = None,
    ) -> Paginator[CommentReply]:
        """The replies to a comment, oldest first."""
        _check_one_of("format", format, ("document", "markdown"))
        url = self._comment(space_id, change_request, comment_id) + "/replies"
        return self._list(CommentReply, url, {"format": format}, limit=limit)

    async def reply(
        self,
        space_id: str,
        comment_id: str,
        markdown: str,
        *,
        change_request: str | int | None = None,
        format: Format | None = None,
    ) -> CommentReply:
        """Post a reply to a comment."""
        _check_one_of("format", format, ("document", "markdown"))
        payload = {"body": _markdown("body.markdown", markdown)}
        url = self._comment(space_id, change_request, comment_id) + "/replies"
        params = {"format": format} if format else None
        return await self._send(CommentReply, "POST", url, payload, idempotent=False, params=params)

    async def get_reply(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
        format: Format | None = None,
    ) -> CommentReply:
        _check_one_of("format", format, ("document", "markdown"))
        url = self._reply(space_id, change_request, comment_id, reply_id)
        return await self._get(CommentReply, url, {"format": format} if format else None)

    async def update_reply(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
        markdown: str | None = None,
        added_reactions: Sequence[str] | None = None,
        removed_reactions: Sequence[str] | None = None,
    ) -> CommentReply:
        """Edit a reply's body (author only), add or remove the caller's emoji reactions."""
        payload = _edits(markdown, added_reactions, removed_reactions)
        url = self._reply(space_id, change_request, comment_id, reply_id)
        return await self._send(CommentReply, "PUT", url, payload, idempotent=True)

    async def delete_reply(
        self, space_id: str, comment_id: str, reply_id: str, *, change_request: str | int | None = None
    ) -> None:
        await self._send_empty("DELETE", self._reply(space_id, change_request, comment_id, reply_id))

    # -- commenters ------------------------------------------------------------------------------------------

    def commenters(
        self, space_id: str, *, change_request: str | int | None = None, limit: int | None = None
    ) -> Paginator[Commenter]:
        """The members who commented in the space (and its change requests), or in one change request."""
        if change_request is None:
            url = path("/spaces/{}/commenters", space_id)
        else:
            url = path("/spaces/{}/change-requests/{}/commenters", space_id, change_request)
        return self._list(Commenter, url, limit=limit)
