"""GitBook links: which of Folio's screens a URL a user holds names (an organization, a collection, a space and a
page in it, a change request and its tab, a comment's thread, a site and its section, an OpenAPI spec), and the
resource itself for ``folio show``.

    >>> link = parse("https://app.gitbook.com/o/acme/s/sp1/~/changes/12/")
    >>> link.kind, link.ids, link.view
    ('change-request', {'space_id': 'sp1', 'ref': 12}, {'tab': 'changes'})
    >>> link = await resolve(client, "https://docs.acme.com/guides/install#linux")   # a published page
    >>> link.kind, link.ids
    ('space', {'space_id': 'sp1', 'anchor': 'linux', 'page_id': 'pg7'})

:func:`parse` reads, without the network, the forms Folio itself prints and users paste: app URLs
(``app.gitbook.com/o/<org>/...``, ``/s/<space>/...``, ``/o/<org>/c/<collection>``, ``/o/<org>/sites/<site>/...``,
``/o/<org>/openapi/<slug>``, a change request's ``/~/changes/<n>/...``, a comment's ``?comment=<id>`` or
``/~/comments/<id>``), the public link of an OpenAPI spec (``/public/openapi/<org>/<slug>``) and the API's own
``urls.location`` (``api.gitbook.com/v1/spaces/<space>/comments/<id>``...). Any other host is a published docs
URL: :func:`resolve` finds it among the published sites (and then the published spaces) of the user's
organizations, and turns a page path into the page's id. A URL Folio cannot map raises :class:`LinkError`, whose
message names the part it could not read.

A published address is found by reading the published profile of every published site of every organization
(``GET /orgs/{org}/sites/{site}/published``, which gives each section's and site space's address), then, if none
matches, the spaces' own ``urls.published``: reads the service describes and the sandbox answers. The public
description also has ``GET /urls/content`` (``getContentByUrl``), one call for the same answer, but neither
Folio's client nor its sandbox offers it yet.

The kinds and ids are those of the screens' routes (``folio.tui.routes``; a test checks them against the table):
this module sits below the TUI and names them as strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from folio.services.errors import Refusal

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.common import Page

__all__ = [
    "APP_HOSTS",
    "Link",
    "LinkError",
    "LinkService",
    "fetch",
    "parse",
    "resolve",
]

APP_HOSTS = frozenset({"app.gitbook.com"})
"""Hosts of GitBook's app (the editor), whose paths name things by id."""
API_HOSTS = frozenset({"api.gitbook.com"})
"""Hosts of the API, whose ``urls.location`` Folio shows for things the app has no page for (a comment)."""

_NUMBER = re.compile(r"\d{1,9}")


class LinkError(Refusal, ValueError):
    """A URL Folio cannot map to a screen; ``str(error)`` (and ``describe()``, as every service's refusal) names
    the part it could not read."""


@dataclass(frozen=True)
class Link:
    """What a URL names, as a screen: the route's ``kind`` and ``ids`` (``folio.tui.routes``), what the URL names
    in words (``page``, ``site section``: it may be a part of the screen), and how the screen opens: its ``tab``,
    and the row to put the cursor on (``cursor`` in the list of id ``list``)."""

    kind: str
    ids: dict[str, Any]
    what: str
    url: str = ""
    tab: str | None = None
    list: str | None = None
    cursor: str | None = None
    org_id: str | None = None
    """The organization it belongs to, when the URL says (a space's app URL does)."""
    target: dict[str, str] = field(default_factory=dict)
    """The ids of the thing itself when it is not the screen's (``collection_id``, ``section_id``,
    ``revision_id``, ``reply_id``): what ``folio show`` reads."""
    page_path: str | None = None
    """A page's path in the space (or change request), still to be turned into its id (:func:`resolve`)."""
    published: bool = False
    """A published docs URL, still to be found among the sites (:func:`resolve`)."""

    @property
    def view(self) -> dict[str, Any]:
        """The screen's tab, list and row, in the shape of a saved session's entry (``folio.tui.restore``)."""
        view: dict[str, Any] = {}
        if self.tab:
            view["tab"] = self.tab
        if self.list and self.cursor:
            view["list"], view["cursor"] = self.list, self.cursor
        return view

    @property
    def resolved(self) -> bool:
        """Whether the screen can be built from it as it is (no page path or published URL left to look up)."""
        return not self.published and self.page_path is None and "collection" not in self.ids


