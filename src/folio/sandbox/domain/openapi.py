"""Imported OpenAPI specs of an organization (spec 2.9, 4.1) and their versions: records, rendering, and the
processing of a source.

Records live in ``state.openapi_specs[org][slug]``: ``{id, slug, createdAt, updatedAt, source ({url} or
{text}), visibility, processingState, lastProcessedAt, lastProcessErrorCode, lastProcessedErrors,
versions: [...]}``; a version is ``{id, createdAt, url, document}``.

Processing runs over the sandbox's clock (:mod:`folio.sandbox.clock`; tests freeze and advance it). Every
write of a source (POST, PUT: a PUT on an existing slug is an update) adds a version, points ``lastVersion`` at
it and starts processing it (``processingSince``):

    0 s  .. 2 s     pending      (queued: what the write answers)
    2 s  .. 6 s     progress
    6 s  ..         complete     lastProcessedAt = the write + 6 s; lastProcessErrorCode and lastProcessedErrors
                                 set (a failure) or cleared (a success)

The state is worked out from the clock whenever the spec is read, listed or patched, so it is the same however
often it is asked. The description's ``processingState`` knows only pending, progress and complete: a failed
run is ``complete`` with its error code and errors (spec 7, rule 2), and the previous run's outcome shows until
the new run completes.

Outcome, from the source alone (case-insensitive):

- a url containing ``timeout``: ``FETCH_TIMEOUT`` ("Fetching <url> timed out after 30 seconds");
- a url whose host ends in ``.invalid``, or containing ``fail``: ``FETCH_ERROR`` (the fetch failed);
- a url containing ``invalid`` elsewhere (``.../openapi-invalid.json``): ``PARSE_ERROR``, with two errors (the
  document was fetched but is not a valid description);
- a text that is not valid JSON (when it starts with ``{``), or not YAML naming ``openapi:``/``swagger:``:
  ``PARSE_ERROR``;
- anything else processes cleanly.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from folio.sandbox.clock import parse_iso
from folio.sandbox.domain.access import can_edit
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.http import parse_json
from folio.sandbox.state import Record, SandboxState

SLUG_RE = re.compile(r"^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$")
URL_MAX = 2048
QUEUED_FOR = timedelta(seconds=2)
"""How long a written source waits ``pending`` before its processing starts."""
PROCESSING_FOR = timedelta(seconds=4)
"""How long processing runs (``progress``) before it is ``complete``."""


def _document_of(slug: str, source: Record) -> Any:
    if "text" in source:
        text = source["text"].strip()
        try:
            return parse_json(text)
        except ValueError:
            return text
    return {"openapi": "3.1.0", "info": {"title": slug, "version": "1.0.0"}, "paths": {}}


def add_version(
    state: SandboxState,
    org_id: str,
    rec: Record,
    *,
    document: Any = None,
    at: str | None = None,
    pending: bool = True,
) -> Record:
    """A new version for the spec's current source; the spec is ``pending`` again unless said otherwise."""
    vid = state.new_id()
    source = rec["source"]
    url = source.get("url") or (f"{state.api_base}/orgs/{org_id}/openapi/{rec['slug']}/versions/{vid}/content/raw")
    version = {
        "id": vid,
        "createdAt": at or state.now(),
        "url": url,
        "document": document if document is not None else _document_of(rec["slug"], source),
    }
    rec["versions"].append(version)
    rec["lastVersion"] = vid
    if pending:
        rec["processingState"] = "pending"
        rec["processingSince"] = version["createdAt"]
    return version


def process_outcome(source: Record) -> tuple[str | None, list[Record]]:
    """(error code, errors) the processing of a source ends with; (None, []) when it succeeds."""
    if "url" in source:
        url = source["url"]
        lowered, host = url.lower(), (urlsplit(url).hostname or "").lower()
        if "timeout" in lowered:
            return "FETCH_TIMEOUT", [{"message": f"Fetching {url} timed out after 30 seconds", "code": "FETCH_TIMEOUT"}]
        if host.endswith(".invalid"):
            return "FETCH_ERROR", [{"message": f"Could not resolve host {host}", "code": "FETCH_ERROR"}]
        if "fail" in lowered:
            return "FETCH_ERROR", [
                {"message": f"Fetching {url} failed: the server answered 502", "code": "FETCH_ERROR"}
            ]
        if "invalid" in lowered:
            return "PARSE_ERROR", [
                {"message": "info.version is required", "code": "PARSE_ERROR"},
                {"message": "paths./robots.get.responses is required", "code": "PARSE_ERROR"},
            ]
        return None, []
    text = source.get("text", "").strip()
    if text.startswith("{"):
        try:
            parse_json(text)
        except ValueError as exc:
            return "PARSE_ERROR", [{"message": f"The text is {exc}", "code": "PARSE_ERROR"}]
        return None, []
    if re.search(r"^(openapi|swagger)\s*:", text, re.MULTILINE):
        return None, []
    return "PARSE_ERROR", [{"message": "The text is not an OpenAPI or Swagger description", "code": "PARSE_ERROR"}]


