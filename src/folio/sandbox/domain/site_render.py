"""Rendering a site and its structure to the wire shapes of the public description (Site, SiteSection,
SiteSectionGroup, SiteExternalLink, SiteSpace with its whole Space, SiteStructure).

Published URLs: a site is served at ``https://<proxy origin>``, ``https://<hostname>`` or
``https://<organization hostname>.gitbook.io/<basename or title slug>``. The default section sits at the
site's root and every other section at ``/<path>``; in a section (or at the root of a site without sections)
the default site space sits at the section's URL and the others at ``/<path>`` below it. The default section
and site space are the ones the site names, or the first in order, so a reorder moves URLs. For share-link
sites given a ``shareKey``, URLs carry ``?shareKey=<key>``. URLs are shown while the site is published, and
always in the published profile.
"""

from __future__ import annotations

from folio.sandbox.domain.site_items import slug
from folio.sandbox.domain.site_tree import SiteContext, SiteTree
from folio.sandbox.domain.spaces import SpaceCounts, render_space
from folio.sandbox.state import Record, SandboxState


def site_base(state: SandboxState, site: Record) -> str:
    proxy = site.get("proxy")
    if isinstance(proxy, dict) and proxy.get("origin"):
        return "https://" + proxy["origin"]
    if site.get("hostname"):
        return "https://" + site["hostname"]
    return gitbook_url(state, site)


def gitbook_url(state: SandboxState, site: Record) -> str:
    """Where the service itself serves the site (the target of a proxy)."""
    org = state.orgs.get(site["organization"], {})
    host = org.get("hostname") or site["organization"].lower()
    return f"https://{host}.gitbook.io/{site.get('basename') or slug(site['title'])}"


def site_permissions(role: str | None) -> Record:
    admin = role == "admin"
    return {
        "view": True,
        "access": True,
        "edit": role in ("admin", "create", "edit"),
        "create": role in ("admin", "create"),
        "admin": admin,
        "installIntegration": admin,
        "viewAdaptiveSchema": True,
        "editAdaptiveSchema": admin,
    }


def render_site(state: SandboxState, site: Record, role: str | None, *, site_spaces: int | None = None) -> Record:
    """A site in the wire shape; ``site_spaces`` when the caller already counted them."""
    if site_spaces is None:
        site_spaces = sum(1 for r in state.site_spaces.values() if r.get("site") == site["id"])
    org = site["organization"]
    urls: Record = {
        "location": f"{state.api_base}/orgs/{org}/sites/{site['id']}",
        "app": f"{state.app_base}/o/{org}/sites/{site['id']}",
        "preview": f"{state.app_base}/o/{org}/sites/{site['id']}/preview",
    }
    if site.get("published"):
        urls["published"] = site_base(state, site) + "/"
    out: Record = {
        "object": "site",
        "id": site["id"],
        "type": site.get("type", "basic"),
        "appliedType": site.get("type", "basic"),
        "title": site["title"],
        "visibility": site["visibility"],
        "defaultLevel": site.get("defaultLevel", "inherit"),
        "permissions": site_permissions(role),
        "published": bool(site.get("published")),
        "siteSpaces": site_spaces,
        "createdAt": site["createdAt"],
        "adaptiveContent": {"enabled": bool((site.get("adaptiveContent") or {}).get("enabled"))},
        "agentsContext": site.get("agentsContext", "included"),
        "features": list(site.get("features") or []),
        "urls": urls,
    }
    for key in ("icon", "hostname", "basename", "ads"):
        if site.get(key) is not None:
            out[key] = site[key]
    proxy = site.get("proxy")
    if isinstance(proxy, dict):
        out["proxy"] = {"origin": proxy["origin"], "target": proxy.get("target") or gitbook_url(state, site)}
    return out


