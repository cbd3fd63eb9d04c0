"""Sandbox routes: spaces (spec 4.7 and the space lifecycle of section 3): list, read, update, delete,
restore, duplicate, move, transfer and links. Records and rules are in :mod:`folio.sandbox.domain.spaces`.

Lifecycle: DELETE sets ``deletedAt`` (lists leave the space out, GET still answers with it); POST restore
within 7 days brings it back; after 7 days it is removed for good (404). PATCH ``editMode`` toggles
live/locked.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from folio.sandbox.domain import links as links_mod
from folio.sandbox.domain.access import RANK, rank_of
from folio.sandbox.domain.moves import move, transfer_space
from folio.sandbox.domain.spaces import (
    EMOJI_MAX,
    TITLE_MAX,
    SpaceCounts,
    check_default_level,
    check_merge_rules,
    expired,
    find_space,
    live_spaces,
    next_order,
    purge,
    purge_expired,
    render_space,
)
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import (
    Handler,
    RouteSpec,
    current_user,
    deleted,
    field_str,
    json_body,
    ok,
    query_choice,
    route,
    state_of,
)
from folio.sandbox.paging import paginate
from folio.sandbox.revisions import new_revision, walk
from folio.sandbox.state import Record, SandboxState

_own: list[RouteSpec] = []


def _add(method: str, path: str, *, optional: bool = False) -> Callable[[Handler], Handler]:
    def wrap(handler: Handler) -> Handler:
        _own.append(route(method, path, optional=optional)(handler))
        return handler

    return wrap


def _render(request: Request, space: Record) -> Response:
    return ok(render_space(state_of(request), space, current_user(request)))


def _require_admin(state: SandboxState, space: Record, user: str, what: str) -> None:
    if rank_of(state, space["organization"], user) < RANK["admin"]:
        raise forbidden(f"Only an admin of the organization can {what} a space")


@_add("GET", "/orgs/{organizationId}/spaces")
async def list_org_spaces(request: Request) -> Response:
    state = state_of(request)
    org = request.path_params["organizationId"]
    if org not in state.orgs:
        raise not_found(f"No matching organization found for {org!r}")
    user = current_user(request)
    purge_expired(state)
    counts = SpaceCounts(state)
    return ok(paginate(request, live_spaces(state, org), lambda s: render_space(state, s, user, counts)))


@_add("GET", "/spaces/{spaceId}")
async def get_space(request: Request) -> Response:
    state = state_of(request)
    if "shareKey" in request.query_params and not request.query_params["shareKey"]:
        raise bad_request("shareKey must not be empty")
    return _render(request, find_space(state, request.path_params["spaceId"], deleted=True))


@_add("PATCH", "/spaces/{spaceId}")
async def update_space(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    body = await json_body(request)
    title = field_str(body, "title", max=TITLE_MAX)
    emoji = field_str(body, "emoji", max=EMOJI_MAX, nullable=True)
    icon = field_str(body, "icon", max=2048, nullable=True)
    if emoji and icon:
        raise bad_request("Give an emoji or an icon, not both")
    from folio.models.emoji import EMOJI_FORMAT, is_emoji
    from folio.models.space import EDIT_MODES, KNOWN_LANGUAGES  # the space models load when first used

    if emoji and not is_emoji(emoji):
        raise bad_request(f"emoji must be {EMOJI_FORMAT}")

    if "editMode" in body and body["editMode"] not in EDIT_MODES:
        raise bad_request("editMode must be live or locked")
    if "language" in body and body["language"] not in KNOWN_LANGUAGES:
        raise bad_request(f"language must be a known language code such as en, fr, de (got {body['language']!r})")
    check_default_level(body)
    if "mergeRules" in body:
        check_merge_rules(body["mergeRules"])
    if title is not None:
        space["title"] = title
    for key in ("editMode", "language", "defaultLevel", "mergeRules"):
        if key in body:
            space[key] = body[key]
    if "emoji" in body:
        space["emoji"] = emoji or ""
        if emoji:
            space["icon"] = None
    if "icon" in body:
        space["icon"] = icon
        if icon:
            space["emoji"] = ""
    space["updatedAt"] = state.now()
    return _render(request, space)


@_add("DELETE", "/spaces/{spaceId}")
async def delete_space(request: Request) -> Response:
    state = state_of(request)
    sid = request.path_params["spaceId"]
    space = state.spaces.get(sid)
    if space is not None and expired(state, space):
        purge(state, sid)
        space = None
    if space is None or space.get("deletedAt"):
        return deleted(False)
    _require_admin(state, space, current_user(request), "delete")
    space["deletedAt"] = state.now()
    return deleted(True)


@_add("POST", "/spaces/{spaceId}/restore")
async def restore_space(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"], deleted=True)
    if not space.get("deletedAt"):
        raise bad_request("The space is not deleted: there is nothing to restore")
    _require_admin(state, space, current_user(request), "restore")
    if space.get("parent") and space["parent"] not in state.collections:
        space["parent"] = None
    if not space.get("parent") and space.get("visibility") == "in-collection":
        space["visibility"] = "private"
    space["deletedAt"] = None
    space["order"] = next_order(state, space["organization"], space.get("parent"))
    space["updatedAt"] = state.now()
    return _render(request, space)


def _copy_pages(pages: list[Record], ids: dict[str, str]) -> list[Record]:
    out = []
    for page in pages:
        copy = {k: v for k, v in page.items() if k != "pages"}
        copy["id"] = ids[page["id"]]
        copy["pages"] = _copy_pages(page.get("pages") or [], ids)
        if copy.get("markdown"):
            copy["markdown"] = re.sub(
                r"/pages/([A-Za-z0-9]+)",
                lambda m: "/pages/" + ids.get(m.group(1), m.group(1)),
                copy["markdown"],
            )
        out.append(copy)
    return out


@_add("POST", "/spaces/{spaceId}/duplicate")
async def duplicate_space(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    user = current_user(request)
    if rank_of(state, space["organization"], user) < RANK["create"]:
        raise forbidden("You cannot create spaces in this organization")
    revision = state.revisions[space["revision"]]
    ids = {page["id"]: state.new_id() for page, _, _ in walk(revision.get("pages") or [])}
    now = state.now()
    sid = state.new_id()
    suffix = " (copy)"
    copy = {k: v for k, v in space.items() if k not in ("gitSync", "visitorAuth")}
    copy.update(
        {
            "id": sid,
            "title": space["title"][: TITLE_MAX - len(suffix)] + suffix,
            "createdAt": now,
            "updatedAt": now,
            "deletedAt": None,
            "editMode": "live",
            "order": next_order(state, space["organization"], space.get("parent")),
        }
    )
    state.spaces[sid] = copy
    copy["revision"] = new_revision(
        state,
        sid,
        _copy_pages(revision.get("pages") or [], ids),
        parents=[],
        message=f"Duplicated from {space['title']}",
        files=[dict(f) for f in revision.get("files") or []],
        variables=dict(revision.get("variables") or {}),
        at=now,
    )
    data = render_space(state, copy, user)
    return JSONResponse(data, status_code=201, headers={"Location": data["urls"]["location"]})


@_add("POST", "/spaces/{spaceId}/move")
async def move_space(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    body = await json_body(request)
    move(state, "space", space, body)
    return _render(request, space)


@_add("POST", "/spaces/{spaceId}/transfer", optional=True)
async def transfer(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    body = await json_body(request)
    transfer_space(state, space, body, current_user(request))
    return _render(request, space)


@_add("GET", "/spaces/{spaceId}/links", optional=True)
async def space_links(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    status = query_choice(request, "status", links_mod.STATUSES)
    entries = links_mod.links(state, state.revisions[space["revision"]])
    items = [e for e in entries if status is None or e["status"] == status]
    stats = links_mod.stats(entries, links_mod.broken_in_change_requests(state, space["id"]))
    return ok(paginate(request, items, stats=stats))


routes: list[RouteSpec] = _own
