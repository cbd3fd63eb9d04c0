"""The content lifecycle of spaces and collections (spec 2.5, 3, 4.7-4.9): moves reorder and re-parent and the
lists follow; a deleted space leaves the lists, still reads with ``deletedAt``, comes back whole within 7 days
of the sandbox's clock and is gone for good after; searching an organization or a space answers over page
titles and section text, in the documented shapes, paged. Raw HTTP through ``httpx.ASGITransport``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from folio.sandbox import SandboxState
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
async def http(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(transport=transport, base_url=SANDBOX_URL + "/v1", headers=headers) as client:
        yield client


def space(state: SandboxState, title: str) -> str:
    return str(next(s["id"] for s in state.spaces.values() if s["title"] == title))


def collection(state: SandboxState, title: str) -> str:
    return str(next(c["id"] for c in state.collections.values() if c["title"] == title))


async def every(http: httpx.AsyncClient, path: str, **params: Any) -> list[dict[str, Any]]:
    """Every item of a list, following ``next.page`` (a small ``limit`` to cross pages)."""
    items: list[dict[str, Any]] = []
    query = {"limit": 3, **params}
    while True:
        response = await http.get(path, params=query)
        assert response.status_code == 200, response.text[:300]
        body = response.json()
        assert body["count"] >= len(body["items"])
        items += body["items"]
        if "next" not in body:
            return items
        query["page"] = body["next"]["page"]


async def titles(http: httpx.AsyncClient, path: str, **params: Any) -> list[str]:
    return [item["title"] for item in await every(http, path, **params)]


def pointer(state: SandboxState, title: str) -> dict[str, str]:
    return {"type": "space", "space": space(state, title)}


# --- moves --------------------------------------------------------------------------------------------------


async def test_a_space_moves_before_and_after_its_siblings(http: httpx.AsyncClient, state: SandboxState) -> None:
    guides = collection(state, "Guides")
    path = f"/collections/{guides}/spaces"
    assert await titles(http, path) == ["Getting Started", "User Guide", "Admin Handbook"]
    handbook = space(state, "Admin Handbook")
    first = {"before": pointer(state, "Getting Started")}
    moved = await http.post(f"/spaces/{handbook}/move", json={"position": first})
    assert moved.status_code == 200 and moved.json()["parent"] == guides
    assert await titles(http, path) == ["Admin Handbook", "Getting Started", "User Guide"]
    await http.post(
        f"/spaces/{space(state, 'Admin Handbook')}/move", json={"position": {"after": pointer(state, "User Guide")}}
    )
    assert await titles(http, path) == ["Getting Started", "User Guide", "Admin Handbook"]
    both = {"after": pointer(state, "Getting Started"), "before": pointer(state, "User Guide")}
    await http.post(f"/spaces/{space(state, 'Admin Handbook')}/move", json={"position": both})
    assert await titles(http, path) == ["Getting Started", "Admin Handbook", "User Guide"]
    org_order = await titles(http, f"/orgs/{state.demo_org}/spaces")
    assert org_order[:3] == ["Getting Started", "Admin Handbook", "User Guide"]


async def test_a_space_moves_into_another_collection(http: httpx.AsyncClient, state: SandboxState) -> None:
    guides, reference = collection(state, "Guides"), collection(state, "Reference")
    sid = space(state, "User Guide")
    moved = await http.post(
        f"/spaces/{sid}/move", json={"parent": reference, "position": {"after": pointer(state, "REST API Reference")}}
    )
    assert moved.status_code == 200 and moved.json()["parent"] == reference
    assert await titles(http, f"/collections/{reference}/spaces") == [
        "REST API Reference",
        "User Guide",
        "SDK Reference",
    ]
    assert await titles(http, f"/collections/{guides}/spaces") == ["Getting Started", "Admin Handbook"]
    to_root = await http.post(f"/spaces/{sid}/move", json={"parent": None})
    assert to_root.status_code == 200 and "parent" not in to_root.json()
    org_order = await titles(http, f"/orgs/{state.demo_org}/spaces")
    assert org_order[-1] == "User Guide"  # the end of the root, after Scratchpad
    assert org_order.index("Getting Started") < org_order.index("REST API Reference")  # the rest keeps its order


async def test_the_organization_list_is_in_sidebar_order(http: httpx.AsyncClient, state: SandboxState) -> None:
    before = await titles(http, f"/orgs/{state.demo_org}/spaces")
    company = collection(state, "Company")
    await http.post(
        f"/spaces/{space(state, 'Brand Guidelines')}/move", json={"position": {"before": pointer(state, "Onboarding")}}
    )
    after = await titles(http, f"/orgs/{state.demo_org}/spaces")
    swapped = [t if t not in ("Onboarding", "Brand Guidelines") else "*" for t in before]
    assert [t if t not in ("Onboarding", "Brand Guidelines") else "*" for t in after] == swapped
    assert after.index("Brand Guidelines") == before.index("Onboarding")
    assert await titles(http, f"/collections/{company}/spaces") == ["Brand Guidelines", "Onboarding"]


async def test_collections_move_and_re_parent(http: httpx.AsyncClient, state: SandboxState) -> None:
    org, product, engineering, company = (
        state.demo_org,
        collection(state, "Product"),
        collection(state, "Engineering"),
        collection(state, "Company"),
    )
    root = f"/orgs/{org}/collections"
    assert await titles(http, root, nested="false") == ["Product", "Engineering", "Company"]
    moved = await http.post(
        f"/collections/{company}/move", json={"position": {"before": {"type": "collection", "collection": product}}}
    )
    assert moved.status_code == 200
    assert await titles(http, root, nested="false") == ["Company", "Product", "Engineering"]
    assert (await titles(http, f"/orgs/{org}/spaces"))[:2] == ["Onboarding", "Brand Guidelines"]
    into = await http.post(f"/collections/{company}/move", json={"parent": engineering})
    assert into.status_code == 200 and into.json()["parent"] == engineering
    assert await titles(http, root, nested="false") == ["Product", "Engineering"]
    nested = await titles(http, root)
    assert nested.index("Company") > nested.index("Engineering") and nested.index("Company") > nested.index("Runbooks")
    spaces = await titles(http, f"/orgs/{org}/spaces")
    assert spaces.index("Onboarding") > spaces.index("Architecture Decisions")


async def test_moves_that_cannot_be_made(http: httpx.AsyncClient, state: SandboxState) -> None:
    sid, guides = space(state, "Getting Started"), collection(state, "Guides")
    itself = await http.post(f"/spaces/{sid}/move", json={"position": {"before": pointer(state, "Getting Started")}})
    assert itself.status_code == 400
    same = await http.post(f"/spaces/{sid}/move", json={"position": {"before": pointer(state, "User Guide")}})
    assert same.status_code == 409 and same.json()["error"]["code"] == 409
    stranger = {"before": {"type": "space", "space": "no-such-space"}}
    assert (await http.post(f"/spaces/{sid}/move", json={"position": stranger})).status_code == 400
    assert (await http.post("/spaces/no-such-space/move", json={"parent": None})).status_code == 404
    loop = await http.post(f"/collections/{collection(state, 'Product')}/move", json={"parent": guides})
    assert loop.status_code == 400
    assert await titles(http, f"/collections/{guides}/spaces") == ["Getting Started", "User Guide", "Admin Handbook"]


# --- delete, restore, gone for good -------------------------------------------------------------------------


async def test_a_deleted_space_leaves_the_lists_and_reads_as_deleted(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    sid, guides = space(state, "User Guide"), collection(state, "Guides")
    assert (await http.delete(f"/spaces/{sid}")).status_code == 205
    assert "User Guide" not in await titles(http, f"/orgs/{state.demo_org}/spaces")
    assert "User Guide" not in await titles(http, f"/collections/{guides}/spaces")
    read = await http.get(f"/spaces/{sid}")
    assert read.status_code == 200
    assert read.json()["deletedAt"] == state.now() and read.json()["id"] == sid
    for path in (f"/spaces/{sid}/content", f"/spaces/{sid}/change-requests", f"/spaces/{sid}/search"):
        assert (await http.get(path, params={"query": "guide"})).status_code == 404
    assert (await http.patch(f"/spaces/{sid}", json={"title": "Back?"})).status_code == 404
    assert (await http.delete(f"/spaces/{sid}")).status_code == 204  # already deleted


async def test_restore_within_7_days_brings_the_space_back_with_its_content(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    sid = space(state, "Getting Started")
    content = (await http.get(f"/spaces/{sid}/content/pages")).json()
    crs = (await http.get(f"/spaces/{sid}/change-requests", params={"status": "open,draft,merged,archived"})).json()
    assert (await http.delete(f"/spaces/{sid}")).status_code == 205
    state.clock.advance(days=6, hours=23)
    restored = await http.post(f"/spaces/{sid}/restore")
    assert restored.status_code == 200 and "deletedAt" not in restored.json()
    assert "Getting Started" in await titles(http, f"/orgs/{state.demo_org}/spaces")
    assert (await http.get(f"/spaces/{sid}/content/pages")).json() == content
    again = (await http.get(f"/spaces/{sid}/change-requests", params={"status": "open,draft,merged,archived"})).json()
    assert [c["id"] for c in again["items"]] == [c["id"] for c in crs["items"]]
    assert (await http.post(f"/spaces/{sid}/restore")).status_code == 400  # not deleted: nothing to restore


async def test_after_7_days_a_deleted_space_is_gone_for_good(http: httpx.AsyncClient, state: SandboxState) -> None:
    sid = space(state, "Getting Started")
    crs = [c for c in state.change_requests.values() if c["space"] == sid]
    assert crs
    assert (await http.delete(f"/spaces/{sid}")).status_code == 205
    state.clock.advance(days=7, seconds=1)
    assert "Getting Started" not in await titles(http, f"/orgs/{state.demo_org}/spaces")
    assert sid not in state.spaces and all(c["id"] not in state.change_requests for c in crs)
    assert (await http.get(f"/spaces/{sid}")).status_code == 404
    gone = await http.post(f"/spaces/{sid}/restore")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == 404
    assert (await http.delete(f"/spaces/{sid}")).status_code == 204


async def test_the_seeded_deleted_space_follows_the_clock(http: httpx.AsyncClient, state: SandboxState) -> None:
    sid = space(state, "Legacy Docs (v1)")
    assert (await http.get(f"/spaces/{sid}")).json()["deletedAt"]
    assert "Legacy Docs (v1)" not in await titles(http, f"/orgs/{state.demo_org}/spaces")
    state.clock.advance(days=5)  # deleted 3 days before the seed's now: 8 days ago
    assert (await http.get(f"/spaces/{sid}")).status_code == 404


# --- search -------------------------------------------------------------------------------------------------


def _check_shape(item: dict[str, Any], required: set[str]) -> None:
    assert required <= set(item), required - set(item)


PAGE = {"id", "title", "description", "path", "score", "rank", "ancestors", "urls"}
SECTION = {"id", "title", "path", "score", "body", "urls"}


async def test_space_search_answers_titles_and_section_text_paged(http: httpx.AsyncClient, state: SandboxState) -> None:
    sid = space(state, "Getting Started")
    hits = await every(http, f"/spaces/{sid}/search", query="robot", limit=1)
    assert len(hits) == 3  # three pages of one
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    for hit in hits:
        _check_shape(hit, PAGE)
        assert hit["urls"]["app"].startswith("https://")
        for section in hit["sections"]:
            _check_shape(section, SECTION)
            assert "robot" in (section["title"] + section["body"]).lower()
        assert "robot" in (hit["title"] + hit["description"]).lower() or hit["sections"]
    only_text = await every(http, f"/spaces/{sid}/search", query="distribution package")
    assert [h["title"] for h in only_text] == ["Linux"] and only_text[0]["resultType"] == "section"
    assert [a["title"] for a in only_text[0]["ancestors"]] == ["Installation"]


async def test_organization_search_groups_pages_by_space_paged(http: httpx.AsyncClient, state: SandboxState) -> None:
    results = await every(http, f"/orgs/{state.demo_org}/search", query="the")
    assert len(results) > 3
    ranks = sorted(p["rank"] for r in results for p in r["pages"])
    assert ranks == list(range(1, len(ranks) + 1))  # ranked across the organization
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)
    for result in results:
        _check_shape(result, {"type", "id", "title", "score", "pages"})
        assert result["type"] == "space" and result["pages"]
        for page in result["pages"]:
            _check_shape(page, PAGE)
    first = (await http.get(f"/orgs/{state.demo_org}/search", params={"query": "the", "limit": 2})).json()
    assert len(first["items"]) == 2 and first["count"] == len(results) and "next" in first


async def test_search_leaves_out_deleted_spaces_and_finds_restored_ones(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    sid = space(state, "Getting Started")
    found = {r["id"] for r in await every(http, f"/orgs/{state.demo_org}/search", query="robot")}
    assert sid in found
    await http.delete(f"/spaces/{sid}")
    assert sid not in {r["id"] for r in await every(http, f"/orgs/{state.demo_org}/search", query="robot")}
    await http.post(f"/spaces/{sid}/restore")
    assert sid in {r["id"] for r in await every(http, f"/orgs/{state.demo_org}/search", query="robot")}


async def test_search_follows_the_content(http: httpx.AsyncClient, state: SandboxState) -> None:
    sid = space(state, "Scratchpad")
    assert await every(http, f"/spaces/{sid}/search", query="quokka") == []
    applied = await http.post(f"/spaces/{sid}/content/template", json={"id": "faq"})
    assert applied.status_code == 201
    faq = await every(http, f"/spaces/{sid}/search", query="community forum")
    assert [h["title"] for h in faq] == ["FAQ"]
    assert [s["title"] for s in faq[0]["sections"]] == ["Where do I ask questions?"]
