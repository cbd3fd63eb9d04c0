"""Sandbox routes: translations of spaces (spec section 4.12). Members read them; ``admin`` and ``create``
members create, change, delete and run them. Records and runs are in :mod:`folio.sandbox.domain.translations`.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import can_edit, org_access
from folio.sandbox.domain.translations import LANGUAGES, new_translation, render, settle, start_run
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import RouteSpec, created, deleted, empty, json_body, ok, route
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record, SandboxState

BASE = "/orgs/{organizationId}/translations"


def _check_document(value: Any, name: str) -> Record:
    if not isinstance(value, dict) or value.get("object", "document") != "document":
        raise bad_request(f"{name} must be a document (object = document)")
    if not isinstance(value.get("nodes", []), list) or not isinstance(value.get("data", {}), dict):
        raise bad_request(f"{name} must hold a nodes array and a data object")
    return {"object": "document", "data": value.get("data", {}), "nodes": value.get("nodes", [])}


def _language(value: Any, name: str) -> str:
    if value not in LANGUAGES:
        raise bad_request(f"{name} must be one of the supported languages ({', '.join(LANGUAGES[:6])}...)")
    return str(value)


def _find(state: SandboxState, org_id: str, translation_id: str) -> Record | None:
    rec = state.translations.get(translation_id)
    return rec if rec is not None and rec["organization"] == org_id else None


def _get(state: SandboxState, org_id: str, translation_id: str) -> Record:
    rec = _find(state, org_id, translation_id)
    if rec is None:
        raise not_found(f"No matching translation found for {translation_id!r}")
    return rec


def _require_edit(member: Record) -> None:
    if not can_edit(member):
        raise forbidden("You cannot manage the translations of this organization")


@route("GET", BASE)
async def list_translations(request: Request) -> Response:
    state, org_id, member = org_access(request)
    items = [t for t in state.translations.values() if t["organization"] == org_id]
    items.sort(key=lambda t: (t["createdAt"], t["id"]), reverse=True)
    return ok(paginate(request, items, lambda t: render(state, settle(state, t), member)))


@route("POST", BASE)
async def create_translation(request: Request) -> Response:
    state, org_id, member = org_access(request)
    body = await json_body(request)
    if "language" not in body:
        raise bad_request("language is required")
    language = _language(body["language"], "language")
    source = body.get("source")
    if source is None:
        raise bad_request("source is required")
    if not isinstance(source, dict):
        raise bad_request("source must be an object {space, language}")
    space_id = source.get("space")
    if not isinstance(space_id, str) or not space_id:
        raise bad_request("source.space must be a space id")
    source_language = _language(source.get("language"), "source.language")
    if source_language == language:
        raise bad_request("language must differ from source.language")
    space = state.spaces.get(space_id)
    if space is None or space.get("organization") != org_id or space.get("deletedAt"):
        raise bad_request(f"source.space {space_id!r} is not a space of this organization")
    instructions = _check_document(body["instructions"], "instructions") if "instructions" in body else None
    _require_edit(member)
    rec = new_translation(
        state,
        org_id,
        space=space_id,
        source_language=source_language,
        language=language,
        instructions=instructions,
    )
    return created(render(state, rec, member))


@route("GET", BASE + "/{translationId}")
async def get_translation(request: Request) -> Response:
    state, org_id, member = org_access(request)
    rec = settle(state, _get(state, org_id, request.path_params["translationId"]))
    return ok(render(state, rec, member))


@route("PUT", BASE + "/{translationId}")
async def update_translation(request: Request) -> Response:
    state, org_id, member = org_access(request)
    rec = settle(state, _get(state, org_id, request.path_params["translationId"]))
    body = await json_body(request)
    if "instructions" not in body:
        raise bad_request("instructions is required")
    instructions = _check_document(body["instructions"], "instructions")
    _require_edit(member)
    rec["instructions"] = instructions
    rec["updatedAt"] = state.now()
    return ok(render(state, rec, member))


@route("DELETE", BASE + "/{translationId}")
async def delete_translation(request: Request) -> Response:
    state, org_id, member = org_access(request)
    _require_edit(member)
    translation_id = request.path_params["translationId"]
    existed = _find(state, org_id, translation_id) is not None
    if existed:
        del state.translations[translation_id]
    return deleted(existed)


@route("POST", BASE + "/{translationId}/run")
async def run_translation(request: Request) -> Response:
    state, org_id, member = org_access(request)
    rec = _get(state, org_id, request.path_params["translationId"])
    _require_edit(member)
    start_run(state, rec)
    return empty(204)


routes: list[RouteSpec] = [
    list_translations,
    create_translation,
    get_translation,
    update_translation,
    delete_translation,
    run_translation,
]