class LinkService:
    """``services.links``: :func:`resolve` and :func:`fetch` over the account's client (what the TUI calls)."""

    def __init__(self, client: GitBookClient) -> None:
        self.client = client

    async def resolve(self, url: str | Link) -> Link:
        return await resolve(self.client, url)

    async def fetch(self, link: Link) -> Any:
        return await fetch(self.client, link)


# -- reading a URL -------------------------------------------------------------------------------------------


def parse(url: str, *, api_hosts: Iterable[str] = ()) -> Link:
    """What ``url`` names, read without the network (a published URL comes back with ``published`` set, a page
    path in ``page_path``: :func:`resolve` finishes them). ``api_hosts``: the hosts of the API in use besides
    ``api.gitbook.com`` (a profile's base URL). Raises :class:`LinkError`."""
    text = url.strip()
    if not text:
        raise LinkError("No URL was given.")
    if "://" not in text:
        text = "https://" + text  # (pasted without its scheme: app.gitbook.com/o/...)
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
    except ValueError as exc:
        raise LinkError(f"{_short(url)} is not a URL Folio can read ({exc}).") from None
    if parts.scheme not in ("http", "https") or not host:
        raise LinkError(f"{_short(url)} is not a web address (it should start with https://).")
    segments = [unquote(s) for s in parts.path.split("/") if s]
    query = parse_qs(parts.query)
    anchor = unquote(parts.fragment) or None
    reader = _Reader(text, segments)
    if host in APP_HOSTS:
        link = _app(reader, query, anchor)
    elif host in API_HOSTS or host in {h.lower() for h in api_hosts}:
        link = _api(reader)
    else:
        link = Link("site", {}, "published page", published=True)
    return replace(link, url=text)


class _Reader:
    """The segments of a URL's path, read one by one, with errors that name where reading stopped."""

    def __init__(self, url: str, segments: list[str]) -> None:
        self.url = url
        self.segments = segments
        self.at = 0

    def next(self, after: str) -> str:
        """The next segment (an id after ``after``), or a LinkError saying it is missing."""
        if self.at >= len(self.segments):
            raise LinkError(f"{_short(self.url)}: the {after} is missing after '{'/'.join(self.segments)}'.")
        segment = self.segments[self.at]
        self.at += 1
        return segment

    def peek(self) -> str | None:
        return self.segments[self.at] if self.at < len(self.segments) else None

    def rest(self) -> list[str]:
        rest, self.at = self.segments[self.at :], len(self.segments)
        return rest

    def unknown(self, after: str) -> LinkError:
        """The error for the segment under the reader: not a part Folio knows after ``after``."""
        shown = "/".join(self.segments[self.at :])
        return LinkError(f"…/{_short(shown, 60)}: '{self.segments[self.at]}' is not a part Folio knows after {after}.")

    def done(self, after: str) -> None:
        """Nothing may follow."""
        if self.at < len(self.segments):
            raise self.unknown(after)


def _app(reader: _Reader, query: dict[str, list[str]], anchor: str | None) -> Link:
    first = reader.peek()
    if first is None:
        raise LinkError(f"{_short(reader.url)} is GitBook's app itself: it names no organization, space or site.")
    reader.at += 1
    if first == "o":
        return _organization(reader, reader.next("organization id"), query, anchor)
    if first == "s":
        return _space(reader, reader.next("space id"), None, query, anchor)
    if first == "public" and reader.peek() == "openapi":
        reader.at += 1
        org_id = reader.next("organization id")
        slug = reader.next("OpenAPI spec's slug")
        reader.done("the OpenAPI spec's slug")
        return Link("spec", {"org_id": org_id, "slug": slug}, "OpenAPI spec", org_id=org_id)
    reader.at -= 1
    raise reader.unknown("app.gitbook.com (Folio reads /o/<organization>/… and /s/<space>/…)")


_ORG_SCREENS = {
    "members": "members",
    "teams": "teams",
    "sso": "sso",
    "saml": "sso",
    "settings": "settings",
    "openapi": "specs",
    "translations": "translations",
    "trash": "trash",
    "search": "search",
    "conversations": "conversations",
    "clusters": "clusters",
    "agent": "agent",
}
"""An organization's app pages (``/o/<org>/<word>``) that are a screen of Folio's (a route of ``find=organization``)."""

