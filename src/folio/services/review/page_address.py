"""Which page a person means: a page's app URL, or ``<space id>/<page path>``, read and found in the page tree.

    address = parse_page_address("https://app.gitbook.com/o/ORG/s/SPACE/~/changes/4/guides/install")
    address.space_id, address.change_request, address.path      # 'SPACE', 4, 'guides/install'
    parse_page_address("SPACE/guides/install")                   # the same page in the main content
    found = await find_page(client, address)                      # the Page whose path it is (of the CR when named)

The forms read: ``https://<app host>/o/<org>/s/<space>/<page path>`` (the space's main content),
``.../s/<space>/~/changes/<number>/<page path>`` (a change request), with or without ``/o/<org>``, a trailing
``/``, a query or a ``#heading``; and ``<space id>/<page path>`` with ``path`` as in ``Page.path``. An empty path is
the space's first page with a text. What cannot be read or found raises :class:`BadAddress`, which says which part
did not match (the space, the change request, or the first segment of the path that names no page, with the pages
that are there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from folio.services.errors import Invalid
from folio.services.links import APP_HOSTS

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.common import Page

__all__ = ["BadAddress", "PageAddress", "find_page", "locate", "parse_page_address"]

_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
FORMS = (
    "give the page's address in the app (https://app.gitbook.com/o/<org>/s/<space>/<page path>, or "
    ".../s/<space>/~/changes/<number>/<page path>), its published address, or <space id>/<page path>"
)
LISTED = 8
"""Pages named when a path segment matches none."""


class BadAddress(Invalid):
    """The address cannot be read, or names no page: ``describe()`` says which part."""


@dataclass(frozen=True)
class PageAddress:
    """A page as named: its space, the change request the URL is in (its number; None: the main content), and its
    path in the page tree (``""``: the first page)."""

    space_id: str
    path: str = ""
    change_request: int | None = None
    organization: str | None = None
    published: str | None = None
    """A published docs URL (``space_id`` is then found by :func:`locate`, among the sites of your organizations)."""

    def words(self) -> str:
        if self.published is not None:
            return f"the published page {self.published}"
        where = f"change request #{self.change_request} of " if self.change_request is not None else ""
        page = f"“{self.path}”" if self.path else "the first page"
        return f"{page} in {where}space {self.space_id}"


def parse_page_address(text: str) -> PageAddress:
    """The address ``text`` read (no request made); BadAddress in words when it cannot be."""
    given = text.strip()
    if not given:
        raise BadAddress(f"No page was given: {FORMS}.")
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", given):
        return _parse_url(given)
    space, _, path = given.strip("/").partition("/")
    if not _ID.match(space):
        raise BadAddress(f"{space!r} is not a space id (letters, digits, - and _): {FORMS}.")
    return PageAddress(space, _clean_path(path))


def _parse_url(url: str) -> PageAddress:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadAddress(f"{url!r} is not a web address: {FORMS}.")
    segments = [unquote(s) for s in parts.path.split("/") if s]
    organization = None
    if len(segments) >= 2 and segments[0] == "o":
        organization, segments = segments[1], segments[2:]
    if (parts.hostname or "").lower() not in APP_HOSTS and organization is None and segments[:1] != ["s"]:
        return PageAddress("", published=url)  # a published docs page: found by locate()
    if len(segments) < 2 or segments[0] != "s":
        raise BadAddress(f"{url!r} is not the address of a page in the app (no /s/<space>/ in it): {FORMS}.")
    space, rest = segments[1], segments[2:]
    if not _ID.match(space):
        raise BadAddress(f"{space!r} in the address is not a space id: {FORMS}.")
    number: int | None = None
    if rest and rest[0] == "~":
        kind = rest[1] if len(rest) > 1 else ""
        if kind != "changes":
            shown = f"~/{kind}" if kind else "~"
            raise BadAddress(
                f"The address names {shown!r} of space {space}, not a page there or in a change request: "
                "copy the address of the page itself (in the space or in a change request)."
            )
        if len(rest) < 3 or not rest[2].isdigit():
            raise BadAddress(f"The address names a change request without its number (…/~/changes/<number>/): {FORMS}.")
        number, rest = int(rest[2]), rest[3:]
    return PageAddress(space, _clean_path("/".join(rest)), number, organization)


def _clean_path(path: str) -> str:
    return "/".join(s for s in path.split("#", 1)[0].split("?", 1)[0].split("/") if s)


# --- finding the page -------------------------------------------------------------------------------------------


async def find_page(client: GitBookClient, address: PageAddress, *, change_request: int | str | None = None) -> Page:
    """The page ``address`` names, in the page tree of ``change_request`` (default: the address's own; else the
    space's main content). BadAddress when the space, the change request or the path names nothing."""
    from folio.api.errors import NotFound

    space_id = address.space_id
    cr = change_request if change_request is not None else address.change_request
    try:
        space = await client.spaces.get(space_id)
    except NotFound as exc:
        raise BadAddress(f"There is no space {space_id} that you can read ({exc.message or 'not found'}).") from None
    title = f"space {space_id} “{space.title or 'Untitled'}”"
    if cr is not None:
        try:
            found = await client.change_requests.get(space_id, cr)
        except NotFound:
            raise BadAddress(f"There is no change request {_cr_words(cr)} in {title}.") from None
        listing = await client.content.pages(space_id, change_request=found.id)
        title = f"change request #{found.number} of {title}"
    else:
        listing = await client.content.pages(space_id)
    return match_path([p for top in listing.pages for p in top.walk()], address.path, where=title)


async def locate(
    client: GitBookClient, address: PageAddress, *, change_request: int | str | None = None
) -> tuple[str, Page]:
    """The space and page ``address`` names: :func:`find_page` for an app URL or a path; a published URL is found
    among the published sites and spaces of the user's organizations (``folio.services.links``), then read in
    ``change_request`` (else the main content). BadAddress in words when it names no page."""
    if address.published is None:
        return address.space_id, await find_page(client, address, change_request=change_request)
    from folio.api.errors import NotFound
    from folio.services.links import LinkError, resolve

    try:
        link = await resolve(client, address.published)
    except LinkError as exc:
        raise BadAddress(exc.describe()) from None
    space_id, page_id = link.ids.get("space_id"), link.ids.get("page_id")
    if not space_id or not page_id:
        raise BadAddress(f"{address.published} is the address of a {link.what}, not of one page: {FORMS}.")
    try:
        page = await client.content.page(space_id, page_id, change_request=change_request)
    except NotFound:
        where = f"change request {_cr_words(change_request)}" if change_request is not None else "the main content"
        raise BadAddress(f"The page published at {address.published} is not in {where} of its space.") from None
    return space_id, page


def match_path(pages: list[Page], path: str, *, where: str) -> Page:
    """The page of ``pages`` (a tree walked) at ``path`` (``""``: the first one with a text); BadAddress naming the
    first segment that matches no page, and the pages there, when none is."""
    if not path:
        first = next((p for p in pages if p.type == "document"), None)
        if first is None:
            raise BadAddress(f"{_upper(where)} has no page with a text.")
        return first
    by_path = {p.path: p for p in pages if p.path}
    if path in by_path:
        return by_path[path]
    folded = [p for p in pages if p.path and p.path.lower() == path.lower()]
    if len(folded) == 1:
        return folded[0]
    segments = path.split("/")
    known = 0
    while known < len(segments) - 1 and "/".join(segments[: known + 1]) in by_path:
        known += 1
    parent = "/".join(segments[:known])
    there = [p for p in pages if p.path and p.path.rpartition("/")[0] == parent and p.path != parent]
    under = f"under “{parent}”" if parent else "at the top"
    names = ", ".join(p.path.rpartition("/")[2] for p in there[:LISTED] if p.path)
    more = ", …" if len(there) > LISTED else ""
    listed = f" (there: {names}{more})" if names else " (there are no pages there)"
    raise BadAddress(f"No page “{segments[known]}” {under} in {where}{listed}.")


def _cr_words(cr: int | str) -> str:
    return f"#{cr}" if isinstance(cr, int) or str(cr).isdigit() else str(cr)


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]
