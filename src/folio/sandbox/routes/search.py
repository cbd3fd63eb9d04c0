"""Sandbox routes: searching an organization's content (spec 4.4b) and a space's (4.7). The query is required
and at most 512 characters (spec 8); the matching rules are in :mod:`folio.sandbox.domain.search`."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import require_member
from folio.sandbox.domain.search import search, search_organization
from folio.sandbox.domain.spaces import find_space
from folio.sandbox.errors import bad_request
from folio.sandbox.http import RouteSpec, ok, route, state_of
from folio.sandbox.paging import paginate

QUERY_MAX = 512


def _query(request: Request) -> str:
    query = request.query_params.get("query")
    if query is None or not query.strip():
        raise bad_request("query is required")
    if len(query) > QUERY_MAX:
        raise bad_request(f"query must be at most {QUERY_MAX} characters")
    return query.strip()


@route("GET", "/orgs/{organizationId}/search")
async def search_org(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    return ok(paginate(request, search_organization(state, org_id, _query(request))))


@route("GET", "/spaces/{spaceId}/search")
async def search_space(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    return ok(paginate(request, search(state, space, _query(request))))


routes: list[RouteSpec] = [search_org, search_space]
