"""Comments and replies (spec 2.7, 4.10) under a space or a change request: where a request works (its
:class:`Scope`), reading request bodies, the edits a caller may make, and rendering to the wire.

One route handler serves both prefixes: with ``changeRequestId`` in the path (the change request's id or its number
in the space) it works inside that change request, without it on the space's own content. Records live in
``state.comments`` (shape in :mod:`folio.sandbox.state`); replies are kept inside their comment. Transitions
(spec 3): a comment is posted ``open``; ``resolved: true`` makes it ``resolved`` with ``resolvedAt`` and
``resolvedBy``; ``resolved: false`` reopens it. Only the author edits a body; the author or an admin deletes.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from starlette.requests import Request

from folio.models.common import Document, document_text
from folio.sandbox.domain.change_requests import find_change_request
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import current_user, query_choice, state_of
from folio.sandbox.state import Record, SandboxState

EMOJI_MAX = 50
ENTITY_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


class Scope(NamedTuple):
    state: SandboxState
    space: Record
    cr: Record | None
    user: str

    @property
    def cr_id(self) -> str | None:
        return self.cr["id"] if self.cr else None

    @property
    def role(self) -> str | None:
        member = self.state.members.get(self.space["organization"], {}).get(self.user)
        return member.get("role") if member else "none"

    @property
    def can_comment(self) -> bool:
        return self.role not in ("read", "none")


def scope(request: Request) -> Scope:
    state = state_of(request)
    space_id = request.path_params["spaceId"]
    space = state.spaces.get(space_id)
    if space is None or space.get("deletedAt"):
        raise not_found(f"No matching space found for {space_id!r}")
    key = request.path_params.get("changeRequestId")
    cr = find_change_request(state, space_id, key) if key is not None else None
    return Scope(state, space, cr, current_user(request))


def find_comment(sc: Scope, comment_id: str) -> Record:
    record = sc.state.comments.get(comment_id)
    if record is None or record["space"] != sc.space["id"] or record.get("changeRequest") != sc.cr_id:
        raise not_found(f"No matching comment found for {comment_id!r}")
    return record


def find_reply(comment: Record, reply_id: str) -> Record:
    for reply in comment["replies"]:
        if reply["id"] == reply_id:
            return reply
    raise not_found(f"No matching comment reply found for {reply_id!r}")


# --- reading requests ---------------------------------------------------------------------------------------


def doc_format(request: Request) -> str | None:
    return query_choice(request, "format", ("document", "markdown"))


def read_markdown(data: dict[str, Any]) -> str:
    """The text of a request's ``body``: ``{markdown}`` or ``{document}``; 400 when missing or empty."""
    if "body" not in data:
        raise bad_request("body is required")
    value = data["body"]
    if not isinstance(value, dict):
        raise bad_request("body must be an object with markdown")
    if "markdown" in value:
        text = value["markdown"]
        if not isinstance(text, str):
            raise bad_request("body.markdown must be a string")
    elif isinstance(value.get("document"), dict):
        text = document_text(value["document"])
    else:
        raise bad_request("body.markdown is required")
    if not text.strip():
        raise bad_request("body.markdown must not be empty")
    return text


def read_id(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not ENTITY_ID.match(value):
        raise bad_request(f"{name} must be an identifier")
    return value


def read_emojis(data: dict[str, Any], name: str) -> list[str]:
    value = data.get(name)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(e, str) and 0 < len(e) <= EMOJI_MAX for e in value):
        raise bad_request(f"{name} must be an array of emoji (1..{EMOJI_MAX} characters each)")
    return value


def read_edits(sc: Scope, data: dict[str, Any], record: Record) -> tuple[str | None, list[str], list[str]]:
    """The body, added and removed reactions of an update, with the caller's right to make them."""
    text = read_markdown(data) if "body" in data else None
    added, removed = read_emojis(data, "addedReactions"), read_emojis(data, "removedReactions")
    if text is not None and record["postedBy"] != sc.user:
        raise forbidden("Only the author can edit this")
    if (added or removed) and not sc.can_comment:
        raise forbidden("You cannot react in this space")
    return text, added, removed


