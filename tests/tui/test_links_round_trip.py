"""Every URL Folio prints opens the same screen again: the walk opens the screen of every route of
``folio.tui.routes.ROUTES`` on the demo data (and the tabs that list other things), takes the URL that ``o`` / ``Y``
would print there (the screen's own, or its item's), reads it back with ``folio.services.links`` (the service looks
up page paths and published addresses) and checks it names the screen the item is shown on: the same kind and ids.

Where a screen prints no URL, or a URL that is not GitBook's (a conversation's source, an OpenAPI file's own
address), it is in an explicit list below, with the reason: a new screen must join the walk or one of the lists.
The end of the file opens links through the app: ``:`` with a pasted URL, and ``FolioApp(link=...)`` (``folio
open URL``), each on its tab and at its page's anchor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest

from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.links import APP_HOSTS, Link, parse
from folio.tui import routes
from folio.tui.app import FolioApp
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.content.organizations import OrganizationsScreen
from tests.tui.conftest import settle
from tests.tui.test_hostile import targets_of

NO_URL = {
    "trash": "the demo organization's trash is empty: no deleted space to print",
    "members": "a member has no web page of GitBook's (the app shows members in a dialog)",
    "teams": "a team has no web page of GitBook's",
    "team": "a team's member has no web page",
    "sso": "a SAML provider has no web page",
    "clusters": "an issues cluster has no web page (the API gives none)",
    "cluster": "an issue of a cluster has only its source's address, when it has one",
    "agent": "the agent's instructions have no web page",
}
"""Routes whose screen prints no URL (``o`` says there is none), and why."""

NOT_GITBOOK = {
    "conversation": "a conversation's URL is where it came from (a help desk), not GitBook's",
    "version": "an OpenAPI spec's version's URL is where the OpenAPI file was read from",
    "version content": "the same: the address the OpenAPI file was read from",
}
"""Kinds of item whose URL is not GitBook's (it opens no screen of Folio's), and why."""


def demo_ids(state: SandboxState) -> dict[str, dict[str, Any]]:
    """The ids to open each route's screen with, on the demo data."""
    target = targets_of(state)
    org = target["org"]
    cr = state.change_requests[target["cr"]]
    spec = next(iter(state.openapi_specs[org].values()))
    team = next(t for t in state.teams.values() if t["organization"] == org)
    cluster = next(c for c in state.clusters.values() if c["organization"] == org)
    conversation = next(c for c in state.conversations.values() if c["organization"] == org)
    member = next(iter(state.members[org]))
    in_org = {"org_id": org}
    return {
        "organization": in_org,
        "space": {"space_id": target["space"]},
        "search": {**in_org, "words": "fleet"},
        "space-search": {"space_id": target["space"], "words": "fleet"},
        "translations": in_org,
        "trash": in_org,
        "change-request": {"space_id": target["space"], "ref": cr["number"]},
        "thread": {"space_id": target["space"], "comment_id": target["comment"], "change_request": cr["id"]},
        "site": {"org_id": org, "site_id": target["site"]},
        "members": in_org,
        "member": {"org_id": org, "user_id": member},
        "teams": in_org,
        "team": {"org_id": org, "team_id": team["id"]},
        "sso": in_org,
        "settings": in_org,
        "specs": in_org,
        "spec": {"org_id": org, "slug": spec["slug"]},
        "spec-version": {"org_id": org, "slug": spec["slug"], "version_id": spec["versions"][0]["id"]},
        "clusters": in_org,
        "cluster": {"org_id": org, "cluster_id": cluster["id"]},
        "conversations": in_org,
        "conversation": {"org_id": org, "conversation_id": conversation["id"]},
        "agent": in_org,
        "inbox": {},
    }


TABS: dict[str, tuple[str, ...]] = {
    "organization": ("spaces", "change-requests", "sites"),
    "space": ("tab-crs", "tab-comments", "tab-revision"),
    "change-request": ("changes",),
    "site": ("structure",),
}
"""The tabs walked besides the first, where the item under the cursor is another kind of thing."""


