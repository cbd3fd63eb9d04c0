"""GitBook links (``folio.services.links``): every form of URL a user holds read as a screen's kind and ids, the
ones that need the service (a page path, a published address, a collection's organization) resolved against the
sandbox's demo data, the resource each names fetched as ``folio show`` prints it, and the URLs Folio cannot map
refused with an error that names the part it could not read."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import NotFound
from folio.sandbox import SandboxState
from folio.services.links import Link, LinkError, fetch, parse, resolve

APP = "https://app.gitbook.com"


# -- read without the network ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "kind", "ids", "what"),
    [
        (f"{APP}/o/O1/", "organization", {"org_id": "O1"}, "organization"),
        (f"{APP}/o/O1", "organization", {"org_id": "O1"}, "organization"),
        ("app.gitbook.com/o/O1/s/S1", "space", {"space_id": "S1"}, "space"),
        (f"{APP}/o/O1/s/S1/", "space", {"space_id": "S1"}, "space"),
        (f"{APP}/s/S1/", "space", {"space_id": "S1"}, "space"),
        (f"{APP}/o/O1/c/C1/", "organization", {"org_id": "O1"}, "collection"),
        (f"{APP}/o/O1/s/S1/~/changes/12/", "change-request", {"space_id": "S1", "ref": 12}, "change request"),
        (f"{APP}/o/O1/s/S1/~/revisions/R1/", "space", {"space_id": "S1"}, "revision"),
        (f"{APP}/o/O1/s/S1/~/comments/K1", "thread", {"space_id": "S1", "comment_id": "K1"}, "comment"),
        (f"{APP}/o/O1/s/S1/intro?comment=K1", "thread", {"space_id": "S1", "comment_id": "K1"}, "comment"),
        (
            f"{APP}/o/O1/s/S1/~/changes/3/intro?comment=K1",
            "thread",
            {"space_id": "S1", "comment_id": "K1", "change_request": 3},
            "comment",
        ),
        (
            f"{APP}/o/O1/s/S1/~/changes/3/~/comments/K1",
            "thread",
            {"space_id": "S1", "comment_id": "K1", "change_request": 3},
            "comment",
        ),
        (f"{APP}/o/O1/sites/W1", "site", {"org_id": "O1", "site_id": "W1"}, "site"),
        (f"{APP}/o/O1/sites/W1/preview", "site", {"org_id": "O1", "site_id": "W1"}, "site"),
        (f"{APP}/o/O1/sites/W1/sections/N1", "site", {"org_id": "O1", "site_id": "W1"}, "site section"),
        (f"{APP}/o/O1/openapi/petstore", "spec", {"org_id": "O1", "slug": "petstore"}, "OpenAPI spec"),
        (f"{APP}/public/openapi/O1/petstore", "spec", {"org_id": "O1", "slug": "petstore"}, "OpenAPI spec"),
        (
            f"{APP}/o/O1/openapi/petstore/versions/V1",
            "spec-version",
            {"org_id": "O1", "slug": "petstore", "version_id": "V1"},
            "OpenAPI spec version",
        ),
        (f"{APP}/o/O1/settings/members", "members", {"org_id": "O1"}, "members"),
        (f"{APP}/o/O1/teams", "teams", {"org_id": "O1"}, "teams"),
        # the API's own addresses (urls.location), which Folio shows where the app has no page
        ("https://api.gitbook.com/v1/orgs/O1", "organization", {"org_id": "O1"}, "organization"),
        ("https://api.gitbook.com/v1/spaces/S1", "space", {"space_id": "S1"}, "space"),
        (
            "https://api.gitbook.com/v1/spaces/S1/change-requests/CRX",
            "change-request",
            {"space_id": "S1", "ref": "CRX"},
            "change request",
        ),
        (
            "https://api.gitbook.com/v1/spaces/S1/change-requests/CRX/comments/K1/replies/P1",
            "thread",
            {"space_id": "S1", "comment_id": "K1", "change_request": "CRX"},
            "reply",
        ),
        ("https://api.gitbook.com/v1/orgs/O1/sites/W1", "site", {"org_id": "O1", "site_id": "W1"}, "site"),
        ("https://api.gitbook.com/v1/orgs/O1/members/U1", "member", {"org_id": "O1", "user_id": "U1"}, "member"),
        ("https://api.gitbook.com/v1/orgs/O1/translations/T1", "translations", {"org_id": "O1"}, "translations"),
    ],
)
def test_app_and_api_urls_are_read_without_the_network(url: str, kind: str, ids: dict[str, Any], what: str) -> None:
    link = parse(url)
    assert (link.kind, link.ids, link.what) == (kind, ids, what)
    assert link.resolved


def test_a_page_keeps_its_path_and_anchor_to_look_up() -> None:
    link = parse(f"{APP}/o/O1/s/S1/guides/install#linux")
    assert (link.kind, link.ids, link.page_path, link.org_id) == (
        "space",
        {"space_id": "S1", "anchor": "linux"},
        "guides/install",
        "O1",
    )
    assert not link.resolved


def test_a_change_requests_page_opens_its_changes_tab_and_a_collection_its_row() -> None:
    assert parse(f"{APP}/o/O1/s/S1/~/changes/12/").view == {"tab": "changes"}
    assert parse("https://api.gitbook.com/v1/spaces/S1/change-requests/12").tab is None  # (the API's: overview)
    assert parse(f"{APP}/o/O1/s/S1/~/changes/12/guides/install").view == {"tab": "changes"}
    collection = parse(f"{APP}/o/O1/c/C1/")
    assert collection.view == {"tab": "collections", "list": "organization-tree", "cursor": "C1"}
    assert collection.target == {"collection_id": "C1"}
    assert parse(f"{APP}/o/O1/sites/W1/settings").view == {"tab": "settings"}


def test_another_host_is_a_published_address_to_look_up() -> None:
    link = parse("https://docs.example.com/guides/install")
    assert link.published and not link.resolved
    assert parse("https://sandbox.test/v1/spaces/S1", api_hosts=["sandbox.test"]).kind == "space"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (f"{APP}/o/O1/x/y", "'x' is not a part Folio knows after the organization id"),
        (f"{APP}/o/O1/s/S1/~/nonsense/3", "'nonsense' is not a part Folio knows after ~"),
        (f"{APP}/o/O1/s/S1/~/changes/abc/", "'abc' is not a change request number"),
        (f"{APP}/o/O1/s/S1/~/changes", "the change request's number is missing"),
        (f"{APP}/o/O1/sites/W1/wat", "'wat' is not a part Folio knows after the site id"),
        (f"{APP}/o/O1/openapi/petstore/versions/V1/extra", "'extra' is not a part Folio knows after the version id"),
        (f"{APP}/", "names no organization, space or site"),
        (f"{APP}/integrations/slack", "'integrations' is not a part Folio knows after app.gitbook.com"),
        ("https://api.gitbook.com/v1/users/me", "'users' is not a part Folio knows after the API's address"),
        ("ftp://app.gitbook.com/o/O1", "is not a web address"),
        ("   ", "No URL was given"),
    ],
)
def test_a_url_folio_cannot_map_names_the_part(url: str, says: str) -> None:
    with pytest.raises(LinkError) as caught:
        parse(url)
    assert says in str(caught.value)
    assert caught.value.describe() == str(caught.value)


# -- resolved with the service --------------------------------------------------------------------------------


def _space_with_nested_page(state: SandboxState) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A space of the demo organization, a page below another page of it, and that page's path."""
    for space in state.spaces.values():
        if space["organization"] != state.demo_org:
            continue
        for page in state.revisions[space["revision"]].get("pages") or []:
            for child in page.get("pages") or []:
                if child.get("type", "document") == "document" and child.get("slug"):
                    return space, child, f"{page['slug']}/{child['slug']}"
    raise AssertionError("the demo data has no nested page")


