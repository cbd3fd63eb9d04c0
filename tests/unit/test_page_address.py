"""A page as a person names it (``folio.services.review.page_address``): app URLs of a space's page and of a change
request's, ``<space id>/<page path>``, what cannot be read said in words; the page found in the tree of the main
content or of the change request, and a path that names nothing says which segment, with the pages there."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.models.common import Page
from folio.sandbox import SandboxState
from folio.sandbox.revisions import walk
from folio.services.review.page_address import BadAddress, PageAddress, find_page, match_path, parse_page_address

APP = "https://app.gitbook.com"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (f"{APP}/o/ORG1/s/SPACE1/guides/install", PageAddress("SPACE1", "guides/install", None, "ORG1")),
        (f"{APP}/o/ORG1/s/SPACE1/~/changes/12/guides/install", PageAddress("SPACE1", "guides/install", 12, "ORG1")),
        (f"{APP}/o/ORG1/s/SPACE1/~/changes/12/", PageAddress("SPACE1", "", 12, "ORG1")),
        (f"{APP}/o/ORG1/s/SPACE1/", PageAddress("SPACE1", "", None, "ORG1")),
        (f"{APP}/s/SPACE1/guides/install/", PageAddress("SPACE1", "guides/install")),
        (
            f"{APP}/o/ORG1/s/SPACE1/guides/install?fallback=true#linux",
            PageAddress("SPACE1", "guides/install", None, "ORG1"),
        ),
        (f"{APP}/o/ORG1/s/SPACE1/caf%C3%A9", PageAddress("SPACE1", "café", None, "ORG1")),
        ("http://127.0.0.1:8787/o/O/s/S-2_x/a", PageAddress("S-2_x", "a", None, "O")),
        ("SPACE1/guides/install", PageAddress("SPACE1", "guides/install")),
        ("  SPACE1/guides//install/  ", PageAddress("SPACE1", "guides/install")),
        ("SPACE1", PageAddress("SPACE1", "")),
        ("SPACE1/", PageAddress("SPACE1", "")),
        ("/SPACE1/a#top", PageAddress("SPACE1", "a")),
    ],
)
def test_addresses_are_read(given: str, expected: PageAddress) -> None:
    assert parse_page_address(given) == expected


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("", "No page was given"),
        ("   ", "No page was given"),
        ("https://app.gitbook.com/o/O1/guides/install", "no /s/<space>/ in it"),
        (f"{APP}/o/ORG1/home", "no /s/<space>/ in it"),
        (f"{APP}/o/ORG1/s/SPACE1/~/revisions/r1/guides", "'~/revisions' of space SPACE1"),
        (f"{APP}/o/ORG1/s/SPACE1/~/changes/", "without its number"),
        (f"{APP}/o/ORG1/s/SPACE1/~/changes/abc/page", "without its number"),
        (f"{APP}/o/ORG1/s/SPA%20CE/page", "'SPA CE' in the address is not a space id"),
        ("ftp://app.gitbook.com/s/SPACE1/page", "not a web address"),
        ("not a space!/guides", "'not a space!' is not a space id"),
    ],
)
def test_what_cannot_be_read_says_so(given: str, words: str) -> None:
    with pytest.raises(BadAddress) as caught:
        parse_page_address(given)
    assert words in caught.value.describe()
    assert "<space id>/<page path>" in caught.value.describe() or "copy the address" in caught.value.describe()


def _tree() -> list[Page]:
    top = [
        Page(
            id="g", title="Group", type="group", path="group", pages=[Page(id="i", title="Intro", path="group/intro")]
        ),
        Page(
            id="f",
            title="Fleets",
            path="fleets",
            pages=[Page(id="c", title="Create", path="fleets/create"), Page(id="p", title="Policies", path="fleets/p")],
        ),
        Page(id="l", title="Link", type="link", href="https://example.com"),
    ]
    return [p for page in top for p in page.walk()]


def test_a_path_finds_its_page_and_an_empty_one_the_first_with_a_text() -> None:
    pages = _tree()
    assert match_path(pages, "fleets/create", where="space S").id == "c"
    assert match_path(pages, "Fleets/Create", where="space S").id == "c"  # case is forgiven when only one fits
    assert match_path(pages, "", where="space S").id == "i"  # the group has no text: its first page has


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("fleets/nope", "No page “nope” under “fleets” in space S (there: create, p)."),
        ("fleets/nope/deeper", "No page “nope” under “fleets” in space S (there: create, p)."),
        ("nope", "No page “nope” at the top in space S (there: group, fleets)."),
        ("fleets/create/more", "No page “more” under “fleets/create” in space S (there are no pages there)."),
    ],
)
def test_a_path_that_names_nothing_says_which_part(path: str, words: str) -> None:
    with pytest.raises(BadAddress) as caught:
        match_path(_tree(), path, where="space S")
    assert caught.value.describe() == words


def test_a_tree_without_a_text_has_no_first_page() -> None:
    with pytest.raises(BadAddress, match="Space S has no page with a text"):
        match_path([Page(id="l", type="link")], "", where="space S")


# --- against the sandbox ----------------------------------------------------------------------------------------


def _cr_with_a_new_page(state: SandboxState) -> tuple[dict[str, Any], dict[str, Any]]:
    """A change request with a page its space's main content does not have."""
    for cr in state.change_requests.values():
        space = state.spaces.get(cr["space"], {})
        if cr.get("status") != "open" or space.get("deletedAt"):
            continue
        main = {p["id"] for p, _, _ in walk(state.revisions[space["revision"]]["pages"])}
        for page, _, _ in walk(state.revisions[cr["revision"]]["pages"]):
            if page["id"] not in main and page.get("type", "document") == "document":
                return cr, page
    raise AssertionError("the seed has no change request that adds a page")


