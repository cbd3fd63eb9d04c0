"""How each route's screen is built from its ids: one function per kind, each importing its screen module when
first called, so start-up imports no screen but the first. ``folio.tui.routes`` names them in its table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.services import Services
    from folio.tui.navigation import Ids

__all__ = [
    "agent",
    "change_request",
    "cluster",
    "clusters",
    "conversation",
    "conversations",
    "member",
    "members",
    "organization",
    "search",
    "settings",
    "site",
    "space",
    "space_search",
    "spec",
    "spec_version",
    "specs",
    "sso",
    "team",
    "teams",
    "thread",
    "translations",
    "trash",
]


def organization(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.content.organization import OrganizationScreen

    return OrganizationScreen(services, ids["org_id"], title=title, trail=trail)


def space(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.content.space import SpaceScreen

    return SpaceScreen(
        services, ids["space_id"], title=title, trail=trail, page_id=ids.get("page_id"), anchor=ids.get("anchor")
    )


def change_request(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.review.change_request import ChangeRequestScreen

    return ChangeRequestScreen(services, ids["space_id"], ids["ref"], trail=trail)


def thread(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.review.thread import ThreadScreen

    return ThreadScreen(
        services, ids["space_id"], ids["comment_id"], change_request=ids.get("change_request"), trail=trail
    )


def site(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.sites.site import SiteScreen

    return SiteScreen(services, ids["org_id"], ids["site_id"], trail=trail)


def specs(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.specs import SpecsScreen

    return SpecsScreen(services, ids["org_id"], start_filter=ids.get("query"), trail=trail)


def spec(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.spec import SpecScreen

    return SpecScreen(services, ids["org_id"], ids["slug"], trail=trail)


def spec_version(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.spec import SpecVersionScreen

    return SpecVersionScreen(services, ids["org_id"], ids["slug"], ids["version_id"], base=ids.get("base"), trail=trail)


def translations(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.content.translations import TranslationsScreen

    return TranslationsScreen(services, ids["org_id"], start_filter=ids.get("query"), trail=trail)


def clusters(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.clusters import ClustersScreen

    return ClustersScreen(services, ids["org_id"], query=ids.get("query"), trail=trail)


def cluster(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.cluster import ClusterScreen

    return ClusterScreen(services, ids["org_id"], ids["cluster_id"], trail=trail)


def conversations(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.conversations import ConversationsScreen

    return ConversationsScreen(services, ids["org_id"], query=ids.get("query"), trail=trail)


def conversation(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.conversation import ConversationScreen

    return ConversationScreen(services, ids["org_id"], ids["conversation_id"], trail=trail)


def sso(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.people.sso import SsoScreen

    return SsoScreen(services, ids["org_id"], query=ids.get("query"), trail=trail)


def settings(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.people.settings import SettingsScreen

    return SettingsScreen(services, ids["org_id"], query=ids.get("query"), trail=trail)


def agent(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.insights.agent import AgentScreen

    return AgentScreen(services, ids["org_id"], trail=trail)


def members(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.people.members import MembersScreen

    # ``query``: the words after ``:members``; ``search``: the same, as the session saved it.
    return MembersScreen(services, ids["org_id"], search=ids.get("search") or ids.get("query"), trail=trail)


def member(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.people.member import MemberScreen

    return MemberScreen(services, ids["org_id"], ids["user_id"], title=title, trail=trail)


def teams(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.people.teams import TeamsScreen

    return TeamsScreen(services, ids["org_id"], search=ids.get("search") or ids.get("query"), trail=trail)


def team(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.people.team import TeamScreen

    return TeamScreen(services, ids["org_id"], ids["team_id"], title=title, trail=trail)


def search(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.content.search import SearchScreen

    # ``words``: as the session saved them; ``query``: the words after ``:search``.
    return SearchScreen(services, ids["org_id"], words=ids.get("words") or ids.get("query") or "", trail=trail)


def space_search(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.content.search import SpaceSearchScreen

    return SpaceSearchScreen(services, ids["space_id"], words=ids.get("words") or "", trail=trail)


def trash(services: Services, ids: Ids, title: str | None, trail: tuple[str, ...]) -> Screen[Any]:
    from folio.tui.screens.content.trash import TrashScreen

    return TrashScreen(services, ids["org_id"], trail=trail)
