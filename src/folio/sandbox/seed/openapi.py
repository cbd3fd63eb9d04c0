"""Seed: imported OpenAPI specs of the demo organization with their versions (their life is in
:mod:`folio.sandbox.domain.openapi`).

Demo data: ``petstore`` (public, three versions, each with operations added or changed), ``billing-api`` (from
text, two versions), ``partner-gateway`` (its last fetch timed out: ``FETCH_TIMEOUT`` with
``lastProcessedErrors``), ``search-v2`` (updated 6 seconds before the seed's now and not read since: stored
``pending``, its processing ends at the seed's now, so the first read completes it). ``scale`` adds that many
processed specs ``generated-00000``...
"""

from __future__ import annotations

from datetime import timedelta

from folio.sandbox.domain.openapi import add_version, finish, new_spec
from folio.sandbox.state import Record, SandboxState

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
    """The petstore's description at ``version``: 1.0.18 adds ``GET /pet/findByStatus``; 1.0.19 also rewords the
    summary of ``DELETE /pet/{petId}`` (so comparing versions shows operations added and changed)."""
    paths: Record = {
        "/pet": {"post": {"summary": "Add a new pet"}, "put": {"summary": "Update an existing pet"}},
        "/pet/{petId}": {"get": {"summary": "Find pet by ID"}, "delete": {"summary": "Delete a pet"}},
        "/store/inventory": {"get": {"summary": "Returns pet inventories by status"}},
    }
    if version >= "1.0.18":
        paths["/pet/findByStatus"] = {"get": {"summary": "Finds pets by status"}}
    if version >= "1.0.19":
        paths["/pet/{petId}"]["delete"] = {"summary": "Deletes a pet and its photos"}
    return {"openapi": "3.0.3", "info": {"title": "Swagger Petstore", "version": version}, "paths": paths}


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
    finish(state, pet, ago(days=7, minutes=-2))

    billing = new_spec(state, org, "billing-api", {"text": BILLING_YAML.format(version="2.3.0")}, at=ago(days=45))
    add_version(state, org, billing, at=ago(days=45), pending=False)
    billing["source"] = {"text": BILLING_YAML.format(version="2.4.0")}
    add_version(state, org, billing, at=ago(days=3), pending=False)
    billing["updatedAt"] = ago(days=3)
    finish(state, billing, ago(days=3, minutes=-1))

    partner = new_spec(
        state,
        org,
        "partner-gateway",
        {"url": "https://timeout.partners.northwind.dev/openapi.yaml"},
        at=ago(days=20),
    )
    add_version(state, org, partner, at=ago(days=20), pending=False)
    partner["updatedAt"] = ago(days=1)
    finish(state, partner, ago(days=1))

    search = new_spec(
        state, org, "search-v2", {"url": "https://api.northwind.dev/search/v2/openapi.json"}, at=ago(days=30)
    )
    add_version(state, org, search, at=ago(days=30), pending=False)
    finish(state, search, ago(days=30))
    add_version(state, org, search, at=ago(seconds=6))  # its processing ends at the seed's now
    search["updatedAt"] = ago(seconds=6)

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
