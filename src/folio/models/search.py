"""Search results: a space's pages (``/spaces/{id}/search``) and an organization's spaces with their pages
(``/orgs/{id}/search``)."""

from __future__ import annotations

from folio.models._base import Model
from folio.models.common import Urls


class SearchSection(Model):
    id: str
    title: str = ""
    path: str | None = None
    body: str = ""
    urls: Urls | None = None


class SearchAncestor(Model):
    title: str = ""


class SearchPageResult(Model):
    id: str
    title: str = ""
    path: str | None = None
    sections: list[SearchSection] = []
    ancestors: list[SearchAncestor] = []
    urls: Urls | None = None


class SearchSpaceResult(Model):
    id: str
    title: str = ""
    pages: list[SearchPageResult] = []
