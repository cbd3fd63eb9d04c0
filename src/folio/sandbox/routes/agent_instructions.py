"""Sandbox routes: the organization's agent instructions (spec 2.12, 4.4b). Members read them; admins
replace them. Before any write an organization has an empty document, dated at its creation."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import require_member
from folio.sandbox.errors import bad_request
from folio.sandbox.http import RouteSpec, json_body, ok, route
from folio.sandbox.state import Record, SandboxState


def _render_instructions(state: SandboxState, org_id: str) -> Record:
    rec = state.agent_instructions.get(org_id) or {
        "instructions": {"object": "document", "data": {"schemaVersion": 1}, "nodes": []},
        "updatedAt": state.orgs[org_id]["createdAt"],
        "updatedBy": "",
    }
    return {
        "object": "agent-instructions",
        "instructions": rec["instructions"],
        "updatedAt": rec["updatedAt"],
        "updatedBy": rec.get("updatedBy") or "",
        "urls": {"location": f"{state.api_base}/orgs/{org_id}/agent-instructions"},
    }


@route("GET", "/orgs/{organizationId}/agent-instructions")
async def get_agent_instructions(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    return ok(_render_instructions(state, org_id))


@route("PUT", "/orgs/{organizationId}/agent-instructions")
async def put_agent_instructions(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    doc = (await json_body(request)).get("instructions")
    if not isinstance(doc, dict) or doc.get("object") != "document" or not isinstance(doc.get("nodes"), list):
        raise bad_request("instructions must be a document: {object: document, data, nodes: [...]}")
    doc = {**doc, "data": doc.get("data") if isinstance(doc.get("data"), dict) else {}}
    state.agent_instructions[org_id] = {"instructions": doc, "updatedAt": state.now(), "updatedBy": uid}
    return ok(_render_instructions(state, org_id))


routes: list[RouteSpec] = [get_agent_instructions, put_agent_instructions]
