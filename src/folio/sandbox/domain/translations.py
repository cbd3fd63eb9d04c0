"""Translations of spaces (spec 2.11, 4.12): records, their runs, rendering.

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

from folio.sandbox.domain.access import can_edit
from folio.sandbox.state import Record, SandboxState

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
