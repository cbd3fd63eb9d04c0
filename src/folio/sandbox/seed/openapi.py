"""Seed: imported OpenAPI specs of the demo organization with their versions; and the records' life, which the
routes share: making a spec, adding a version, processing it.

Demo data: ``petstore`` (public, three versions), ``billing-api`` (from text, two versions),
``partner-gateway`` (its last fetch timed out: ``FETCH_TIMEOUT`` with ``lastProcessedErrors``), ``search-v2``
(just updated, still ``pending``: it completes on its next read). ``scale`` adds that many processed specs
``generated-00000``...

Processing outcome, from the source alone: a url whose host contains ``timeout`` fails with ``FETCH_TIMEOUT``,
a host ending in ``.invalid`` with ``FETCH_ERROR``; a text that is not valid JSON, or not YAML naming
``openapi:``/``swagger:``, with ``PARSE_ERROR``; anything else processes cleanly.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from folio.sandbox.state import Record, SandboxState


def _document_of(slug: str, source: Record) -> Any:
    if "text" in source:
        text = source["text"].strip()
        try:
            return json.loads(text)
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
    return version


def process_outcome(source: Record) -> tuple[str | None, list[Record]]:
    """(error code, errors) the processing of a source ends with; (None, []) when it succeeds."""
    if "url" in source:
        host = urlsplit(source["url"]).hostname or ""
        if "timeout" in host:
            return "FETCH_TIMEOUT", [
                {"message": f"Fetching {source['url']} timed out after 30 seconds", "code": "FETCH_TIMEOUT"}
            ]
        if host.endswith(".invalid"):
            return "FETCH_ERROR", [{"message": f"Could not resolve host {host}", "code": "FETCH_ERROR"}]
        return None, []
    text = source.get("text", "").strip()
    if text.startswith("{"):
        try:
            json.loads(text)
        except ValueError as exc:
            return "PARSE_ERROR", [{"message": f"Invalid JSON: {exc}", "code": "PARSE_ERROR"}]
        return None, []
    if re.search(r"^(openapi|swagger)\s*:", text, re.MULTILINE):
        return None, []
    return "PARSE_ERROR", [{"message": "The text is not an OpenAPI or Swagger description", "code": "PARSE_ERROR"}]


def settle(state: SandboxState, rec: Record) -> Record:
    """Finish the processing of a pending spec (see the module docstring)."""
    if rec.get("processingState") in ("pending", "progress"):
        code, problems = process_outcome(rec["source"])
        rec["processingState"] = "complete"
        rec["lastProcessedAt"] = state.now()
        rec["lastProcessErrorCode"] = code
        rec["lastProcessedErrors"] = problems
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


BILLING_YAML = """openapi: 3.1.0
info:
  title: Northwind Billing
  version: {version}
paths:
  /invoices:
    get:
      summary: List invoices
  /invoices/{{invoiceId}}:
    get:
      summary: Get an invoice
"""


def _petstore(version: str) -> Record:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Swagger Petstore", "version": version},
        "paths": {
            "/pet": {"post": {"summary": "Add a new pet"}, "put": {"summary": "Update an existing pet"}},
            "/pet/{petId}": {"get": {"summary": "Find pet by ID"}, "delete": {"summary": "Delete a pet"}},
            "/store/inventory": {"get": {"summary": "Returns pet inventories by status"}},
        },
    }


def _finish(state: SandboxState, rec: Record, at: str) -> None:
    code, problems = process_outcome(rec["source"])
    rec.update(
        processingState="complete",
        lastProcessedAt=at,
        lastProcessErrorCode=code,
        lastProcessedErrors=problems,
    )


def seed(state: SandboxState, *, scale: int = 0) -> None:
    org = state.demo_org
    if not org:
        return
    now = state.clock.now()

    def ago(**delta: float) -> str:
        return state.clock.iso(now - timedelta(**delta))

    pet = new_spec(
        state, org, "petstore", {"url": "https://petstore3.swagger.io/api/v3/openapi.json"}, at=ago(days=120)
    )
    for days, version in ((120, "1.0.17"), (60, "1.0.18"), (7, "1.0.19")):
        add_version(state, org, pet, document=_petstore(version), at=ago(days=days), pending=False)
    pet.update(visibility="public", updatedAt=ago(days=7))
    _finish(state, pet, ago(days=7, minutes=-2))

    billing = new_spec(state, org, "billing-api", {"text": BILLING_YAML.format(version="2.3.0")}, at=ago(days=45))
    add_version(state, org, billing, at=ago(days=45), pending=False)
    billing["source"] = {"text": BILLING_YAML.format(version="2.4.0")}
    add_version(state, org, billing, at=ago(days=3), pending=False)
    billing["updatedAt"] = ago(days=3)
    _finish(state, billing, ago(days=3, minutes=-1))

    partner = new_spec(
        state,
        org,
        "partner-gateway",
        {"url": "https://timeout.partners.northwind.dev/openapi.yaml"},
        at=ago(days=20),
    )
    add_version(state, org, partner, at=ago(days=20), pending=False)
    partner["updatedAt"] = ago(days=1)
    _finish(state, partner, ago(days=1))

    search = new_spec(
        state, org, "search-v2", {"url": "https://api.northwind.dev/search/v2/openapi.json"}, at=ago(days=30)
    )
    add_version(state, org, search, at=ago(days=30), pending=False)
    _finish(state, search, ago(days=30))
    add_version(state, org, search, at=ago(minutes=4))  # a fresh update: pending until its next read
    search["updatedAt"] = ago(minutes=4)

    for n in range(scale):
        at = ago(hours=n + 1)
        rec = new_spec(
            state,
            org,
            f"generated-{n:05d}",
            {"url": f"https://specs.northwind.dev/generated/{n:05d}.json"},
            at=at,
        )
        add_version(state, org, rec, at=at, pending=False)
        rec.update(processingState="complete", lastProcessedAt=at)