_SITE_TABS = {
    "settings": "settings",
    "preview": None,
    "structure": "structure",
    "sections": "structure",
    "adaptive": "adaptive",
    "audience": "adaptive",
    "customization": "settings",
    "insights": None,
    "integrations": None,
}
"""A site's app pages (``/o/<org>/sites/<site>/<word>``) and the tab of the site's screen that shows them."""


def _organization(reader: _Reader, org_id: str, query: dict[str, list[str]], anchor: str | None) -> Link:
    ids = {"org_id": org_id}
    word = reader.peek()
    if word is None:
        return Link("organization", ids, "organization", org_id=org_id)
    reader.at += 1
    if word == "s":
        return _space(reader, reader.next("space id"), org_id, query, anchor)
    if word == "c":
        collection = reader.next("collection id")
        reader.rest()  # (a collection's app page has tabs of its own: the screen is the organization's)
        return _collection(org_id, collection)
    if word == "sites":
        site_id = reader.next("site id")
        link = Link("site", {"org_id": org_id, "site_id": site_id}, "site", org_id=org_id)
        part = reader.peek()
        if part is None:
            return link
        if part not in _SITE_TABS:
            raise reader.unknown("the site id")
        reader.at += 1
        tab = _SITE_TABS[part]
        if part == "sections" and reader.peek() is not None:
            section = reader.next("section id")
            reader.rest()
            return replace(link, what="site section", tab=tab, target={"section_id": section}, cursor=section)
        reader.rest()
        return replace(link, tab=tab)
    if word == "openapi" and reader.peek() is not None:
        slug = reader.next("OpenAPI spec's slug")
        if reader.peek() == "versions":
            reader.at += 1
            version = reader.next("version id")
            reader.done("the version id")
            ids = {"org_id": org_id, "slug": slug, "version_id": version}
            return Link("spec-version", ids, "OpenAPI spec version", org_id=org_id)
        reader.rest()
        return Link("spec", {"org_id": org_id, "slug": slug}, "OpenAPI spec", org_id=org_id)
    if word == "settings" and reader.peek() in _ORG_SCREENS and reader.peek() != "settings":
        word = reader.next("settings page")  # /o/<org>/settings/members
    if word in _ORG_SCREENS:
        reader.rest()
        kind = _ORG_SCREENS[word]
        return Link(kind, ids, kind.replace("-", " "), org_id=org_id)
    reader.at -= 1
    raise reader.unknown("the organization id")


def _collection(org_id: str | None, collection_id: str) -> Link:
    """A collection: the organization's screen on its collections tab, the cursor on it (without the
    organization, :func:`resolve` asks the service whose it is)."""
    ids: dict[str, Any] = {"org_id": org_id} if org_id else {"collection": collection_id}
    return Link(
        "organization",
        ids,
        "collection",
        tab="collections",
        list="organization-tree",
        cursor=collection_id,
        org_id=org_id,
        target={"collection_id": collection_id},
    )


def _space(reader: _Reader, space_id: str, org_id: str | None, query: dict[str, list[str]], anchor: str | None) -> Link:
    space = Link("space", {"space_id": space_id}, "space", org_id=org_id)
    change_request: int | None = None
    if reader.peek() == "~":
        reader.at += 1
        word = reader.next("part after ~ (changes, revisions, comments)")
        if word == "changes":
            number = reader.next("change request's number")
            if not _NUMBER.fullmatch(number) or int(number) == 0:
                reader.at -= 1
                raise LinkError(f"{_short(reader.url)}: '{number}' is not a change request number.")
            change_request = int(number)
            if reader.peek() == "~" and reader.segments[reader.at + 1 : reader.at + 2] == ["comments"]:
                reader.at += 2
                return _thread(space_id, reader.next("comment id"), change_request, org_id, reader)
            reader.rest()  # (a page of the change request: its changes tab shows every changed page)
            cr = Link(
                "change-request",
                {"space_id": space_id, "ref": change_request},
                "change request",
                org_id=org_id,
                tab="changes",  # (the app's page of a change request is its content: Folio's changes tab)
            )
            if "comment" in query:
                return _thread(space_id, query["comment"][0], change_request, org_id, reader)
            return cr
        if word == "revisions":
            revision = reader.next("revision id")
            reader.rest()
            return replace(space, what="revision", tab="tab-revision", target={"revision_id": revision})
        if word == "comments":
            return _thread(space_id, reader.next("comment id"), None, org_id, reader)
        reader.at -= 1
        raise reader.unknown("~ in a space's URL (Folio reads ~/changes/<number>, ~/revisions/<id>, ~/comments/<id>)")
    if "comment" in query:
        return _thread(space_id, query["comment"][0], None, org_id, reader)
    path = "/".join(reader.rest())
    if not path:
        return space
    ids = {"space_id": space_id, **({"anchor": anchor} if anchor else {})}
    return replace(space, ids=ids, what="page", page_path=path)