async def test_a_page_path_becomes_the_pages_id(client: GitBookClient, state: SandboxState) -> None:
    space, page, path = _space_with_nested_page(state)
    link = await resolve(client, f"{APP}/o/{state.demo_org}/s/{space['id']}/{path}#step-2")
    assert (link.kind, link.ids) == ("space", {"space_id": space["id"], "anchor": "step-2", "page_id": page["id"]})
    assert link.resolved
    shown = await fetch(client, link)
    assert (shown.id, shown.title) == (page["id"], page["title"])


async def test_a_missing_page_says_which_path(client: GitBookClient, state: SandboxState) -> None:
    space, _, _ = _space_with_nested_page(state)
    with pytest.raises(LinkError, match="the space has no page at 'no/such-page'"):
        await resolve(client, f"{APP}/o/{state.demo_org}/s/{space['id']}/no/such-page")


def _published_site(state: SandboxState) -> dict[str, Any]:
    return next(s for s in state.sites.values() if s["organization"] == state.demo_org and s.get("published"))


async def test_a_published_sites_address_and_its_sections_open_the_site(
    client: GitBookClient, state: SandboxState
) -> None:
    site = _published_site(state)
    published = await client.sites.published(state.demo_org, site["id"])
    root = published.site.published_url
    assert root
    link = await resolve(client, root)
    assert (link.kind, link.ids, link.what) == ("site", {"org_id": state.demo_org, "site_id": site["id"]}, "site")
    sections = [s for s in published.structure.sections() if s.urls and s.urls.published and s.urls.published != root]
    assert sections
    for section in sections:
        found = await resolve(client, section.urls.published)  # type: ignore[union-attr]
        assert (found.kind, found.ids) == ("site", {"org_id": state.demo_org, "site_id": site["id"]})
        assert found.cursor in (section.id, *(ss.id for ss in section.site_spaces)), section.title
        shown = await fetch(client, found)
        assert shown.id == found.cursor


