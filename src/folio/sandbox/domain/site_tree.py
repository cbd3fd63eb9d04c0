"""A site's structure in the sandbox: who the siblings of an item are, their order, and moving items.

Records (stores of :class:`SandboxState`), beyond ``id`` and ``site``:

    site_sections        {title, description, path, condition, icon, sectionGroup, defaultSiteSpace, order}
    section_groups       {title, icon, sectionGroup (parent group), order}
    site_external_links  {title, url, description, icon, condition, sectionGroup, order}
    site_spaces          {space, path, section (None: the site's root), title, condition, hidden, order}

Sections, groups and external links share a level: the root of the site (``sectionGroup`` None) or one
group. Site spaces share a level with the other site spaces of their section (or of the root). ``order``
sorts siblings; every move renumbers the level it touched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request

from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import current_user, state_of
from folio.sandbox.state import Record, SandboxState

SECTION_LEVEL = ("site-section", "site-section-group", "site-external-link")
STORES = {
    "site-section": "site_sections",
    "site-section-group": "section_groups",
    "site-external-link": "site_external_links",
    "site-space": "site_spaces",
}
STRUCTURE_KINDS = tuple(STORES)
WRITERS = ("admin", "create")

Item = tuple[str, Record]
"""(kind, record): kind is one of the pointer types of the structure sort."""


@dataclass
class SiteContext:
    """What a site route works on: the state, the organization, the site, the caller and their role."""

    state: SandboxState
    org_id: str
    site: Record
    user: str
    role: str | None


def org_role(request: Request, *, write: bool = False) -> tuple[SandboxState, str, str, str | None]:
    """(state, organization id, caller, role): 404 for an unknown organization, 403 for a non-member, and 403
    for a write by a member who may not change sites (roles other than admin and create)."""
    state = state_of(request)
    org_id = request.path_params["organizationId"]
    if org_id not in state.orgs:
        raise not_found(f"No matching organization found for {org_id!r}")
    uid = current_user(request)
    member = state.members.get(org_id, {}).get(uid)
    if member is None:
        raise forbidden("You are not a member of this organization")
    role = member.get("role")
    if write and role not in WRITERS:
        raise forbidden("You do not have permission to change the sites of this organization")
    return state, org_id, uid, role


def site_context(request: Request, *, write: bool = False) -> SiteContext:
    state, org_id, uid, role = org_role(request, write=write)
    site_id = request.path_params["siteId"]
    site = state.sites.get(site_id)
    if site is None or site.get("organization") != org_id:
        raise not_found(f"No matching site found for {site_id!r}")
    return SiteContext(state, org_id, site, uid, role)


def record_of(state: SandboxState, kind: str, item_id: str, site_id: str) -> Record | None:
    store = getattr(state, STORES[kind])
    rec = store.get(item_id)
    return rec if rec is not None and rec.get("site") == site_id else None


def _by_order(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda it: (it[1].get("order", 0), it[1]["id"]))


@dataclass
class SiteTree:
    """One site's structure, read once per request (a site can hold thousands of site spaces)."""

    site: Record
    levels: dict[str | None, list[Item]] = field(default_factory=dict)
    spaces: dict[str | None, list[Record]] = field(default_factory=dict)

    @classmethod
    def load(cls, state: SandboxState, site: Record) -> SiteTree:
        tree = cls(site)
        sid = site["id"]
        for kind in SECTION_LEVEL:
            for rec in getattr(state, STORES[kind]).values():
                if rec.get("site") == sid:
                    tree.levels.setdefault(rec.get("sectionGroup"), []).append((kind, rec))
        for key, items in tree.levels.items():
            tree.levels[key] = _by_order(items)
        for rec in state.site_spaces.values():
            if rec.get("site") == sid:
                tree.spaces.setdefault(rec.get("section"), []).append(rec)
        for key, recs in tree.spaces.items():
            tree.spaces[key] = sorted(recs, key=lambda r: (r.get("order", 0), r["id"]))
        return tree

    @property
    def has_sections(self) -> bool:
        return bool(self.levels)

    def children(self, group_id: str | None) -> list[Item]:
        return self.levels.get(group_id, [])

    def walk(self, group_id: str | None = None) -> list[Item]:
        """Sections, groups and links depth first, in the site's order."""
        out: list[Item] = []
        for kind, rec in self.children(group_id):
            out.append((kind, rec))
            if kind == "site-section-group":
                out.extend(self.walk(rec["id"]))
        return out

    def sections(self) -> list[Record]:
        return [rec for kind, rec in self.walk() if kind == "site-section"]

    def groups(self) -> list[Record]:
        return [rec for kind, rec in self.walk() if kind == "site-section-group"]

    def site_spaces_of(self, section_id: str | None) -> list[Record]:
        return self.spaces.get(section_id, [])

    def all_site_spaces(self) -> list[Record]:
        """Every site space in the site's order: section by section, then those at the root."""
        out: list[Record] = []
        for section in self.sections():
            out.extend(self.site_spaces_of(section["id"]))
        out.extend(self.site_spaces_of(None))
        return out

    def default_section(self) -> Record | None:
        sections = self.sections()
        wanted = self.site.get("defaultSiteSection")
        return next((s for s in sections if s["id"] == wanted), sections[0] if sections else None)

    def default_site_space(self, section: Record | None) -> Record | None:
        """The default site space of a section, or of the root when ``section`` is None."""
        recs = self.site_spaces_of(section["id"] if section else None)
        wanted = section.get("defaultSiteSpace") if section else self.site.get("defaultSiteSpace")
        return next((r for r in recs if r["id"] == wanted), recs[0] if recs else None)

    def site_default_space(self) -> Record | None:
        """The one default site space of the site: the default of the default section, or of the root."""
        if self.has_sections:
            section = self.default_section()
            return self.default_site_space(section) if section else None
        return self.default_site_space(None)

    def ancestors(self, group_id: str | None, state: SandboxState) -> list[str]:
        out: list[str] = []
        while group_id is not None and group_id not in out:
            out.append(group_id)
            group_id = (state.section_groups.get(group_id) or {}).get("sectionGroup")
        return out


