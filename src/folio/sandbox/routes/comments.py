"""Sandbox routes: comments and replies (spec 4.10) under a space or a change request, and commenters. The
scope of a request, reading bodies and rendering are in :mod:`folio.sandbox.domain.comments`.

One handler serves both prefixes: with ``changeRequestId`` in the path (the change request's id or its number
in the space) it works inside that change request, without it on the space's own content. Records live in
``state.comments`` (shape in :mod:`folio.sandbox.state`); replies are kept inside their comment. Transitions
(spec 3): a comment is posted ``open``; ``resolved: true`` makes it ``resolved`` with ``resolvedAt`` and
``resolvedBy``; ``resolved: false`` reopens it. Only the author edits a body; the author or an admin deletes.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.comments import (
    apply_edits,
    authors_filter,
    doc_format,
    find_comment,
    find_reply,
    read_edits,
    read_id,
    read_markdown,
    render_comment,
    render_reply,
    scope,
)
from folio.sandbox.domain.people import Counts, render_member
from folio.sandbox.errors import bad_request, forbidden
from folio.sandbox.http import Handler, RouteSpec, deleted, json_body, ok, query_choice, route
from folio.sandbox.paging import paginate
from folio.sandbox.revisions import find_page
from folio.sandbox.state import Record

SPACE = "/spaces/{spaceId}/comments"
CR = "/spaces/{spaceId}/change-requests/{changeRequestId}/comments"

routes: list[RouteSpec] = []


def both(method: str, suffix: str = "") -> Callable[[Handler], Handler]:
    """Register a handler under the space prefix and the change request prefix."""

    def wrap(handler: Handler) -> Handler:
        routes.append(route(method, SPACE + suffix)(handler))
        routes.append(route(method, CR + suffix)(handler))
        return handler

    return wrap


# --- comments -----------------------------------------------------------------------------------------------


@both("GET")
async def list_comments(request: Request) -> Response:
    sc = scope(request)
    status = query_choice(request, "status", ("all", "open", "resolved"), "all")
    order = query_choice(request, "order", ("asc", "desc"), "desc")
    fmt = doc_format(request)
    page = request.query_params.get("targetPage")
    authors = authors_filter(request)
    items = [
        c
        for c in sc.state.comments.values()
        if c["space"] == sc.space["id"]
        and c.get("changeRequest") == sc.cr_id
        and (status == "all" or c.get("status", "open") == status)
        and (not page or ((c.get("target") or {}).get("page") or {}).get("id") == page)
        and (not authors or c["postedBy"] in authors)
    ]
    items.sort(key=lambda c: c["postedAt"], reverse=order == "desc")
    return ok(paginate(request, items, lambda c: render_comment(sc, c, fmt)))


@both("POST")
async def post_comment(request: Request) -> Response:
    sc = scope(request)
    data = await json_body(request)
    text = read_markdown(data)
    page_id, node_id = read_id(data, "page"), read_id(data, "node")
    cell = data.get("tableCell")
    if cell is not None and not (
        isinstance(cell, dict) and all(isinstance(cell.get(k), str) and cell[k] for k in ("record", "definition"))
    ):
        raise bad_request("tableCell must be an object with record and definition")
    revision = sc.cr["revision"] if sc.cr else sc.space["revision"]
    if page_id and find_page(sc.state.revisions.get(revision, {}).get("pages") or [], page_id) is None:
        raise bad_request(f"page: no page {page_id!r} in revision {revision!r}")
    if not sc.can_comment:
        raise forbidden("You cannot comment in this space")
    target: Record = {"revision": revision}
    if page_id:
        target["page"] = {"id": page_id}
    if node_id:
        target["node"] = {"id": node_id}
    if cell is not None:
        target["tableCell"] = {"record": cell["record"], "definition": cell["definition"]}
    record: Record = {
        "id": sc.state.new_id(),
        "space": sc.space["id"],
        "changeRequest": sc.cr_id,
        "postedBy": sc.user,
        "postedAt": sc.state.now(),
        "editedAt": None,
        "body": text,
        "target": target,
        "status": "open",
        "resolvedAt": None,
        "resolvedBy": None,
        "reactions": [],
        "replies": [],
    }
    sc.state.comments[record["id"]] = record
    return ok(render_comment(sc, record))


@both("GET", "/{commentId}")
async def get_comment(request: Request) -> Response:
    sc = scope(request)
    record = find_comment(sc, request.path_params["commentId"])
    return ok(render_comment(sc, record, doc_format(request)))


@both("PUT", "/{commentId}")
async def update_comment(request: Request) -> Response:
    sc = scope(request)
    record = find_comment(sc, request.path_params["commentId"])
    data = await json_body(request)
    resolved = data.get("resolved")
    if resolved is not None and not isinstance(resolved, bool):
        raise bad_request("resolved must be a boolean")
    text, added, removed = read_edits(sc, data, record)
    if resolved is not None and not sc.can_comment:
        raise forbidden("You cannot resolve comments in this space")
    if resolved is True and record.get("status") != "resolved":
        record.update(status="resolved", resolvedAt=sc.state.now(), resolvedBy=sc.user)
    elif resolved is False:
        record.update(status="open", resolvedAt=None, resolvedBy=None)
    apply_edits(sc, record, text, added, removed)
    return ok(render_comment(sc, record))


@both("DELETE", "/{commentId}")
async def delete_comment(request: Request) -> Response:
    sc = scope(request)
    record = find_comment(sc, request.path_params["commentId"])
    if record["postedBy"] != sc.user and sc.role != "admin":
        raise forbidden("Only the author or an admin can delete this comment")
    del sc.state.comments[record["id"]]
    return deleted(True)


# --- replies ------------------------------------------------------------------------------------------------


@both("GET", "/{commentId}/replies")
async def list_replies(request: Request) -> Response:
    sc = scope(request)
    comment = find_comment(sc, request.path_params["commentId"])
    fmt = doc_format(request)
    items = sorted(comment["replies"], key=lambda r: r["postedAt"])
    return ok(paginate(request, items, lambda r: render_reply(sc, comment, r, fmt)))


@both("POST", "/{commentId}/replies")
async def post_reply(request: Request) -> Response:
    sc = scope(request)
    comment = find_comment(sc, request.path_params["commentId"])
    fmt = doc_format(request)
    text = read_markdown(await json_body(request))
    if not sc.can_comment:
        raise forbidden("You cannot reply in this space")
    reply: Record = {
        "id": sc.state.new_id(),
        "postedBy": sc.user,
        "postedAt": sc.state.now(),
        "editedAt": None,
        "body": text,
        "reactions": [],
    }
    comment["replies"].append(reply)
    return ok(render_reply(sc, comment, reply, fmt))


@both("GET", "/{commentId}/replies/{commentReplyId}")
async def get_reply(request: Request) -> Response:
    sc = scope(request)
    comment = find_comment(sc, request.path_params["commentId"])
    reply = find_reply(comment, request.path_params["commentReplyId"])
    return ok(render_reply(sc, comment, reply, doc_format(request)))


@both("PUT", "/{commentId}/replies/{commentReplyId}")
async def update_reply(request: Request) -> Response:
    sc = scope(request)
    comment = find_comment(sc, request.path_params["commentId"])
    reply = find_reply(comment, request.path_params["commentReplyId"])
    text, added, removed = read_edits(sc, await json_body(request), reply)
    apply_edits(sc, reply, text, added, removed)
    return ok(render_reply(sc, comment, reply))


@both("DELETE", "/{commentId}/replies/{commentReplyId}")
async def delete_reply(request: Request) -> Response:
    sc = scope(request)
    comment = find_comment(sc, request.path_params["commentId"])
    reply = find_reply(comment, request.path_params["commentReplyId"])
    if reply["postedBy"] != sc.user and sc.role != "admin":
        raise forbidden("Only the author or an admin can delete this reply")
    comment["replies"].remove(reply)
    return deleted(True)


# --- commenters ---------------------------------------------------------------------------------------------


async def list_commenters(request: Request) -> Response:
    sc = scope(request)
    state, org = sc.state, sc.space["organization"]
    authors: set[str] = set()
    for c in state.comments.values():
        if c["space"] == sc.space["id"] and (sc.cr is None or c.get("changeRequest") == sc.cr_id):
            authors.add(c["postedBy"])
            authors.update(r["postedBy"] for r in c["replies"])
    users = sorted(authors, key=lambda u: (state.user_json(u).get("displayName", "").casefold(), u))
    counts = Counts(state, org)
    return ok(paginate(request, users, lambda u: render_member(state, org, u, counts)))


routes.append(route("GET", "/spaces/{spaceId}/commenters")(list_commenters))
routes.append(route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/commenters")(list_commenters))