def _thread(
    space_id: str, comment_id: str, change_request: int | str | None, org_id: str | None, reader: _Reader
) -> Link:
    reply = None
    if reader.peek() == "replies":
        reader.at += 1
        reply = reader.next("reply id")
    reader.rest()
    ids: dict[str, Any] = {"space_id": space_id, "comment_id": comment_id}
    if change_request is not None:
        ids["change_request"] = change_request
    target = {"reply_id": reply} if reply else {}
    return Link("thread", ids, "reply" if reply else "comment", org_id=org_id, target=target)


def _api(reader: _Reader) -> Link:
    """An API URL (``urls.location``): ``/v1/orgs/...``, ``/v1/spaces/...``, ``/v1/collections/<id>``."""
    if reader.peek() == "v1":
        reader.at += 1
    word = reader.peek()
    if word is None:
        raise LinkError(f"{_short(reader.url)} is the API itself: it names nothing.")
    reader.at += 1
    if word == "spaces":
        space_id = reader.next("space id")
        part = reader.peek()
        change_request: str | None = None
        if part == "change-requests":
            reader.at += 1
            change_request = reader.next("change request id")
            part = reader.peek()
        if part == "comments":
            reader.at += 1
            return _thread(space_id, reader.next("comment id"), change_request, None, reader)
        if part is None:
            if change_request is not None:
                ref: int | str = int(change_request) if _NUMBER.fullmatch(change_request) else change_request
                return Link("change-request", {"space_id": space_id, "ref": ref}, "change request")
            return Link("space", {"space_id": space_id}, "space")
        raise reader.unknown("the change request id" if change_request else "the space id")
    if word == "collections":
        collection = reader.next("collection id")
        reader.done("the collection id")
        return _collection(None, collection)
    if word == "orgs":
        return _api_organization(reader, reader.next("organization id"))
    reader.at -= 1
    raise reader.unknown("the API's address (Folio reads orgs/…, spaces/…, collections/…)")


_API_ORG_LISTS = {
    "members": ("members", "member", "user_id"),
    "teams": ("teams", "team", "team_id"),
    "conversations": ("conversations", "conversation", "conversation_id"),
    "translations": ("translations", "", ""),
    "saml": ("sso", "", ""),
    "agent-instructions": ("agent", "", ""),
}
"""``/orgs/<org>/<word>[/<id>]`` of the API: the list's route, the route of one item (by its id) if it has one."""


def _api_organization(reader: _Reader, org_id: str) -> Link:
    ids: dict[str, Any] = {"org_id": org_id}
    word = reader.peek()
    if word is None:
        return Link("organization", ids, "organization", org_id=org_id)
    reader.at += 1
    if word == "sites":
        site_id = reader.next("site id")
        reader.rest()
        return Link("site", {**ids, "site_id": site_id}, "site", org_id=org_id)
    if word == "openapi":
        slug = reader.next("OpenAPI spec's slug")
        if reader.peek() == "versions":
            reader.at += 1
            version = reader.next("version id")
            reader.rest()
            return Link(
                "spec-version", {**ids, "slug": slug, "version_id": version}, "OpenAPI spec version", org_id=org_id
            )
        reader.rest()
        return Link("spec", {**ids, "slug": slug}, "OpenAPI spec", org_id=org_id)
    if word in _API_ORG_LISTS:
        many, one, name = _API_ORG_LISTS[word]
        item = reader.peek()
        reader.rest()
        if item is not None and one:
            return Link(one, {**ids, name: item}, one, org_id=org_id)
        what = many.replace("-", " ")
        return Link(many, ids, what, org_id=org_id, cursor=item, target={"item_id": item} if item else {})
    reader.at -= 1
    raise reader.unknown("the organization id")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- resolving it with the service ---------------------------------------------------------------------------