def expected(
    state: SandboxState, kind: str, ids: dict[str, Any], item: Item, screen: Any
) -> tuple[str, dict[str, Any]]:
    """The screen (kind and ids) that shows ``item``, printed by ``screen`` (of ``kind`` for ``ids``)."""
    org = state.demo_org
    hit = screen.current_target() if hasattr(screen, "current_target") else None
    if hit is not None:  # a search's hit: its page, in its space
        page_id = hit.page.id if hit.page is not None else item.id
        return "space", {"space_id": hit.space_id, "page_id": page_id}
    if item.kind == "organization":
        return "organization", {"org_id": item.id}
    if item.kind == "collection":
        return "organization", {"org_id": org}
    if item.kind == "space":
        return "space", {"space_id": item.id}
    if item.kind == "page":
        if kind == "change-request":
            return kind, ids  # a page of the change request: its changes tab
        return "space", {"space_id": ids["space_id"], "page_id": item.id}
    if item.kind == "revision":
        return "space", {"space_id": ids["space_id"]}
    if item.kind == "change request":
        cr = state.change_requests[item.id]
        return "change-request", {"space_id": cr["space"], "ref": cr["number"]}
    if item.kind in ("comment", "reply"):
        comment = next(
            c for c in state.comments.values() if item.id in (c["id"], *(r["id"] for r in c.get("replies") or []))
        )
        thread = {"space_id": comment["space"], "comment_id": comment["id"]}
        if comment.get("changeRequest"):
            thread["change_request"] = comment["changeRequest"]
        return "thread", thread
    if item.kind in ("site", "site-section", "site-space"):
        site_id = ids.get("site_id") or item.id
        return "site", {"org_id": org, "site_id": site_id}
    if item.kind == "OpenAPI spec":
        spec = next(s for s in state.openapi_specs[org].values() if s["id"] == item.id)
        return "spec", {"org_id": org, "slug": spec["slug"]}
    if item.kind == "translation":
        return "translations", {"org_id": org}
    raise AssertionError(f"the walk does not know what screen shows a {item.kind!r} (printed by {kind})")


def same(link: Link, kind: str, ids: dict[str, Any], state: SandboxState) -> bool:
    """Whether ``link`` opens the screen of ``kind`` for ``ids`` (a change request by its id or its number)."""
    if link.kind != kind:
        return False
    got, want = dict(link.ids), dict(ids)
    got.pop("anchor", None)
    for name in ("ref", "change_request"):  # the app names a change request by number, the API by id
        for side in (got, want):
            value = side.get(name)
            if isinstance(value, str) and value in state.change_requests:
                side[name] = state.change_requests[value]["number"]
    return got == want


