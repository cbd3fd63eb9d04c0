"""Every kind of thing a screen shows, in one table: its noun and plural, the ``:`` verbs that reach it, how its
screen is built from ids (the screen module is imported when first built), whether the session saves it, and
whether the palette's go-to lists it. The command line, the palette, the session, ``Open`` from any list and the
``?`` help all read this table.

Adding a screen: write ``screens/<name>.py`` (a ``FolioScreen`` with ``ROUTE = "<kind>"``), add one
:class:`Route` below with a builder that imports it, its service, its style, its tests (CONTRIBUTING.md).

How a verb finds what it opens (:attr:`Route.find`):

    title         a loaded thing whose title matches the argument (``:space getting started``)
    number        a change request of the open space by number (``:cr 12``)
    organization  the screen of the organization in view (or the only one loaded); the argument, if any, is
                  handed to the screen as ``query`` (``:members ada``, ``:search webhooks``)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from folio.tui import builders
from folio.tui.navigation import Ids

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.services import Services

__all__ = ["ROUTES", "VERBS", "Find", "Route", "build", "noun_of", "route", "route_of_verb", "verbs_help"]

Find = Literal["title", "number", "organization", "none"]
Builder = Callable[["Services", Ids, str | None, tuple[str, ...]], "Screen[Any]"]
"""``build(services, ids, title, trail)``: the screen, built from its ids."""


@dataclass(frozen=True)
class Route:
    kind: str
    """The name used everywhere else: ``Open(kind, ...)``, ``remember(kind, ...)``, the session."""
    noun: str
    plural: str
    ids: tuple[str, ...]
    """The ids the screen is built from, which are also the screen's attributes the session saves."""
    builder: Builder
    verbs: tuple[str, ...] = ()
    """The ``:`` verbs that reach it (the first is the one the help shows)."""
    find: Find = "none"
    session: bool = True
    go_to: bool = True
    """Whether the palette's go-to lists the things of this kind that were loaded."""
    summary: str = ""
    """What the screen shows, for the ``?`` help and the command line's suggestions."""

    @property
    def title(self) -> str:
        """``Change request``: the noun as a heading."""
        return self.noun[:1].upper() + self.noun[1:]

    def usage(self) -> str:
        """``:cr <number>``, ``:space <title>``, ``:members [words]``."""
        verb = f":{self.verbs[0]}" if self.verbs else ""
        argument = {"title": " <title>", "number": " <number>", "organization": " [words]", "none": ""}[self.find]
        return verb + argument


def area(
    kind: str,
    noun: str,
    builder: Builder,
    *,
    verbs: tuple[str, ...],
    summary: str,
    plural: str | None = None,
    ids: tuple[str, ...] = ("org_id",),
) -> Route:
    """The route of an area of the organization in view (``:members``, ``:trash``): its verbs find the
    organization, and the go-to does not list it (there is one per organization)."""
    return Route(
        kind, noun, plural or noun, ids, builder, verbs=verbs, find="organization", go_to=False, summary=summary
    )