async def resolve(client: GitBookClient, url: str | Link) -> Link:
    """:func:`parse`, then what needs the service: a page path made the page's id, a collection's organization,
    a published URL found among the published sites and spaces of the user's organizations. Raises
    :class:`LinkError` (a URL that names nothing Folio can open) or the API's errors."""
    link = url if isinstance(url, Link) else parse(url, api_hosts=[client.host.split(":")[0]])
    if link.published:
        link = await _published(client, link)
    if "collection" in link.ids:
        collection = await client.collections.get(link.ids["collection"])
        org_id = collection.organization
        if not org_id:
            raise LinkError(f"{_short(link.url)}: the service does not say which organization the collection is in.")
        link = replace(link, ids={"org_id": org_id}, org_id=org_id)
    if link.page_path is not None:
        link = await _page(client, link)
    return link


async def _page(client: GitBookClient, link: Link) -> Link:
    """The page at ``link.page_path`` in the space (the change request's content for one)."""
    space_id = link.ids["space_id"]
    path = (link.page_path or "").strip("/")
    pages = (await client.content.pages(space_id)).walk()
    page = _page_at(pages, path)
    if page is None:
        raise LinkError(f"{_short(link.url)}: the space has no page at '{_short(path, 60)}'.")
    return replace(link, ids={**link.ids, "page_id": page.id}, page_path=None, target={"page_id": page.id})


def _page_at(pages: list[Page], path: str) -> Page | None:
    """The page whose path is ``path`` (the first document of a group reached by the group's path; an empty
    path: the first page of the space)."""
    if not path:
        return next((p for p in pages if p.type == "document"), None)
    for page in pages:
        if (page.path or "").strip("/") == path:
            if page.type == "document" or not page.pages:
                return page
            return next((p for p in page.walk()[1:] if p.type == "document"), page)
    return None


async def _published(client: GitBookClient, link: Link) -> Link:
    """A published docs URL: the site (or site section) it is the address of, or the page of a published space
    under it; else a space published on its own. LinkError when no site or space of the user's organizations is
    published there."""
    wanted = _plain(link.url)
    anchor = urlsplit(link.url).fragment or None
    best: tuple[int, Link] | None = None
    organizations = await client.organizations.list().collect()
    for org in organizations:
        for site in await client.sites.list(org.id).collect():
            if not site.published:
                continue
            published = await client.sites.published(org.id, site.id)
            site_ids = {"org_id": org.id, "site_id": site.id}
            places: list[tuple[str | None, Link]] = [
                (published.site.published_url, Link("site", site_ids, "site", org_id=org.id))
            ]
            for item in published.structure.walk():
                url = item.urls.published if getattr(item, "urls", None) else None
                noun = str(getattr(item, "object", "item")).replace("-", " ")
                places.append((url, Link("site", site_ids, noun, org_id=org.id, cursor=item.id, tab="structure")))
            for section in published.structure.sections():
                for site_space in section.site_spaces:
                    url = site_space.urls.published if site_space.urls else None
                    places.append((url, _site_space(site_space, site_ids, org.id)))
            for site_space in published.structure.site_spaces() if not published.structure.sections() else []:
                url = site_space.urls.published if site_space.urls else None
                places.append((url, _site_space(site_space, site_ids, org.id)))
            best = _better(best, wanted, places, anchor)
    if best is None:
        for org in organizations:
            spaces = await client.spaces.list(org.id).collect()
            places = [
                (s.urls.published if s.urls else None, Link("space", {"space_id": s.id}, "space", org_id=org.id))
                for s in spaces
            ]
            best = _better(best, wanted, places, anchor)
    if best is None:
        count = f"{len(organizations)} organization{'s' if len(organizations) != 1 else ''}"
        raise LinkError(
            f"{_short(link.url)}: no published site or space of your organizations is at this address "
            f"(the published sites and spaces of your {count} were looked through)."
        )
    return replace(best[1], url=link.url)


