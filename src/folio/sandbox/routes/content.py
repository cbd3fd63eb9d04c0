"""Sandbox routes: space content (spec 4.8), change request content (the seven ``.../content`` rows of 4.9)
and revisions by id (getRevisionById, listPagesInRevisionById, getPageInRevisionById).

One handler serves each read under the three prefixes: ``/spaces/{spaceId}/content`` (the space's current
revision), ``/spaces/{spaceId}/change-requests/{changeRequestId}/content`` (the change request's revision; the
change request by id or by number) and ``/spaces/{spaceId}/revisions/{revisionId}``. Links and backlinks reads
are optional (absent from the public description).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain import links as links_mod
from folio.sandbox.domain.change_requests import find_change_request, render_change_request, require_rank, still_active
from folio.sandbox.domain.content import (
    Context,
    render_file,
    render_page,
    render_pages,
    render_revision,
)
from folio.sandbox.domain.content_changes import MAX_CONTENT_BODY_BYTES, apply_content_changes
from folio.sandbox.domain.spaces import find_space, render_space
from folio.sandbox.errors import bad_request, conflict, not_found
from folio.sandbox.http import (
    Handler,
    RouteSpec,
    current_user,
    empty,
    json_body,
    ok,
    query_bool,
    query_choice,
    route,
    state_of,
)
from folio.sandbox.paging import paginate
from folio.sandbox.revisions import clone_pages, make_page, new_revision, walk
from folio.sandbox.state import Record

SPACE = "/spaces/{spaceId}/content"
CR = "/spaces/{spaceId}/change-requests/{changeRequestId}/content"
REV = "/spaces/{spaceId}/revisions/{revisionId}"

TEMPLATES: dict[str, list[tuple[str, str]]] = {
    "faq": [
        (
            "FAQ",
            "# FAQ\n\n## How do I get started?\n\nRead the getting started guide.\n\n"
            "## Where do I ask questions?\n\nAsk in the community forum.\n",
        )
    ],
    "changelog": [("Changelog", "# Changelog\n\n## Unreleased\n\n- Describe the change here.\n")],
    "api-reference": [
        ("API overview", "# API overview\n\nAuthenticate, then call the endpoints.\n"),
        ("Endpoints", "# Endpoints\n\n## List items\n\n`GET /items`\n"),
    ],
    "product-docs": [
        ("Overview", "# Overview\n\nWhat the product does.\n"),
        ("Quickstart", "# Quickstart\n\n1. Install\n2. Configure\n3. Run\n"),
    ],
}

routes: list[RouteSpec] = []


def served(method: str, *suffixes: tuple[str, str], optional: bool = False) -> Callable[[Handler], Handler]:
    """Register a handler under several (prefix, suffix) paths."""

    def wrap(handler: Handler) -> Handler:
        for prefix, suffix in suffixes:
            routes.append(route(method, prefix + suffix, optional=optional)(handler))
        return handler

    return wrap


def context(request: Request) -> Context:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    key = request.path_params.get("changeRequestId")
    if key is not None:
        cr = find_change_request(state, space["id"], key)
        revision = state.revisions.get(cr.get("revision") or "")
        if revision is None:
            raise not_found(f"The change request {key!r} has no content")
        return Context(state, space, revision, cr=cr)
    rid = request.path_params.get("revisionId")
    if rid is not None:
        revision = state.revisions.get(rid)
        if revision is None or revision.get("space") != space["id"]:
            raise not_found(f"No matching revision found for {rid!r}")
        return Context(state, space, revision, by_id=True)
    return Context(state, space, state.revisions[space["revision"]])


def flags(request: Request) -> bool:
    """Check the shared content flags; returns ``metadata`` (``computed`` changes nothing here)."""
    query_bool(request, "computed", True)
    return bool(query_bool(request, "metadata", True))


def find_file(ctx: Context, file_id: str) -> Record:
    for file in ctx.revision.get("files") or []:
        if file["id"] == file_id:
            return file
    raise not_found(f"No matching file found for {file_id!r}")


def find_page_path(ctx: Context, page_id: str) -> tuple[Record, str]:
    for page, _, path in walk(ctx.revision.get("pages") or []):
        if page["id"] == page_id:
            return page, path
    raise not_found(f"No matching page found for {page_id!r}")


# --- reads --------------------------------------------------------------------------------------------------


@served("GET", (SPACE, ""), (CR, ""), (REV, ""))
async def get_revision(request: Request) -> Response:
    ctx = context(request)
    return ok(render_revision(ctx, metadata=flags(request)))


@served("GET", (SPACE, "/pages"), (CR, "/pages"), (REV, "/pages"))
async def list_pages(request: Request) -> Response:
    ctx = context(request)
    return ok({"pages": render_pages(ctx, metadata=flags(request))})


@served("GET", (SPACE, "/files"), (CR, "/files"))
async def list_files(request: Request) -> Response:
    ctx = context(request)
    metadata = flags(request)
    files = ctx.revision.get("files") or []
    return ok(paginate(request, files, lambda f: render_file(f, metadata=metadata)))


@served("GET", (SPACE, "/files/{fileId}"), (CR, "/files/{fileId}"))
async def get_file(request: Request) -> Response:
    ctx = context(request)
    metadata = flags(request)
    return ok(render_file(find_file(ctx, request.path_params["fileId"]), metadata=metadata))


@served("GET", (SPACE, "/files/{fileId}/backlinks"), (CR, "/files/{fileId}/backlinks"), optional=True)
async def file_backlinks(request: Request) -> Response:
    ctx = context(request)
    state = ctx.state
    file = render_file(find_file(ctx, request.path_params["fileId"]))
    org = state.orgs.get(ctx.space["organization"], {})
    organization = {
        "object": "organization",
        "id": ctx.space["organization"],
        "title": org.get("title", ""),
        "urls": {
            "location": f"{state.api_base}/orgs/{ctx.space['organization']}",
            "app": f"{state.app_base}/o/{ctx.space['organization']}/",
        },
    }
    space = render_space(state, ctx.space, current_user(request))
    pages = links_mod.backlinks(ctx.revision, file["id"])

    def record(page: Record) -> Record:
        return {
            "kind": "file",
            "organization": organization,
            "space": space,
            "versionContext": {"type": "revision", "revision": ctx.revision["id"]},
            "file": file,
            "page": page,
        }

    return ok(paginate(request, pages, record))


@served("GET", (SPACE, "/page/{pageId}"), (CR, "/page/{pageId}"), (REV, "/page/{pageId}"))
async def get_page(request: Request) -> Response:
    ctx = context(request)
    metadata = flags(request)
    fmt = query_choice(request, "format", ("document", "markdown"))
    query_choice(request, "format.markdown.refs", ("relative", "stable"))
    query_choice(request, "evaluated", ("true", "false", "deterministic-only"))
    query_choice(request, "dereferenced", ("true", "false", "reusable-contents"))
    page, path = find_page_path(ctx, request.path_params["pageId"])
    return ok(render_page(ctx, page, path, metadata=metadata, body=fmt or "document"))


@served("GET", (SPACE, "/page/{pageId}/links"), (CR, "/page/{pageId}/links"), optional=True)
async def get_page_links(request: Request) -> Response:
    ctx = context(request)
    status = query_choice(request, "status", links_mod.STATUSES)
    page, _ = find_page_path(ctx, request.path_params["pageId"])
    entries = links_mod.links(ctx.state, ctx.revision, only_page=page["id"])
    items = [
        {k: v for k, v in e.items() if k != "locationReferences"}
        for e in entries
        if status is None or e["status"] == status
    ]
    in_cr = sum(1 for e in entries if e["status"] == "broken") if ctx.cr is not None else 0
    return ok(paginate(request, items, stats=links_mod.stats(entries, in_cr)))


# --- template -----------------------------------------------------------------------------------------------


def _content_refs(params: Any) -> dict[str, Record]:
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise bad_request("params must be an object")
    refs = params.get("contentRefs", {})
    if not isinstance(refs, dict):
        raise bad_request("params.contentRefs must map keys to file references")
    for key, ref in refs.items():
        if not isinstance(ref, dict) or ref.get("kind") != "file" or not isinstance(ref.get("file"), str):
            raise bad_request(f"params.contentRefs.{key} must be a content reference of kind file")
    return refs


@served("POST", (SPACE, "/template"))
async def apply_template(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    body = await json_body(request)
    template = body.get("id")
    if not isinstance(template, str) or not template:
        raise bad_request("id is required: the template to apply")
    if template not in TEMPLATES:
        raise bad_request(f"Unknown template {template!r}; known: {', '.join(TEMPLATES)}")
    refs = _content_refs(body.get("params"))
    cr_key = body.get("changeRequestId")
    if cr_key is not None and not isinstance(cr_key, str):
        raise bad_request("changeRequestId must be a change request id")
    cr = find_change_request(state, space["id"], cr_key) if cr_key else None
    if cr is None and space.get("editMode") == "locked":
        raise conflict("The space is locked: apply the template through a change request")
    base = state.revisions[cr["revision"] if cr else space["revision"]]
    now = state.now()
    added = [make_page(state, title, md, at=now) for title, md in TEMPLATES[template]]
    if "cover" in refs:
        added[0]["cover"] = {"ref": refs["cover"], "yPos": 0}
    rid = new_revision(
        state,
        space["id"],
        clone_pages(base["pages"]) + added,
        parents=[base["id"]],
        message=f"Apply template {template}",
        files=[dict(f) for f in base.get("files") or []],
        variables=dict(base.get("variables") or {}),
    )
    target = cr if cr is not None else space
    target["revision"] = rid
    target["updatedAt"] = now
    return empty(201)


# --- content changes (updateChangeRequestContent) ---------------------------------------------------------------


@served("POST", (CR, ""))
async def update_content(request: Request) -> Response:
    """updateChangeRequestContent: the batch as one new revision (see :mod:`folio.sandbox.domain.content_changes`).
    ``compat=true`` (the default) answers the change request; ``compat=false`` the description's
    ChangeRequestContentUpdate: the change request, one entry per page the batch touched, and the files it
    inserted."""
    ctx = context(request)
    cr = ctx.cr
    assert cr is not None  # the CR prefix names one
    compat = query_bool(request, "compat", True)
    body = await json_body(request, max_bytes=MAX_CONTENT_BODY_BYTES)
    user = current_user(request)
    still_active(cr, "edited")
    require_rank(ctx.state, cr, user, "edit", "edit a change request")
    applied = apply_content_changes(ctx.state, cr, body.get("changes"), user)
    rendered = render_change_request(ctx.state, cr)
    if compat:
        return ok(rendered)
    location = f"{ctx.state.api_base}/spaces/{cr['space']}/change-requests/{cr['id']}/content/page/"
    changes: list[Record] = []
    for entry in applied.changes:
        if entry["object"] == "deleted_page":
            changes.append(entry)
            continue
        pid = entry["page"]
        changes.append({**entry, "page": {"object": "page", "id": pid, "urls": {"location": location + pid}}})
    inserted = [render_file(f) for f in applied.inserted_files]
    return ok({"changeRequest": rendered, "changes": changes, "insertedFiles": inserted})
