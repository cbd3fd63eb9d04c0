"""Helpers the site tests share: finding the seeded sites, sections, groups and spaces by title, and reading a
structure as an outline of titles."""

from __future__ import annotations

from typing import Any

from folio.api import GitBookClient
from folio.models.site_structure import SiteSectionGroup, SiteSectionsStructure
from folio.sandbox import SandboxState


def site_id(state: SandboxState, title: str = "Northwind Docs") -> str:
    return next(s for s, rec in state.sites.items() if rec["title"] == title)


def section(state: SandboxState, title: str) -> str:
    return next(s for s, rec in state.site_sections.items() if rec["title"] == title)


def group(state: SandboxState, title: str) -> str:
    return next(g for g, rec in state.section_groups.items() if rec["title"] == title)


def space_id(state: SandboxState, title: str) -> str:
    return next(s for s, rec in state.spaces.items() if rec["title"] == title)


def outline(structure: Any) -> list[Any]:
    """Titles, with a group's children in a nested list after it."""
    out: list[Any] = []
    for item in structure:
        out.append(item.title)
        if isinstance(item, SiteSectionGroup):
            out.append(outline(item.children))
    return out


async def sections_structure(client: GitBookClient, state: SandboxState) -> SiteSectionsStructure:
    """The structure of Northwind Docs (a site with sections)."""
    structure = await client.sites.structure(state.demo_org, site_id(state))
    assert isinstance(structure, SiteSectionsStructure)
    return structure