def _site_space(site_space: Any, site_ids: dict[str, Any], org_id: str) -> Link:
    """A site space's address: the site's screen on it; below it, a page of its space."""
    link = Link("site", site_ids, "site space", org_id=org_id, cursor=site_space.id, tab="structure")
    space = site_space.space
    return replace(link, target={"space_id": space.id} if space is not None else {})


def _better(
    best: tuple[int, Link] | None, wanted: str, places: list[tuple[str | None, Link]], anchor: str | None
) -> tuple[int, Link] | None:
    """The longest published address that ``wanted`` is or starts with; a page path below a site space or a
    space becomes that space's page (to look up)."""
    for url, candidate in places:
        if not url:
            continue
        base = _plain(url)
        if wanted != base and not wanted.startswith(base + "/") and base:
            continue
        length = len(base)
        if best is not None and best[0] >= length:
            continue
        rest = wanted[len(base) :].strip("/")
        if rest:
            space_id = candidate.target.get("space_id") or candidate.ids.get("space_id")
            if not space_id:
                continue  # below a section but no space of it: a longer address may match
            ids = {"space_id": space_id, **({"anchor": anchor} if anchor else {})}
            candidate = Link("space", ids, "page", org_id=candidate.org_id, page_path=rest)
        elif candidate.kind == "site" and candidate.target.get("space_id") and candidate.what == "site space":
            candidate = replace(candidate, target={})
        best = (length, candidate)
    return best


def _plain(url: str) -> str:
    """A published address without scheme, query, fragment and trailing slash, in lower case host."""
    parts = urlsplit(url if "://" in url else "https://" + url)
    return f"{(parts.hostname or '').lower()}{parts.path}".rstrip("/")


# -- the resource itself (folio show) ------------------------------------------------------------------------


async def fetch(client: GitBookClient, link: Link) -> Any:
    """The resource ``link`` names, in the service's shape (a model): organization, collection, space, page,
    change request, comment or reply, site, site section or site space, OpenAPI spec or version, member, team,
    conversation. Raises LookupError for a screen that is a list (``members``), the API's errors otherwise."""
    ids, target = link.ids, link.target
    if "collection_id" in target:
        return await client.collections.get(target["collection_id"])
    if link.kind == "organization":
        return await client.organizations.get(ids["org_id"])
    if link.kind == "space":
        if ids.get("page_id"):
            return await client.content.page(ids["space_id"], ids["page_id"], format="markdown")
        if "revision_id" in target:
            return await client.content.revision(ids["space_id"], revision=target["revision_id"])
        return await client.spaces.get(ids["space_id"])
    if link.kind == "change-request":
        return await client.change_requests.get(ids["space_id"], ids["ref"])
    if link.kind == "thread":
        cr = ids.get("change_request")
        if "reply_id" in target:
            return await client.comments.get_reply(
                ids["space_id"], ids["comment_id"], target["reply_id"], change_request=cr, format="markdown"
            )
        return await client.comments.get(ids["space_id"], ids["comment_id"], change_request=cr, format="markdown")
    if link.kind == "site":
        if link.cursor:
            published = await client.sites.published(ids["org_id"], ids["site_id"])
            for item in published.structure.walk():
                if item.id == link.cursor:
                    return item
            for site_space in published.structure.site_spaces():
                if site_space.id == link.cursor:
                    return site_space
        return await client.sites.get(ids["org_id"], ids["site_id"])
    if link.kind == "spec":
        return await client.openapi.get(ids["org_id"], ids["slug"])
    if link.kind == "spec-version":
        return await client.openapi.version(ids["org_id"], ids["slug"], ids["version_id"])
    if link.kind == "member":
        return await client.members.get(ids["org_id"], ids["user_id"])
    if link.kind == "team":
        return await client.teams.get(ids["org_id"], ids["team_id"])
    if link.kind == "conversation":
        return await client.conversations.get(ids["org_id"], ids["conversation_id"])
    if link.kind == "translations" and "item_id" in target:
        return await client.translations.get(ids["org_id"], target["item_id"])
    raise LookupError(f"this URL names the {link.what} screen of an organization, a list: folio show reads one thing")