def renumber(items: list[Record]) -> None:
    for n, rec in enumerate(items):
        rec["order"] = n


def next_order(items: list[Any]) -> int:
    orders = [(it[1] if isinstance(it, tuple) else it).get("order", 0) for it in items]
    return (max(orders) + 1) if orders else 0


def parse_pointer(raw: Any, where: str, *, kinds: tuple[str, ...], id_field: str | None = None) -> Item | None:
    """A ``{type, id}`` pointer (``{type, <id_field>}`` for the older moves) as ``(kind, {"id": id})``, the
    shape :func:`place` compares; None when absent."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise bad_request(f"{where} must be an object")
    kind = raw.get("type")
    if kind not in kinds:
        raise bad_request(f"{where}.type must be one of {', '.join(kinds)}")
    key = id_field or "id"
    ref = raw.get(key)
    if not isinstance(ref, str) or not ref:
        raise bad_request(f"{where}.{key} is required")
    return kind, {"id": ref}


def place(siblings: list[Item], item: Item, before: Item | None, after: Item | None) -> list[Item]:
    """The siblings in their new order once ``item`` is put before and/or after a sibling (at the end when no
    position is given). 400 for a position relative to the item itself, to an item of another level, or a
    before/after pair that are not neighbours."""
    key = (item[0], item[1]["id"])
    rest = [it for it in siblings if (it[0], it[1]["id"]) != key]
    index_of = {(k, r["id"]): n for n, (k, r) in enumerate(rest)}
    for name, ref in (("before", before), ("after", after)):
        if ref is not None and (ref[0], ref[1]["id"]) == key:
            raise bad_request(f"Invalid move position: position.{name} is the moved item itself")
        if ref is not None and (ref[0], ref[1]["id"]) not in index_of:
            raise bad_request(f"Invalid move position: position.{name} is not a sibling of the moved item")
    if before is not None:
        at = index_of[(before[0], before[1]["id"])]
        if after is not None and index_of[(after[0], after[1]["id"])] != at - 1:
            raise bad_request("Invalid move position: position.after and position.before are not neighbours")
    elif after is not None:
        at = index_of[(after[0], after[1]["id"])] + 1
    else:
        at = len(rest)
    return [*rest[:at], item, *rest[at:]]


def apply_order(items: list[Item]) -> None:
    renumber([rec for _, rec in items])


def move_to_group(state: SandboxState, tree: SiteTree, kind: str, rec: Record, group_id: str | None) -> None:
    """Put a section, group or link at the end of another level (a group, or the root when None)."""
    if group_id is not None:
        group = record_of(state, "site-section-group", group_id, rec["site"])
        if group is None:
            raise not_found(f"No matching section group found for {group_id!r}")
        if kind == "site-section-group" and rec["id"] in tree.ancestors(group_id, state):
            raise bad_request("A section group cannot be moved into itself or one of its own groups")
    old = rec.get("sectionGroup")
    if old == group_id:
        return
    tree.levels[old] = [it for it in tree.children(old) if it[1]["id"] != rec["id"]]
    apply_order(tree.levels[old])
    rec["order"] = next_order(tree.children(group_id))
    rec["sectionGroup"] = group_id
    tree.levels.setdefault(group_id, []).append((kind, rec))


def delete_section(state: SandboxState, section_id: str) -> None:
    """A section goes with its site spaces."""
    state.site_sections.pop(section_id, None)
    for ss_id in [k for k, v in state.site_spaces.items() if v.get("section") == section_id]:
        del state.site_spaces[ss_id]


def delete_group(state: SandboxState, tree: SiteTree, group: Record) -> None:
    """A group's children take its place, in order, in the group's parent."""
    parent = group.get("sectionGroup")
    siblings = tree.children(parent)
    out: list[Item] = []
    for kind, rec in siblings:
        if rec["id"] == group["id"]:
            for child_kind, child in tree.children(group["id"]):
                child["sectionGroup"] = parent
                out.append((child_kind, child))
        else:
            out.append((kind, rec))
    apply_order(out)
    state.section_groups.pop(group["id"], None)


def delete_site(state: SandboxState, site_id: str) -> None:
    for store in ("site_sections", "section_groups", "site_external_links", "site_spaces"):
        records = getattr(state, store)
        for key in [k for k, v in records.items() if v.get("site") == site_id]:
            del records[key]
    state.adaptive_schemas.pop(site_id, None)
    state.sites.pop(site_id, None)


def prefers_minimal(request: Request) -> bool:
    return "return=minimal" in request.headers.get("prefer", "")