def apply_edits(sc: Scope, record: Record, text: str | None, added: list[str], removed: list[str]) -> None:
    now = sc.state.now()
    if text is not None:
        record["body"] = text
        record["editedAt"] = now
    reactions: list[Record] = record.setdefault("reactions", [])
    for emoji in added:
        entry = next((r for r in reactions if r["emoji"] == emoji), None)
        if entry is None:
            entry = {"emoji": emoji, "users": []}
            reactions.append(entry)
        if all(u["user"] != sc.user for u in entry["users"]):
            entry["users"].append({"user": sc.user, "reactedAt": now})
    for emoji in removed:
        for entry in reactions:
            if entry["emoji"] == emoji:
                entry["users"] = [u for u in entry["users"] if u["user"] != sc.user]
    record["reactions"] = [r for r in reactions if r["users"]]


def authors_filter(request: Request) -> set[str]:
    raw = request.query_params.getlist("authors") + request.query_params.getlist("authors[]")
    return {part.strip() for item in raw for part in item.split(",") if part.strip()}


# --- rendering ----------------------------------------------------------------------------------------------


def render_body(text: str, fmt: str | None) -> Record:
    if fmt == "document":
        return {"document": Document.from_text(text).model_dump(by_alias=True, exclude_none=True)}
    return {"markdown": text}


def render_reactions(state: SandboxState, reactions: list[Record]) -> list[Record]:
    return [
        {
            "emoji": r["emoji"],
            "count": len(r["users"]),
            "users": [{"user": state.user_json(u["user"]), "reactedAt": u["reactedAt"]} for u in r["users"]],
        }
        for r in reactions
        if r["users"]
    ]


def location(state: SandboxState, record: Record, reply: Record | None = None) -> str:
    base = f"{state.api_base}/spaces/{record['space']}"
    if record.get("changeRequest"):
        base += f"/change-requests/{record['changeRequest']}"
    base += f"/comments/{record['id']}"
    return base + (f"/replies/{reply['id']}" if reply else "")


def permissions(sc: Scope, author: str) -> Record:
    mine = author == sc.user
    return {"view": True, "edit": mine, "reply": sc.can_comment, "delete": mine or sc.role == "admin"}


def repliers(state: SandboxState, replies: list[Record]) -> list[Record]:
    by_user: dict[str, Record] = {}
    for reply in replies:
        entry = by_user.setdefault(reply["postedBy"], {"count": 0, "updatedAt": reply["postedAt"]})
        entry["count"] += 1
        entry["updatedAt"] = max(entry["updatedAt"], reply.get("editedAt") or reply["postedAt"])
    ordered = sorted(by_user.items(), key=lambda kv: kv[1]["updatedAt"], reverse=True)
    return [{"user": state.user_json(uid), "count": e["count"], "updatedAt": e["updatedAt"]} for uid, e in ordered]


def render_target(state: SandboxState, record: Record) -> Record:
    stored = record.get("target") or {}
    space = state.spaces.get(record["space"], {})
    target: Record = {
        "space": record["space"],
        "revision": stored.get("revision") or space.get("revision", ""),
    }
    for key in ("page", "node", "tableCell"):
        if stored.get(key):
            target[key] = dict(stored[key])
    if record.get("changeRequest"):
        target["changeRequest"] = record["changeRequest"]
    return target


def render_comment(sc: Scope, record: Record, fmt: str | None = None) -> Record:
    state = sc.state
    out: Record = {
        "object": "comment",
        "id": record["id"],
        "postedBy": state.user_json(record["postedBy"]),
        "postedAt": record["postedAt"],
        "reactions": render_reactions(state, record.get("reactions") or []),
        "replies": len(record["replies"]),
        "repliers": repliers(state, record["replies"]),
        "body": render_body(record["body"], fmt),
        "target": render_target(state, record),
        "urls": {"location": location(state, record)},
        "permissions": permissions(sc, record["postedBy"]),
        "status": record.get("status") or "open",
    }
    if record.get("editedAt"):
        out["editedAt"] = record["editedAt"]
    if out["status"] == "resolved":
        out["resolvedAt"] = record.get("resolvedAt") or record["postedAt"]
        out["resolvedBy"] = state.user_json(record.get("resolvedBy") or record["postedBy"])
    return out


def render_reply(sc: Scope, comment: Record, reply: Record, fmt: str | None = None) -> Record:
    state = sc.state
    out: Record = {
        "object": "comment-reply",
        "id": reply["id"],
        "postedBy": state.user_json(reply["postedBy"]),
        "postedAt": reply["postedAt"],
        "reactions": render_reactions(state, reply.get("reactions") or []),
        "body": render_body(reply["body"], fmt),
        "urls": {"location": location(state, comment, reply)},
        "permissions": permissions(sc, reply["postedBy"]),
    }
    if reply.get("editedAt"):
        out["editedAt"] = reply["editedAt"]
    return out