ROUTES: dict[str, Route] = {
    r.kind: r
    for r in (
        Route(
            "organization",
            "organization",
            "organizations",
            ("org_id",),
            builders.organization,
            verbs=("org", "orgs", "organization", "organisation"),
            find="title",
            summary="an organization: its collections, spaces, change request inbox and sites",
        ),
        Route(
            "space",
            "space",
            "spaces",
            ("space_id",),
            builders.space,
            verbs=("space",),
            find="title",
            summary="a space: pages, files, links, change requests, comments",
        ),
        Route(
            "change-request",
            "change request",
            "change requests",
            ("space_id", "ref"),
            builders.change_request,
            verbs=("cr", "change-request"),
            find="number",
            summary="a change request of the open space, by number: overview, changes, comments",
        ),
        Route(
            "thread",
            "comment",
            "comments",
            ("space_id", "comment_id", "change_request"),
            builders.thread,
            go_to=False,
            summary="a comment thread",
        ),
        Route(
            "site",
            "site",
            "sites",
            ("org_id", "site_id"),
            builders.site,
            verbs=("site",),
            find="title",
            summary="a docs site: settings, structure, adaptive content",
        ),
        area(
            "sso",
            "single sign-on",
            builders.sso,
            verbs=("sso", "saml"),
            summary="the organization's SAML providers and the SSO sign-in options they offer",
        ),
        area(
            "settings",
            "organization settings",
            builders.settings,
            verbs=("settings",),
            summary="the organization's settings: title, domains, roles, SSO, AI, invite links, merge rules",
        ),
        area(
            "agent",
            "agent instructions",
            builders.agent,
            verbs=("agent",),
            summary="the instructions every agent of the organization follows",
        ),
        area(
            "specs",
            "OpenAPI specs",
            builders.specs,
            verbs=("specs", "openapi"),
            summary="the organization's imported OpenAPI specs: processing, visibility, sources",
        ),
        Route(
            "spec",
            "OpenAPI spec",
            "OpenAPI specs",
            ("org_id", "slug"),
            builders.spec,
            verbs=("spec",),
            find="title",
            summary="an OpenAPI spec: its versions, where it is used; compare two versions",
        ),
        Route(
            "spec-version",
            "OpenAPI spec version",
            "OpenAPI spec versions",
            ("org_id", "slug", "version_id", "base"),
            builders.spec_version,
            go_to=False,
            summary="a version of an OpenAPI spec: its files, or the changes from another version",
        ),
        area(
            "translations",
            "translations",
            builders.translations,
            verbs=("translations", "translate"),
            summary="the organization's translations of spaces: languages, status, runs",
        ),
        area(
            "clusters",
            "issues clusters",
            builders.clusters,
            verbs=("clusters",),
            summary="the organization's issues clusters: impact, 13-week pulse, mute",
        ),
        Route(
            "cluster",
            "issues cluster",
            "issues clusters",
            ("org_id", "cluster_id"),
            builders.cluster,
            summary="an issues cluster: summary, pulse, issues with their conversations, linked change requests",
        ),
        area(
            "conversations",
            "conversations",
            builders.conversations,
            verbs=("conversations", "conv"),
            summary="the organization's ingested conversations, by source; i ingests a file",
        ),
        Route(
            "conversation",
            "conversation",
            "conversations",
            ("org_id", "conversation_id"),
            builders.conversation,
            summary="a conversation: its parts, metadata and issues",
        ),
        area(
            "members",
            "member list",
            builders.members,
            plural="member lists",
            ids=("org_id", "search"),
            verbs=("members", "people"),
            summary="the organization's members: roles (one or a marked set, as a plan), SSO, removal",
        ),
        Route(
            "member",
            "member",
            "members",
            ("org_id", "user_id"),
            builders.member,
            summary="a member: the spaces they reach with their permission, their teams",
        ),
        area(
            "teams",
            "team list",
            builders.teams,
            plural="team lists",
            ids=("org_id", "search"),
            verbs=("teams",),
            summary="the organization's teams: create, rename, delete; [words] filters by title",
        ),
        Route(
            "team",
            "team",
            "teams",
            ("org_id", "team_id"),
            builders.team,
            summary="a team's members and their team role; add and remove one or many at once",
        ),
        area(
            "search",
            "search",
            builders.search,
            plural="searches",
            ids=("org_id", "words"),
            verbs=("search", "find"),
            summary="the organization's pages that match [words], by space and section; enter opens one",
        ),
        Route(
            "space-search",
            "space search",
            "space searches",
            ("space_id", "words"),
            builders.space_search,
            go_to=False,
            summary="a space's pages that match the words typed, by section; enter opens one",
        ),
        area(
            "trash",
            "trash",
            builders.trash,
            verbs=("trash",),
            summary="the organization's deleted spaces, restorable for 7 days: u restores one",
        ),
    )
}
"""Every route, by kind, in the order the help lists them."""


def _verbs() -> dict[str, str]:
    table: dict[str, str] = {}
    for r in ROUTES.values():
        for verb in r.verbs:
            table[verb] = r.kind
    return table


VERBS: dict[str, str] = _verbs()
"""``:`` verb -> the kind of the route it reaches."""


def route(kind: str) -> Route | None:
    return ROUTES.get(kind)


def route_of_verb(verb: str) -> Route | None:
    kind = VERBS.get(verb.lower())
    return ROUTES[kind] if kind is not None else None


def build(services: Services, kind: str, ids: Ids, *, title: str | None = None, trail: tuple[str, ...] = ()) -> Any:
    """The screen of ``kind`` for ``ids`` (raises KeyError for an unknown kind or a missing id)."""
    return ROUTES[kind].builder(services, ids, title, trail)


def noun_of(kind: str) -> str:
    """``change request`` for ``change-request``; a kind with no route (a collection) reads as itself."""
    found = ROUTES.get(kind)
    return found.noun if found is not None else (kind.replace("-", " ") or "item")


HELP_FIRST = ("organization", "space", "change-request", "site")
"""The commands the one-line help spells out; ``?`` lists every one."""


def verbs_help() -> str:
    """One short line: ``:org <title> · :space <title> · :cr <number> · :site <title> · :members … · :q``."""
    first = [ROUTES[k].usage() for k in HELP_FIRST if k in ROUTES]
    others = [f":{ROUTES[k].verbs[0]}" for k in ("members", "teams") if k in ROUTES and ROUTES[k].verbs]
    others += [f":{r.verbs[0]}" for k, r in ROUTES.items() if r.verbs and k not in (*HELP_FIRST, "members", "teams")]
    return " · ".join([*first, *others[:2], *(["…"] if len(others) > 2 else []), ":q"]) + " (? lists all)"