async def test_every_url_folio_prints_opens_the_same_screen(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    ids_of = demo_ids(state)
    assert set(ids_of) == set(routes.ROUTES), "a route the walk does not open: give it ids here"
    checked: dict[str, list[str]] = {}
    without: set[str] = set()
    foreign: set[str] = set()
    seen_foreign_on: set[str] = set()

    async def check(kind: str, ids: dict[str, Any], where: str, screen: Any) -> None:
        item = screen.current_item()
        if item is None or not item.url:
            without.add(kind)
            return
        if urlsplit(item.url).hostname not in {*APP_HOSTS, "api.gitbook.com"} and item.kind in NOT_GITBOOK:
            foreign.add(item.kind)
            seen_foreign_on.add(kind)
            return
        link = await services.links.resolve(item.url)
        want_kind, want_ids = expected(state, kind, ids, item, screen)
        assert same(link, want_kind, want_ids, state), (kind, where, item, link)
        route = routes.ROUTES[want_kind]
        assert set(link.ids) <= {*route.ids, *route.optional} and all(link.ids.get(n) for n in route.ids)
        if item.kind == "collection":
            assert link.cursor == item.id, (kind, item, link)  # its row, on the collections tab
        # (a section's default site space is at the section's address, the default section at the site's: such
        # an address opens the site on the first of them, the same screen)
        checked.setdefault(kind, []).append(f"{where}: {item.kind}")

    async with open_app(size=(120, 40)) as (app, pilot):
        for kind, ids in ids_of.items():
            screen: Any = routes.build(services, kind, ids, trail=("Organizations",))
            await app.push_screen(screen)
            await settle(pilot)
            for tab in (None, *TABS.get(kind, ())):
                if tab is not None:
                    screen.query_one("TabbedContent").active = tab
                    await settle(pilot)
                    screen.focus_next()  # (the tab's list: what the cursor is on)
                    await settle(pilot)
                await check(kind, ids, tab or "first", screen)
            if kind == "site":  # the published view beside the structure: its sections and site spaces
                screen.query_one("#published-tree").focus()
            if kind in ("site", "search", "space-search"):  # and the rows below the first
                for _ in range(8):
                    await pilot.press("down")
                    await settle(pilot)
                    await check(kind, ids, "down", screen)
            app.pop_screen()
            await settle(pilot)
    assert foreign == set(NOT_GITBOOK), "a kind listed as printing another site's URL no longer does"
    assert without - set(checked) == set(NO_URL), "a screen that prints no URL is not in NO_URL, or now prints one"
    assert set(checked) | set(NO_URL) | set(seen_foreign_on) == set(routes.ROUTES)
    # what the walk covered: each screen's own resource and the things its tabs list
    assert {"organization", "space", "change-request", "thread", "site", "specs", "translations"} <= set(checked), (
        checked
    )
    assert {"site-section", "site-space"} <= {entry.split(": ")[1] for entry in checked["site"]}, checked["site"]


# -- opening a link in the app -------------------------------------------------------------------------------


def _nested_page(state: SandboxState, space_id: str) -> tuple[dict[str, Any], str]:
    for page in state.revisions[state.spaces[space_id]["revision"]].get("pages") or []:
        for child in page.get("pages") or []:
            if child.get("type", "document") == "document" and child.get("slug"):
                return child, f"{page['slug']}/{child['slug']}"
    raise AssertionError("no nested page")


@pytest.mark.parametrize("how", ["pasted", "typed :open"])
async def test_a_link_pasted_into_the_command_line_opens_its_screen(
    open_app: Any, services: Services, state: SandboxState, how: str
) -> None:
    target = targets_of(state)
    cr = state.change_requests[target["cr"]]
    url = f"https://app.gitbook.com/o/{target['org']}/s/{target['space']}/~/changes/{cr['number']}/some/page"
    async with open_app() as (app, pilot):
        await pilot.press("colon")
        await settle(pilot)
        app.screen.query_one("Input").value = url if how == "pasted" else f"open {url}"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        screen: Any = app.screen
        assert screen.ROUTE == "change-request"
        assert (screen.space_id, screen.query_one("TabbedContent").active) == (target["space"], "changes")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, OrganizationsScreen)  # opened as a jump over the organizations


async def test_a_link_folio_cannot_map_is_said_in_the_command_line(open_app: Any, state: SandboxState) -> None:
    async with open_app() as (app, pilot):
        first = app.screen
        await pilot.press("colon")
        await settle(pilot)
        line: Any = app.screen.query_one("Input")
        line.value = f"https://app.gitbook.com/o/{state.demo_org}/nonsense/1"
        await pilot.press("enter")
        await settle(pilot)
        said = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "'nonsense' is not a part Folio knows after the organization id" in said
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is first


