"""Seed: the demo organization's docs sites, built on the seeded spaces (found by title).

"Northwind Docs" is published and public, with sections in two groups (one nested in the other), site
spaces with a hidden variant and a conditional one, and adaptive content on with a visitor schema. "Internal
Handbook" is unpublished, for authenticated visitors, and has no sections: its site spaces sit at the root.
With ``scale >= 1000`` a large site adds 50 groups, 500 sections and 2,000 site spaces over generated spaces.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from folio.sandbox.state import Record, SandboxState

VISITOR_SCHEMA: Record = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "isBeta": {"type": "boolean", "description": "The visitor joined the beta programme"},
        "isEnterprise": {"type": "boolean", "description": "The visitor's company is on an enterprise plan"},
        "unsigned": {
            "type": "object",
            "description": "Unsigned claims of the site visitor.",
            "properties": {
                "prefersFrench": {"type": "boolean", "description": "The visitor chose French in the banner"},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}

# In the site's order. ("group", key, title, icon, parent key) or ("section", group key, title, icon,
# condition, [(space title, site space path, hidden, condition)]): Product (Getting Started, User Guide, the
# nested Reference group with REST API and SDKs), then Release Notes at the root.
STRUCTURE: list[tuple[Any, ...]] = [
    ("group", "product", "Product", "box", None),
    (
        "section",
        "product",
        "Getting Started",
        "rocket",
        None,
        [
            ("Getting Started", "getting-started", False, None),
            ("Centre d'aide", "fr", False, "visitor.claims.unsigned.prefersFrench == true"),
        ],
    ),
    (
        "section",
        "product",
        "User Guide",
        "book",
        None,
        [
            ("User Guide", "guide", False, None),
            ("Admin Handbook", "admin", True, None),
        ],
    ),
    ("group", "reference", "Reference", "brackets-curly", "product"),
    ("section", "reference", "REST API", "code", None, [("REST API Reference", "rest", False, None)]),
    (
        "section",
        "reference",
        "SDKs",
        "toolbox",
        "visitor.claims.isBeta == true",
        [
            ("SDK Reference", "sdk", False, None),
        ],
    ),
    (
        "section",
        None,
        "Release Notes",
        "megaphone",
        None,
        [
            ("Release Notes", "changelog", False, None),
            ("Brand Guidelines", "brand", True, None),
            ("Onboarding", "onboarding", False, "visitor.claims.isEnterprise == true"),
        ],
    ),
]


def _site(state: SandboxState, org: str, title: str, *, days_ago: int, **fields: object) -> Record:
    sid = state.new_id()
    site: Record = {
        "id": sid,
        "organization": org,
        "type": "basic",
        "title": title,
        "visibility": "public",
        "published": False,
        "createdAt": state.clock.iso(state.clock.now() - timedelta(days=days_ago)),
        "adaptiveContent": {"enabled": False},
        "agentsContext": "included",
        "features": [],
        "defaultLevel": "inherit",
    }
    site.update(fields)
    state.sites[sid] = site
    return site


def _site_space(
    state: SandboxState,
    site: str,
    space: str,
    path: str,
    *,
    section: str | None,
    order: int,
    hidden: bool = False,
    condition: str | None = None,
) -> None:
    rid = state.new_id()
    state.site_spaces[rid] = {
        "id": rid,
        "site": site,
        "space": space,
        "path": path,
        "section": section,
        "title": None,
        "condition": condition,
        "hidden": hidden,
        "order": order,
        "createdAt": state.now(),
    }


def _section(
    state: SandboxState,
    site: str,
    title: str,
    path: str,
    *,
    group: str | None,
    order: int,
    icon: str | None = None,
    condition: str | None = None,
) -> str:
    sid = state.new_id()
    state.site_sections[sid] = {
        "id": sid,
        "site": site,
        "title": title,
        "path": path,
        "description": None,
        "condition": condition,
        "icon": icon,
        "sectionGroup": group,
        "defaultSiteSpace": None,
        "order": order,
        "createdAt": state.now(),
    }
    return sid


def _group(
    state: SandboxState, site: str, title: str, *, parent: str | None, order: int, icon: str | None = None
) -> str:
    gid = state.new_id()
    state.section_groups[gid] = {
        "id": gid,
        "site": site,
        "title": title,
        "icon": icon,
        "sectionGroup": parent,
        "order": order,
        "createdAt": state.now(),
    }
    return gid


def _northwind_docs(state: SandboxState, org: str, spaces: dict[str, str]) -> None:
    site = _site(
        state,
        org,
        "Northwind Docs",
        days_ago=280,
        type="premium",
        published=True,
        hostname="docs.northwind.dev",
        adaptiveContent={"enabled": True},
        ads={"status": "pending", "submittable": True},
        features=[
            {"id": "sites-adaptive-content", "plan": "premium", "frozen": False},
            {"id": "sites-sections", "plan": "premium", "frozen": False},
            {
                "id": "sites-advanced-customization",
                "plan": "ultimate",
                "frozen": False,
                "customizations": ["header-logo"],
            },
        ],
        icon={"emoji": "🧭"},
    )
    sid = site["id"]
    state.adaptive_schemas[sid] = {
        "jsonSchema": VISITOR_SCHEMA,
        "updatedAt": state.clock.iso(state.clock.now() - timedelta(days=30)),
    }
    groups: dict[str, str] = {}
    counts: dict[str | None, int] = {}
    for entry in STRUCTURE:
        parent_key = entry[4] if entry[0] == "group" else entry[1]
        parent = groups[parent_key] if parent_key else None
        order = counts.get(parent, 0)
        counts[parent] = order + 1
        if entry[0] == "group":
            groups[entry[1]] = _group(state, sid, entry[2], parent=parent, order=order, icon=entry[3])
            continue
        _, _, title, icon, condition, variants = entry
        section = _section(
            state,
            sid,
            title,
            title.lower().replace(" ", "-"),
            group=parent,
            order=order,
            icon=icon,
            condition=condition,
        )
        for n, (space_title, path, hidden, ss_condition) in enumerate(variants):
            if space_title in spaces:
                _site_space(
                    state,
                    sid,
                    spaces[space_title],
                    path,
                    section=section,
                    order=n,
                    hidden=hidden,
                    condition=ss_condition,
                )


def _internal_handbook(state: SandboxState, org: str, spaces: dict[str, str]) -> None:
    site = _site(
        state,
        org,
        "Internal Handbook",
        days_ago=120,
        visibility="visitor-auth",
        basename="handbook",
        agentsContext="excluded",
        icon={
            "icon": {
                "light": "https://files.example.com/handbook-light.png",
                "dark": "https://files.example.com/handbook-dark.png",
            }
        },
    )
    for n, title in enumerate(("Onboarding", "Platform Runbooks", "Architecture Decisions")):
        if title in spaces:
            _site_space(state, site["id"], spaces[title], title.lower().replace(" ", "-"), section=None, order=n)


def _large_site(state: SandboxState, org: str, generated: list[str]) -> None:
    """50 groups of 10 sections, each with 4 site spaces over the generated spaces (reused in turn)."""
    site = _site(state, org, "Fleet Encyclopedia", days_ago=60, basename="encyclopedia")
    sid = site["id"]
    n_space = 0
    for g in range(50):
        gid = _group(state, sid, f"Volume {g + 1:02d}", parent=None, order=g)
        for s in range(10):
            number = g * 10 + s + 1
            section = _section(state, sid, f"Chapter {number:03d}", f"chapter-{number:03d}", group=gid, order=s)
            for v in range(4):
                _site_space(state, sid, generated[n_space % len(generated)], f"part-{v + 1}", section=section, order=v)
                n_space += 1


def seed(state: SandboxState, *, scale: int = 0) -> None:
    org = state.demo_org
    spaces: dict[str, str] = {}
    generated: list[str] = []
    for space in state.spaces.values():
        if space.get("organization") != org or space.get("deletedAt"):
            continue
        title = space.get("title", "")
        if title.startswith("Generated space "):
            generated.append(space["id"])
        else:
            spaces.setdefault(title, space["id"])
    _northwind_docs(state, org, spaces)
    _internal_handbook(state, org, spaces)
    if scale >= 1000 and generated:
        _large_site(state, org, generated)