class SiteRenderer:
    """Renders one site's parts for one request: the structure read once, defaults and counts cached."""

    def __init__(self, ctx: SiteContext, *, share_key: str | None = None, published_view: bool = False) -> None:
        state, site = ctx.state, ctx.site
        self.state = state
        self.site = site
        self.role = ctx.role
        self.user = ctx.user
        self.tree = SiteTree.load(state, site)
        show = published_view or bool(site.get("published"))
        self.base = site_base(state, site) if show else None
        self.query = f"?shareKey={share_key}" if share_key and site.get("visibility") == "share-link" else ""
        self._defaults: dict[str | None, str | None] = {}
        default_section = self.tree.default_section()
        self.default_section_id = default_section["id"] if default_section else None
        self._counts: SpaceCounts | None = None

    # -- urls ------------------------------------------------------------------------------------------------

    def _url(self, path: str) -> Record:
        if self.base is None:
            return {}
        return {"published": self.base + ("/" + path if path else "/") + self.query}

    def _section_path(self, section_id: str | None) -> str:
        if section_id is None or section_id == self.default_section_id:
            return ""
        rec = self.state.site_sections.get(section_id)
        return rec["path"] if rec else ""

    def default_space_id(self, section_id: str | None) -> str | None:
        if section_id not in self._defaults:
            section = self.state.site_sections.get(section_id) if section_id else None
            rec = self.tree.default_site_space(section)
            self._defaults[section_id] = rec["id"] if rec else None
        return self._defaults[section_id]

    # -- parts -----------------------------------------------------------------------------------------------

    def site_json(self) -> Record:
        return render_site(self.state, self.site, self.role, site_spaces=sum(len(v) for v in self.tree.spaces.values()))

    def site_space(self, rec: Record) -> Record:
        section = rec.get("section")
        is_default = self.default_space_id(section) == rec["id"]
        prefix = self._section_path(section)
        path = prefix if is_default else "/".join(p for p in (prefix, rec["path"]) if p)
        space = self.space(rec["space"])
        out: Record = {
            "object": "site-space",
            "id": rec["id"],
            "path": rec["path"],
            "space": space,
            "title": rec.get("title") or space["title"],
            "default": is_default,
            "draft": False,
            "hidden": bool(rec.get("hidden")),
            "hasAdvancedCustomizationFeature": False,
            "urls": self._url(path),
        }
        if section is not None:
            out["section"] = section
        if rec.get("condition") is not None:
            out["condition"] = rec["condition"]
        return out

    def section(self, rec: Record) -> Record:
        out: Record = {
            "object": "site-section",
            "id": rec["id"],
            "title": rec["title"],
            "path": rec["path"],
            "default": rec["id"] == self.default_section_id,
            "draft": False,
            "siteSpaces": [self.site_space(ss) for ss in self.tree.site_spaces_of(rec["id"])],
            "urls": self._url(self._section_path(rec["id"])),
        }
        for key in ("description", "condition", "sectionGroup", "icon"):
            if rec.get(key) is not None:
                out[key] = rec[key]
        return out

    def group(self, rec: Record) -> Record:
        children = [self.item(kind, child) for kind, child in self.tree.children(rec["id"])]
        out: Record = {
            "object": "site-section-group",
            "id": rec["id"],
            "title": rec["title"],
            "draft": False,
            "sections": [c for c in children if c["object"] == "site-section"],
            "children": children,
        }
        for key in ("sectionGroup", "icon"):
            if rec.get(key) is not None:
                out[key] = rec[key]
        return out

    def link(self, rec: Record) -> Record:
        out: Record = {
            "object": "site-external-link",
            "id": rec["id"],
            "title": rec["title"],
            "url": rec["url"],
            "draft": False,
        }
        for key in ("description", "icon", "condition", "sectionGroup"):
            if rec.get(key) is not None:
                out[key] = rec[key]
        return out

    def item(self, kind: str, rec: Record) -> Record:
        if kind == "site-section":
            return self.section(rec)
        if kind == "site-section-group":
            return self.group(rec)
        if kind == "site-space":
            return self.site_space(rec)
        return self.link(rec)

    def structure(self) -> Record:
        if self.tree.has_sections:
            return {"type": "sections", "structure": [self.item(k, r) for k, r in self.tree.children(None)]}
        return {
            "type": "siteSpaces",
            "structure": [self.site_space(r) for r in self.tree.site_spaces_of(None)],
        }

    # -- the space a site space shows ------------------------------------------------------------------------

    def space(self, space_id: str) -> Record:
        """The Space a site space shows, rendered as the spaces area renders it (a stand-in if it is gone)."""
        if self._counts is None:
            self._counts = SpaceCounts(self.state)
        space = self.state.spaces.get(space_id) or {
            "id": space_id,
            "title": "Deleted space",
            "organization": self.site["organization"],
            "visibility": "private",
            "createdAt": self.site["createdAt"],
        }
        return render_space(self.state, space, self.user, self._counts)
