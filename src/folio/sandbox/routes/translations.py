"""Sandbox routes: translations of spaces (spec section 4.12).

Records: ``state.translations[id]`` = ``{id, organization, status, language, source {space, language},
instructions, createdAt, updatedAt, stats, result, resultSpace}``.

Status, deterministically: a new translation is ``pending`` (its first run is queued); ``run`` (204) makes
it ``running`` and adds one to ``stats.runs``. The next request that reads it (get, list, update) finishes
the run: ``completed``, ``result`` set to a fresh revision in the target space, ``latest*`` stats from the
source space's pages (counted in its current revision when the spaces area has one) and totals grown. A
``pending`` one counts its queued first run as it completes. The target space is named by id only (the
sandbox does not create it).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import RouteSpec, created, deleted, empty, json_body, ok, route
from folio.sandbox.paging import paginate
from folio.sandbox.routes.openapi import can_edit, org_access
from folio.sandbox.state import Record, SandboxState

BASE = "/orgs/{organizationId}/translations"
LANGUAGES = (
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko",
    "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th",
    "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
)  # fmt: skip
EMPTY_STATS = {
    "runs": 0,
    "totalWords": 0,
    "totalPages": 0,
    "totalDuration": 0,
    "latestRunDuration": 0,
    "latestPages": 0,
    "latestWords": 0,
}


def empty_document() -> Record:
    return {"object": "document", "data": {}, "nodes": []}


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


def new_translation(
    state: SandboxState,
    org_id: str,
    *,
    space: str,
    source_language: str,
    language: str,
    instructions: Record | None = None,
    at: str | None = None,
) -> Record:
    when = at or state.now()
    tid = state.new_id()
    state.translations[tid] = {
        "id": tid,
        "organization": org_id,
        "status": "pending",
        "language": language,
        "source": {"space": space, "language": source_language},
        "instructions": instructions or empty_document(),
        "createdAt": when,
        "updatedAt": when,
        "stats": dict(EMPTY_STATS),
        "result": None,
        "resultSpace": state.new_id(),
    }
    return state.translations[tid]


def _source_size(state: SandboxState, space_id: str) -> tuple[int, int]:
    """(pages, words) of the source space's current revision; a small default when there is none."""
    space = state.spaces.get(space_id) or {}
    revision = state.revisions.get(space.get("revision") or "") or {}
    pages, words = 0, 0
    stack = list(revision.get("pages") or [])
    while stack:
        page = stack.pop()
        pages += 1
        words += len(str(page.get("markdown") or page.get("description") or page.get("title") or "").split())
        stack.extend(page.get("pages") or [])
    if pages == 0:
        return 6, 2400
    return pages, max(words, pages * 120)


def start_run(state: SandboxState, rec: Record, at: str | None = None) -> None:
    rec["status"] = "running"
    rec["stats"]["runs"] += 1
    rec["updatedAt"] = at or state.now()


def settle(state: SandboxState, rec: Record, at: str | None = None) -> Record:
    """Finish a queued or running run (see the module docstring)."""
    if rec["status"] == "pending":
        start_run(state, rec, at)
    if rec["status"] == "running":
        pages, words = _source_size(state, rec["source"]["space"])
        duration = 20 + 3 * pages
        stats = rec["stats"]
        stats.update(
            latestPages=pages,
            latestWords=words,
            latestRunDuration=duration,
            totalPages=max(stats["totalPages"], pages),
            totalWords=stats["totalWords"] + words,
            totalDuration=stats["totalDuration"] + duration,
        )
        rec["status"] = "completed"
        rec["result"] = {"space": rec["resultSpace"], "revision": state.new_id(), "language": rec["language"]}
        rec["updatedAt"] = at or state.now()
    return rec


def render(state: SandboxState, rec: Record, member: Record) -> Record:
    out: Record = {
        "object": "translation",
        "id": rec["id"],
        "status": rec["status"],
        "source": dict(rec["source"]),
        "language": rec["language"],
        "instructions": rec["instructions"],
        "createdAt": rec["createdAt"],
        "updatedAt": rec["updatedAt"],
        "stats": dict(rec["stats"]),
        "permissions": {"view": True, "edit": can_edit(member)},
        "urls": {"location": f"{state.api_base}/orgs/{rec['organization']}/translations/{rec['id']}"},
    }
    if rec.get("result"):
        out["result"] = dict(rec["result"])
    return out


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
