"""The issues clusters screen and one cluster's screen, driven by keys over the seeded sandbox: sorting, hiding the
muted ones, muting and unmuting (checked in what the sandbox holds), opening a cluster, its issues and its linked
change request opened straight into review; and a service without conversations saying so, once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Sparkline, Static, TabbedContent

from folio.api import GitBookClient, RetryPolicy, Token
from folio.models.conversation import IMPACTS
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.insights.conversations import NOT_OFFERED, sparkline, trend
from folio.tui.screens.insights.cluster import ClusterScreen
from folio.tui.screens.insights.clusters import ClustersScreen, ImpactList
from folio.tui.screens.insights.conversation import ConversationScreen
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import EXCHANGES, SANDBOX_URL, TOKEN
from tests.services.test_conversations_service import WithoutConversations, cluster_id, link_change_request
from tests.tui.conftest import settle

LOGIN = "Login loops after SSO redirect"
DARK = "Low contrast of code blocks in dark mode"


def clusters(services: Services, state: SandboxState) -> Callable[[], ClustersScreen]:
    return lambda: ClustersScreen(services, state.demo_org, trail=("Northwind Labs",))


def cluster(services: Services, state: SandboxState, label: str = LOGIN) -> Callable[[], ClusterScreen]:
    return lambda: ClusterScreen(services, state.demo_org, cluster_id(state, label), trail=("Northwind Labs",))


def rows(browser: ResourceBrowser) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in browser.list.visible_rows]


def text_of(widget: Static) -> str:
    return str(widget.render())


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def to_row(pilot: Pilot[None], browser: ResourceBrowser, key: str) -> None:
    assert browser.list.move_to(key)
    await settle(pilot)


# --- the clusters list ------------------------------------------------------------------------------------------


async def test_clusters_are_listed_with_their_pulse(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(clusters(services, state)) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, ClustersScreen)
        shown = rows(screen.panel.browser)
        assert len(shown) == 7
        login = next(r for r in shown if r[0] == LOGIN)
        record = state.clusters[cluster_id(state, LOGIN)]
        assert login[1:4] == ["high", "", sparkline(record["weeklyPulse"])]
        assert login[4:6] == ["3", "3"] and len(login[3]) == 13
        dark = next(r for r in shown if r[0] == DARK)
        assert dark[2] == "muted"
        assert isinstance(screen.panel.browser.list, ImpactList)
        first = screen.panel.items[0]
        preview = text_of(screen.preview)
        assert preview.startswith(f"{first.label} · icon {first.icon} · ") and preview.endswith(trend(first.pulse))
        assert ("cluster", f"{state.demo_org}/{cluster_id(state, LOGIN)}") in app.loaded


async def test_sort_cycles_through_impact_and_pulse(services: Services, state: SandboxState, open_app: Any) -> None:
    seen = len(EXCHANGES)
    async with open_app(clusters(services, state)) as (app, pilot):
        panel = app.screen.panel
        hint = panel.query_one(".resource-panel--hint", Static)
        assert "latest update first" in text_of(hint)
        await keys(pilot, "s")
        assert "highest impact first" in text_of(hint)
        impacts = [IMPACTS.index(r[1]) for r in rows(panel.browser)]
        assert impacts == sorted(impacts, reverse=True) and impacts[0] == 2
        asked = [dict(e["query"]) for e in EXCHANGES[seen:] if str(e["path"]).endswith("/conversations-clusters")]  # type: ignore[call-overload]
        assert {"order": "desc", "orderBy": "impact"}.items() <= asked[-1].items()  # the service sorts
        await keys(pilot, "s")
        assert "busiest 4 weeks first" in text_of(hint)
        recent = [sum(c.pulse[-4:]) for c in panel.items]
        assert recent == sorted(recent, reverse=True) and len(recent) == 7
        await keys(pilot, "s")
        assert "latest update first" in text_of(hint)


async def test_hide_muted_toggles(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(clusters(services, state)) as (app, pilot):
        panel = app.screen.panel
        await keys(pilot, "h")
        shown = [r[0] for r in rows(panel.browser)]
        assert DARK not in shown and len(shown) == 6
        assert "muted hidden" in text_of(panel.query_one(".resource-panel--hint", Static))
        await keys(pilot, "h")
        assert DARK in [r[0] for r in rows(panel.browser)]


async def test_mute_and_unmute_a_cluster(services: Services, state: SandboxState, open_app: Any) -> None:
    cid = cluster_id(state, LOGIN)
    async with open_app(clusters(services, state)) as (app, pilot):
        panel = app.screen.panel
        await to_row(pilot, panel.browser, cid)
        await keys(pilot, "m")
        assert state.clusters[cid]["muted"] is True
        row = next(r for r in panel.browser.list.rows if r.key == cid)
        assert row.cells[2] == "muted" and row.style == "dim"
        assert panel.browser.list.highlighted is not None and panel.browser.list.highlighted.key == cid
        await keys(pilot, "m")
        assert state.clusters[cid]["muted"] is False
        row = next(r for r in panel.browser.list.rows if r.key == cid)
        assert row.cells[2] == "" and row.style == ""
        panel.muting.add(cid)  # as while an answer is awaited: a second press waits for it
        assert panel.why_not("mute") == "The last change to this cluster is still being sent."
        await keys(pilot, "m")
        assert state.clusters[cid]["muted"] is False


async def test_a_refused_mute_says_why_and_changes_nothing(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    cid = cluster_id(state, LOGIN)
    state.members[state.demo_org][state.default_user]["role"] = "read"
    async with open_app(clusters(services, state)) as (app, pilot):
        await to_row(pilot, app.screen.panel.browser, cid)
        await keys(pilot, "m")
        assert state.clusters[cid]["muted"] is False
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("Could not mute the cluster Login loops") and "403" in m for m in messages)


async def test_enter_opens_the_cluster(services: Services, state: SandboxState, open_app: Any) -> None:
    cid = cluster_id(state, LOGIN)
    async with open_app(clusters(services, state)) as (app, pilot):
        await to_row(pilot, app.screen.panel.browser, cid)
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, ClusterScreen) and screen.cluster_id == cid
        assert screen.trail == ("Northwind Labs", "Issues clusters", LOGIN)


# --- one cluster ------------------------------------------------------------------------------------------------


async def test_cluster_shows_summary_pulse_and_issues(services: Services, state: SandboxState, open_app: Any) -> None:
    cid = cluster_id(state, LOGIN)
    async with open_app(cluster(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ClusterScreen)
        assert text_of(screen.query_one("#cluster-title", Static)) == LOGIN
        facts = text_of(screen.query_one("#cluster-facts", Static))
        assert "icon right-to-bracket" in facts and "high impact" in facts and "3 issues from 3 conversations" in facts
        assert screen.query_one(Sparkline).data == [float(v) for v in state.clusters[cid]["weeklyPulse"]]
        words = text_of(screen.query_one("#cluster-trend", Static)).splitlines()
        assert words[:2] == ["13-week pulse", trend(state.clusters[cid]["weeklyPulse"])]
        await keys(pilot, "2")
        assert screen.tabs.active == "issues"
        issues = rows(screen.issues_list)
        assert len(issues) == 3
        subjects = {r[2] for r in issues}
        assert "Stuck in a login loop" in subjects
        await keys(pilot, "enter")
        assert isinstance(app.screen, ConversationScreen)
        assert app.screen.conversation_id in {i["conversation"] for i in state.conversation_issues.values()}


async def test_linked_change_request_opens_into_review(services: Services, state: SandboxState, open_app: Any) -> None:
    cid = cluster_id(state, LOGIN)
    linked = link_change_request(state, cid)
    async with open_app(cluster(services, state)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "3")
        assert screen.tabs.active == "change-requests"
        shown = rows(screen.change_requests_list)
        assert len(shown) == 1 and shown[0][0].startswith(f"#{linked['number']} ")
        space_title = state.spaces[linked["space"]]["title"]
        assert shown[0][1] == space_title
        await keys(pilot, "enter")
        opened = app.screen
        assert isinstance(opened, ChangeRequestScreen)
        assert opened.space_id == linked["space"]
        assert opened.cr is not None and (opened.cr.id, opened.cr.number) == (linked["id"], linked["number"])


async def test_the_demo_links_a_cluster_to_a_change_request(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """The seed links one cluster to a change request, so the demo can show a cluster's change requests."""
    async with open_app(cluster(services, state, "Rate limit errors are unclear")) as (app, pilot):
        screen = app.screen
        await keys(pilot, "3")
        shown = rows(screen.change_requests_list)
        assert len(shown) == 1 and shown[0][0].endswith("Reorganise troubleshooting")
        await keys(pilot, "enter")
        opened = app.screen
        assert isinstance(opened, ChangeRequestScreen) and opened.cr is not None
        assert opened.cr.subject == "Reorganise troubleshooting"