async def test_a_published_page_is_the_page_of_its_space_at_its_anchor(
    client: GitBookClient, state: SandboxState
) -> None:
    site = _published_site(state)
    published = await client.sites.published(state.demo_org, site["id"])
    site_space = next(ss for ss in published.structure.site_spaces() if ss.space and ss.urls and ss.urls.published)
    assert site_space.space is not None and site_space.urls is not None and site_space.urls.published
    pages = (await client.content.pages(site_space.space.id)).walk()
    page = next(p for p in pages if p.type == "document" and p.path and "/" in p.path)
    url = site_space.urls.published.rstrip("/") + "/" + (page.path or "") + "#usage"
    link = await resolve(client, url)
    assert (link.kind, link.ids, link.what) == (
        "space",
        {"space_id": site_space.space.id, "anchor": "usage", "page_id": page.id},
        "page",
    )


async def test_a_space_published_on_its_own_and_an_unknown_address(client: GitBookClient, state: SandboxState) -> None:
    space = await client.spaces.get(_space_with_nested_page(state)[0]["id"])
    assert space.urls is not None and space.urls.published
    link = await resolve(client, space.urls.published)
    assert (link.kind, link.ids) == ("space", {"space_id": space.id})
    with pytest.raises(LinkError, match="no published site or space of your organizations is at this address"):
        await resolve(client, "https://nowhere.example.com/guide")


async def test_a_collection_through_the_api_finds_its_organization(client: GitBookClient, state: SandboxState) -> None:
    collection = next(c for c in state.collections.values() if c["organization"] == state.demo_org)
    link = await resolve(client, f"https://api.gitbook.com/v1/collections/{collection['id']}")
    assert (link.kind, link.ids, link.cursor) == ("organization", {"org_id": state.demo_org}, collection["id"])
    assert link.resolved
    assert (await fetch(client, link)).title == collection["title"]


# -- fetched: what folio show prints ------------------------------------------------------------------------


async def test_each_kind_fetches_the_thing_it_names(client: GitBookClient, state: SandboxState) -> None:
    org = state.demo_org
    comment = next(c for c in state.comments.values() if c.get("changeRequest") and c.get("replies"))
    cr = state.change_requests[comment["changeRequest"]]
    spec = next(iter(state.openapi_specs[org].values()))
    site = _published_site(state)
    translation = next(t for t in state.translations.values() if t["organization"] == org)
    cases: list[tuple[str, str, str]] = [
        (f"{APP}/o/{org}/", org, state.orgs[org]["title"]),
        (f"{APP}/o/{org}/s/{cr['space']}/", cr["space"], state.spaces[cr["space"]]["title"]),
        (f"{APP}/o/{org}/s/{cr['space']}/~/changes/{cr['number']}/", cr["id"], cr["subject"]),
        (f"{APP}/o/{org}/s/{cr['space']}/~/changes/{cr['number']}/?comment={comment['id']}", comment["id"], ""),
        (
            f"https://api.gitbook.com/v1/spaces/{cr['space']}/change-requests/{cr['id']}/comments/{comment['id']}"
            f"/replies/{comment['replies'][0]['id']}",
            comment["replies"][0]["id"],
            "",
        ),
        (f"{APP}/o/{org}/sites/{site['id']}", site["id"], site["title"]),
        (f"{APP}/o/{org}/openapi/{spec['slug']}", spec["id"], ""),
        (f"https://api.gitbook.com/v1/orgs/{org}/translations/{translation['id']}", translation["id"], ""),
    ]
    for url, ident, title in cases:
        found = await fetch(client, await resolve(client, url))
        assert found.id == ident, url
        if title:
            assert (getattr(found, "subject", None) or getattr(found, "title", None)) == title, url


async def test_a_list_is_not_fetched_and_a_missing_thing_is_the_services_no(
    client: GitBookClient, state: SandboxState
) -> None:
    with pytest.raises(LookupError, match="a list"):
        await fetch(client, parse(f"{APP}/o/{state.demo_org}/settings/members"))
    with pytest.raises(NotFound):
        await fetch(client, parse(f"{APP}/o/{state.demo_org}/s/no-such-space/"))


def test_a_link_is_frozen_and_says_how_its_screen_opens() -> None:
    link = Link("site", {"org_id": "O1", "site_id": "W1"}, "site section", tab="structure", cursor="N1")
    assert link.view == {"tab": "structure"}  # (no list named: the row is not put back)
    with pytest.raises(AttributeError):
        link.kind = "space"  # type: ignore[misc]