async def test_folio_open_starts_on_the_page_at_its_anchor_over_the_organizations(
    services: Services, state: SandboxState
) -> None:
    target = targets_of(state)
    page, path = _nested_page(state, target["space"])
    filler = "\n\n".join(f"Paragraph {n} of the page, long enough to take its own line." for n in range(60))
    page["markdown"] = f"# Start\n\n{filler}\n\n## Rolling back a fleet\n\nThe section the link names.\n\n{filler}"
    url = f"https://app.gitbook.com/o/{target['org']}/s/{target['space']}/{path}#rolling-back-a-fleet"
    app = FolioApp(services, link=url)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await settle(pilot)
        screen: Any = app.screen
        assert screen.ROUTE == "space", type(screen)
        assert (screen.space_id, screen.page_id) == (target["space"], page["id"])
        assert isinstance(app.screen_stack[-2], OrganizationsScreen)
        view = screen.page_view
        heading = next(h for h in view.markdown.query("MarkdownH2") if "Rolling back" in str(h.render()))
        assert view.scroller.scroll_y > 0
        assert abs(heading.region.y - view.scroller.content_region.y) <= 1  # its heading at the top


async def test_folio_open_of_a_missing_page_says_so_and_stays_on_the_organizations(
    services: Services, state: SandboxState
) -> None:
    target = targets_of(state)
    app = FolioApp(services, link=f"https://app.gitbook.com/o/{target['org']}/s/{target['space']}/no/such/page")
    app.animation_level = "none"
    notes: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        original: Callable[..., Any] = app.notify

        def notify(message: str, *args: Any, **kwargs: Any) -> Any:
            notes.append(message)
            return original(message, *args, **kwargs)

        app.notify = notify  # type: ignore[method-assign]
        await settle(pilot)
        await settle(pilot)
        assert not isinstance(app.screen, FolioScreen) or app.screen.ROUTE != "space"
    assert any("the space has no page at 'no/such/page'" in n for n in notes), notes


def test_every_kind_a_link_names_is_a_route_with_its_ids() -> None:
    """The kinds and ids ``folio.services.links`` writes (below the TUI, as strings) are the routes' own."""
    samples = [
        "https://app.gitbook.com/o/O/",
        "https://app.gitbook.com/o/O/c/C",
        "https://app.gitbook.com/o/O/s/S/",
        "https://app.gitbook.com/o/O/s/S/~/changes/2/",
        "https://app.gitbook.com/o/O/s/S/~/comments/K",
        "https://app.gitbook.com/o/O/sites/W/",
        "https://app.gitbook.com/o/O/openapi/slug",
        "https://app.gitbook.com/o/O/openapi/slug/versions/V",
        *(f"https://app.gitbook.com/o/O/{word}" for word in ("members", "teams", "sso", "settings", "openapi")),
        *(f"https://app.gitbook.com/o/O/{word}" for word in ("translations", "trash", "search", "conversations")),
        *(f"https://app.gitbook.com/o/O/{word}" for word in ("clusters", "agent")),
        "https://api.gitbook.com/v1/orgs/O/members/U",
        "https://api.gitbook.com/v1/orgs/O/teams/T",
        "https://api.gitbook.com/v1/orgs/O/conversations/C",
    ]
    for url in samples:
        link = parse(url)
        route = routes.ROUTES[link.kind]
        assert set(link.ids) <= {*route.ids, *route.optional}, url
        assert all(link.ids.get(name) is not None for name in route.ids), url


def test_the_command_line_reads_a_pasted_link_as_open() -> None:
    from folio.tui.jump import Command, CommandError
    from folio.tui.jump import parse as parse_line

    url = "https://app.gitbook.com/o/O/s/S/~/changes/2/"
    assert parse_line(url) == Command("open", url)
    assert parse_line(f":{url}") == Command("open", url)
    assert parse_line(f"open {url}") == Command("open", url)
    assert parse_line("app.gitbook.com/o/O") == Command("open", "app.gitbook.com/o/O")
    assert parse_line(f"open {url}").route is None
    with pytest.raises(CommandError, match=":open needs a GitBook link"):
        parse_line("open")
    with pytest.raises(CommandError, match=":open needs a GitBook link"):
        parse_line("open members")