async def test_mute_from_the_cluster_screen(services: Services, state: SandboxState, open_app: Any) -> None:
    cid = cluster_id(state, LOGIN)
    async with open_app(cluster(services, state)) as (app, pilot):
        facts = app.screen.query_one("#cluster-facts", Static)
        await keys(pilot, "m")
        assert state.clusters[cid]["muted"] is True and "muted: prompts no change requests" in text_of(facts)
        await keys(pilot, "m")
        assert state.clusters[cid]["muted"] is False and "not muted" in text_of(facts)


# --- a service without conversations -------------------------------------------------------------------------


def bare_services(state: SandboxState) -> Services:
    async def no_sleep(seconds: float) -> None:
        return None

    from folio.sandbox import SandboxTransport, create_app

    transport = WithoutConversations(SandboxTransport(create_app(state)))
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=no_sleep)
    )
    return Services(client, where="a service without conversations")


async def test_a_service_without_conversations_says_so_once(state: SandboxState, open_app: Any) -> None:
    services = bare_services(state)
    async with open_app(clusters(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ClustersScreen)
        browser = screen.panel.browser
        status = browser.query_one(".resource-browser--status", Static)
        assert text_of(status) == NOT_OFFERED
        assert not status.has_class("-error")
        hint = screen.panel.query_one(".resource-panel--hint", Static)
        assert not hint.display
        everything = " ".join(text_of(s) for s in screen.query(Static))
        assert everything.count(NOT_OFFERED) == 1 and "404" not in everything
        assert screen.panel.why_not("mute") == NOT_OFFERED
        await keys(pilot, "m")  # greyed out: says why, sends nothing
        assert all(c["muted"] is False for c in state.clusters.values() if c["label"] == LOGIN)
        assert [n.message for n in app._notifications][-1:] == [NOT_OFFERED]
        await keys(pilot, "r")
        assert text_of(status) == NOT_OFFERED
        await services.aclose()


async def test_a_cluster_screen_without_conversations(state: SandboxState, open_app: Any) -> None:
    services = bare_services(state)
    async with open_app(cluster(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ClusterScreen)
        assert text_of(screen.query_one("#cluster-title", Static)) == NOT_OFFERED
        assert screen.why_not("mute") == NOT_OFFERED
        await keys(pilot, "2")
        assert isinstance(app.screen.query_one(TabbedContent), TabbedContent)
        await services.aclose()


async def test_the_cluster_title_has_the_room_at_80_columns(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    from folio.tui.widgets.rows import TITLE_ROOM, layout

    async with open_app(clusters(services, state)) as (app, _pilot):
        browser = app.screen.panel.browser
        columns = browser.list.columns
        assert "icon" not in [c.key for c in columns]  # an icon's name said nothing a title needs the room for
        widths = layout(columns, browser.list.scrollable_content_region.width)
        assert widths[0] >= TITLE_ROOM  # (it had 9)
        lines = [browser.list.render_line(y).text for y in range(len(browser.list.visible_rows))]
        assert any(line.startswith(LOGIN[: widths[0] - 1] + "\u2026") for line in lines)  # (it showed "Login lo…")
