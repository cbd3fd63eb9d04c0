"""Making new parts of a site's structure in the sandbox: site spaces, sections, and the first section that
gathers a site's root site spaces when sections are turned on. Paths are slugs of titles, unique among the
siblings that share a URL prefix."""

from __future__ import annotations

import re
from typing import Any

from folio.sandbox.domain.site_tree import SECTION_LEVEL, STORES, SiteTree, next_order
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.state import Record, SandboxState


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "site"


def unique_path(base: str, taken: set[str]) -> str:
    base = base[:90]
    path, n = base, 2
    while path in taken:
        path, n = f"{base}-{n}", n + 1
    return path


def space_of_org(state: SandboxState, org_id: str, space_id: Any, name: str) -> Record:
    """The space a body names (400 when it names none, 404 when no space of the organization matches)."""
    if not isinstance(space_id, str) or not space_id:
        raise bad_request(f"{name} must be a space id")
    space = state.spaces.get(space_id)
    if space is None or space.get("organization") != org_id or space.get("deletedAt"):
        raise not_found(f"No matching space found for {space_id!r}")
    return space


def new_site_space(
    state: SandboxState, site_id: str, space: Record, *, section: str | None, order: int | None = None
) -> Record:
    """A site space for ``space`` at the end of its level; its path is the space's title as a unique slug."""
    siblings = [r for r in state.site_spaces.values() if r.get("site") == site_id and r.get("section") == section]
    sid = state.new_id()
    rec: Record = {
        "id": sid,
        "site": site_id,
        "space": space["id"],
        "path": unique_path(slug(space["title"]), {r["path"] for r in siblings}),
        "section": section,
        "title": None,
        "condition": None,
        "hidden": False,
        "order": next_order(siblings) if order is None else order,
        "createdAt": state.now(),
    }
    state.site_spaces[sid] = rec
    return rec


def new_section(
    state: SandboxState,
    site_id: str,
    title: str,
    *,
    group: str | None,
    icon: str | None = None,
    order: int | None = None,
) -> Record:
    """A section at the end of its level; its path is the title as a slug, unique in the site."""
    mine = [r for r in state.site_sections.values() if r.get("site") == site_id]
    level = [
        r
        for kind in SECTION_LEVEL
        for r in getattr(state, STORES[kind]).values()
        if r.get("site") == site_id and r.get("sectionGroup") == group
    ]
    sid = state.new_id()
    rec: Record = {
        "id": sid,
        "site": site_id,
        "title": title,
        "path": unique_path(slug(title), {r["path"] for r in mine}),
        "description": None,
        "condition": None,
        "icon": icon,
        "sectionGroup": group,
        "defaultSiteSpace": None,
        "order": next_order(level) if order is None else order,
        "createdAt": state.now(),
    }
    state.site_sections[sid] = rec
    return rec


def ensure_sections(state: SandboxState, site: Record) -> None:
    """Before a site without sections gets its first section or group, its root site spaces move into a first
    section named after the site (as the service does when sections are turned on)."""
    tree = SiteTree.load(state, site)
    roots = tree.site_spaces_of(None)
    if tree.has_sections or not roots:
        return
    title = site["title"] if len(site["title"]) >= 2 else "Home"
    section = new_section(state, site["id"], title, group=None)
    default = tree.default_site_space(None)
    section["defaultSiteSpace"] = default["id"] if default else None
    for rec in roots:
        rec["section"] = section["id"]
    site["defaultSiteSpace"] = None