def settle(state: SandboxState, rec: Record) -> Record:
    """The spec as its processing stands at the sandbox's now (see the module docstring)."""
    if rec.get("processingState") not in ("pending", "progress"):
        return rec
    since = parse_iso(rec.get("processingSince") or rec["updatedAt"])
    elapsed = state.clock.now() - since
    if elapsed < QUEUED_FOR:
        rec["processingState"] = "pending"
    elif elapsed < QUEUED_FOR + PROCESSING_FOR:
        rec["processingState"] = "progress"
    else:
        finish(state, rec, state.clock.iso(since + QUEUED_FOR + PROCESSING_FOR))
    return rec


def new_spec(state: SandboxState, org_id: str, slug: str, source: Record, *, at: str | None = None) -> Record:
    when = at or state.now()
    rec: Record = {
        "id": state.new_id(),
        "slug": slug,
        "createdAt": when,
        "updatedAt": when,
        "source": source,
        "visibility": "private",
        "processingState": "pending",
        "lastProcessedErrors": [],
        "versions": [],
    }
    state.openapi_specs[org_id][slug] = rec
    return rec


def finish(state: SandboxState, rec: Record, at: str) -> None:
    """The end of a processing run at ``at``: ``complete``, with the source's outcome."""
    code, problems = process_outcome(rec["source"])
    rec.update(
        processingState="complete",
        lastProcessedAt=at,
        lastProcessErrorCode=code,
        lastProcessedErrors=problems,
    )


# --- request bodies -----------------------------------------------------------------------------------------


def check_uri(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise bad_request(f"{name} must be a string")
    if len(value) > URL_MAX:
        raise bad_request(f"{name} must be at most {URL_MAX} characters")
    parts = urlsplit(value)
    if not parts.scheme or not parts.netloc:
        raise bad_request(f"{name} must be an absolute URI")
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value):
        raise bad_request(f"{name} must be a URI: it has a space or a control character")
    return value


def parse_source(body: dict[str, Any]) -> Record:
    """The ``source`` one-of: ``{url}`` or ``{text}``."""
    if "source" not in body:
        raise bad_request("source is required")
    source = body["source"]
    if not isinstance(source, dict):
        raise bad_request("source must be an object: {url} or {text}")
    if "url" in source:
        return {"url": check_uri("source.url", source["url"])}
    if "text" in source:
        text = source["text"]
        if not isinstance(text, str) or not text:
            raise bad_request("source.text must be a non-empty string")
        return {"text": text}
    raise bad_request("source must be one of {url} or {text}")


# --- rendering ----------------------------------------------------------------------------------------------


def spec_urls(state: SandboxState, org_id: str, rec: Record) -> Record:
    urls = {
        "location": f"{state.api_base}/orgs/{org_id}/openapi/{rec['slug']}",
        "app": f"{state.app_base}/o/{org_id}/openapi/{rec['slug']}",
    }
    if rec.get("visibility") == "public":
        urls["published"] = f"{state.app_base}/public/openapi/{org_id}/{rec['slug']}"
    return urls


def render_spec(state: SandboxState, org_id: str, rec: Record, member: Record) -> Record:
    problems = list(rec.get("lastProcessedErrors") or [])
    out: Record = {
        "object": "openapi-spec",
        "id": rec["id"],
        "createdAt": rec["createdAt"],
        "updatedAt": rec["updatedAt"],
        "slug": rec["slug"],
        "processingState": rec["processingState"],
        "visibility": rec.get("visibility", "private"),
        "lastProcessedErrors": problems,
        "lastProcessedErrorCount": len(problems),
        "permissions": {"view": True, "edit": can_edit(member)},
        "urls": spec_urls(state, org_id, rec),
    }
    if "url" in rec["source"]:
        out["sourceURL"] = rec["source"]["url"]
    for key in ("lastVersion", "lastProcessedAt", "lastProcessErrorCode"):
        if rec.get(key) is not None:
            out[key] = rec[key]
    return out


def render_version(state: SandboxState, org_id: str, rec: Record, version: Record) -> Record:
    return {
        "object": "openapi-spec-version",
        "id": version["id"],
        "createdAt": version["createdAt"],
        "url": version["url"],
        "urls": {"location": f"{state.api_base}/orgs/{org_id}/openapi/{rec['slug']}/versions/{version['id']}"},
    }


def render_content(state: SandboxState, org_id: str, rec: Record, version: Record) -> Record:
    name = "openapi.json" if isinstance(version["document"], dict) else "openapi.yaml"
    public = spec_urls(state, org_id, rec).get("published")
    return {
        "filesystem": {"entrypoint": name, "files": {name: version["document"]}},
        "url": version["url"],
        "urls": {"source": version["url"], "public": public},
    }


# --- lookups ------------------------------------------------------------------------------------------------


def find_spec(state: SandboxState, org_id: str, slug: str) -> Record:
    rec = state.openapi_specs.get(org_id, {}).get(slug)
    if rec is None:
        raise not_found(f"No matching OpenAPI specification found for {slug!r}")
    return settle(state, rec)


def find_version(rec: Record, version_id: str | None) -> Record:
    versions = rec.get("versions") or []
    if version_id is None:
        match = next((v for v in versions if v["id"] == rec.get("lastVersion")), None)
        match = match or (versions[-1] if versions else None)
    else:
        match = next((v for v in versions if v["id"] == version_id), None)
    if match is None:
        raise not_found(f"No matching OpenAPI specification version found for {version_id or 'latest'!r}")
    return match