async def test_a_page_is_found_in_the_tree_of_the_change_request_it_is_named_in(
    client: GitBookClient, state: SandboxState
) -> None:
    cr, added = _cr_with_a_new_page(state)
    listing = await client.content.pages(cr["space"], change_request=cr["id"])
    path = next(p.path for top in listing.pages for p in top.walk() if p.id == added["id"])
    assert path
    url = f"{APP}/o/{state.demo_org}/s/{cr['space']}/~/changes/{cr['number']}/{path}"
    assert (await find_page(client, parse_page_address(url))).id == added["id"]
    assert (await find_page(client, parse_page_address(f"{cr['space']}/{path}"), change_request=cr["number"])).id == (
        added["id"]
    )
    with pytest.raises(BadAddress, match=f"in space {cr['space']}"):  # not in the main content
        await find_page(client, parse_page_address(f"{cr['space']}/{path}"))


async def test_a_space_or_change_request_that_is_not_there_says_so(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(BadAddress, match="There is no space NoSuchSpace that you can read"):
        await find_page(client, parse_page_address("NoSuchSpace/page"))
    space = next(iter(s for s in state.spaces.values() if not s.get("deletedAt")))
    with pytest.raises(BadAddress, match=f"There is no change request #9999 in space {space['id']}"):
        await find_page(client, parse_page_address(f"{space['id']}/page"), change_request=9999)


async def test_a_published_page_is_found_among_the_sites(client: GitBookClient, state: SandboxState) -> None:
    from folio.services.review.page_address import locate

    site = next(s for s in state.sites.values() if s["organization"] == state.demo_org and s.get("published"))
    published = await client.sites.published(state.demo_org, site["id"])
    site_space = next(ss for ss in published.structure.site_spaces() if ss.space and ss.urls and ss.urls.published)
    assert site_space.space is not None and site_space.urls is not None and site_space.urls.published
    pages = (await client.content.pages(site_space.space.id)).walk()
    page = next(p for p in pages if p.type == "document" and p.path)
    url = site_space.urls.published.rstrip("/") + "/" + (page.path or "")
    address = parse_page_address(url)
    assert address.published == url and address.space_id == ""
    assert await locate(client, address) == (
        site_space.space.id,
        await client.content.page(site_space.space.id, page.id),
    )
    with pytest.raises(BadAddress, match="not of one page"):
        await locate(client, parse_page_address(published.site.published_url or ""))
    with pytest.raises(BadAddress, match="no published site or space"):
        await locate(client, parse_page_address("https://nowhere.example.com/guide"))
