"""The pure rules of the sites screens: a site's settings as the screen lists and edits them (with the spec's
limits checked as you type), the published filter's cycle, and a site's structure as an outline and a summary.
Unit-tested in ``tests/unit/test_site_rules.py``; :mod:`folio.services.sites.sites` re-exports every name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.resources.sites import check_site_title
from folio.models.site import AGENTS_CONTEXTS, SITE_VISIBILITIES, Site
from folio.models.site_structure import (
    SiteExternalLink,
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    SiteSpacesStructure,
    SiteStructure,
)

__all__ = [
    "AGENTS_WORDS",
    "SETTING_KEYS",
    "VISIBILITY_WORDS",
    "Choice",
    "OutlineNode",
    "Setting",
    "check_setting",
    "next_published_filter",
    "outline",
    "proxy_value",
    "published_filter_label",
    "settings",
    "structure_summary",
]

VISIBILITY_WORDS = {
    "public": "public: anyone, indexed by search engines",
    "unlisted": "unlisted: anyone with the link, not indexed",
    "share-link": "share-link: a secret token in the URL",
    "visitor-auth": "visitor-auth: visitors signed in with a JWT",
}
AGENTS_WORDS = {"included": "included: agents may read the site", "excluded": "excluded: agents cannot read it"}
SETTING_KEYS = (
    "title",
    "visibility",
    "basename",
    "proxy",
    "agentsContext",
    "adaptiveContent",
    "defaultSiteSection",
    "defaultSiteSpace",
)
_LABELS = {
    "title": "Title",
    "visibility": "Visibility",
    "basename": "Basename",
    "proxy": "Proxy",
    "agentsContext": "Agents context",
    "adaptiveContent": "Adaptive content",
    "defaultSiteSection": "Default section",
    "defaultSiteSpace": "Default site space",
}
NONE = "—"


# --- settings ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One value a choice setting may take, with the words shown for it."""

    value: str
    label: str


@dataclass(frozen=True)
class Setting:
    """One editable setting of a site: how it is shown, edited (text or a choice) and what limits it."""

    key: str
    label: str
    value: str
    kind: Literal["text", "choice"]
    help: str
    current: str | None = None
    choices: tuple[Choice, ...] = ()


def _default_section(structure: SiteStructure | None) -> SiteSection | None:
    sections = structure.sections() if structure is not None else []
    return next((s for s in sections if s.default), sections[0] if sections else None)


def _space_title(ss: SiteSpace) -> str:
    return ss.title or (ss.space.title if ss.space else "") or ss.path or ss.id


def settings(site: Site, structure: SiteStructure | None) -> list[Setting]:
    """The site's settings in the order the screen lists them; the defaults offer the site's own sections and
    the site spaces of its default section (or of its root, without sections)."""
    proxy = site.proxy.origin if site.proxy else None
    adaptive = "on" if site.adaptive else "off"
    section = _default_section(structure)
    sections = structure.sections() if structure is not None else []
    if isinstance(structure, SiteSpacesStructure):
        candidates = structure.site_spaces()
    else:
        candidates = section.site_spaces if section else []
    default_space = next((ss for ss in candidates if ss.default), None)
    agents = site.agents_context or "included"
    return [
        Setting("title", "Title", site.title, "text", "2..128 characters.", site.title),
        Setting(
            "visibility",
            "Visibility",
            site.visibility,
            "choice",
            "Who can reach the published site.",
            site.visibility,
            tuple(Choice(v, VISIBILITY_WORDS[v]) for v in SITE_VISIBILITIES),
        ),
        Setting(
            "basename",
            "Basename",
            site.basename or NONE,
            "text",
            "The site's path on the organization's hostname: 1..100 characters.",
            site.basename or "",
        ),
        Setting(
            "proxy",
            "Proxy",
            proxy or NONE,
            "text",
            "Serve the site under a path of your domain (company.com/docs): at most 512 characters. "
            "null (or nothing) removes the proxy.",
            proxy or "",
        ),
        Setting(
            "agentsContext",
            "Agents context",
            agents,
            "choice",
            "Whether AI agents may read the site.",
            agents,
            tuple(Choice(v, AGENTS_WORDS[v]) for v in AGENTS_CONTEXTS),
        ),
        Setting(
            "adaptiveContent",
            "Adaptive content",
            adaptive,
            "choice",
            "Show or hide content by the visitor's claims (the schema is on the Adaptive content tab).",
            adaptive,
            (Choice("on", "on: conditions decide what each visitor sees"), Choice("off", "off")),
        ),
        Setting(
            "defaultSiteSection",
            "Default section",
            section.title if section else "— (the site has no sections)",
            "choice",
            "The section shown at the site's root.",
            section.id if section else None,
            tuple(Choice(s.id, s.title or s.path) for s in sections),
        ),
        Setting(
            "defaultSiteSpace",
            "Default site space",
            _space_title(default_space) if default_space else NONE,
            "choice",
            "The site space shown first: at the root, or in the default section.",
            default_space.id if default_space else None,
            tuple(Choice(ss.id, f"{_space_title(ss)} (/{ss.path})") for ss in candidates),
        ),
    ]


def proxy_value(text: str) -> str | None:
    """What the proxy field sends: None (remove the proxy) for an empty field or ``null``."""
    stripped = text.strip()
    return None if stripped in ("", "null") else stripped


def _words(exc: InvalidRequest, label: str) -> str:
    return f"{label} {exc.problem}; the limit is {exc.limit}."


def check_setting(key: str, text: str) -> str | None:
    """What is wrong with ``text`` for a text setting, in words naming the limit (None: fine to send)."""
    label = _LABELS.get(key, key)
    try:
        if key == "title":
            check_site_title(text)
        elif key == "basename":
            limits.check_length("basename", text, min=1, max=100)
        elif key == "proxy":
            limits.check_pattern("proxy", proxy_value(text), "site.proxy", max=512)
    except InvalidRequest as exc:
        if key == "proxy" and "pattern" in exc.limit:
            return f"Proxy {exc.problem}: write a domain and a path, such as company.com/docs (or null to remove)."
        return _words(exc, label)
    return None


# --- published filter ------------------------------------------------------------------------------------------


def next_published_filter(current: bool | None) -> bool | None:
    """``p`` cycles all -> published -> unpublished -> all."""
    return True if current is None else (False if current else None)


def published_filter_label(current: bool | None) -> str:
    return {None: "All sites", True: "Published sites", False: "Unpublished sites"}[current]


# --- outlines of a structure -----------------------------------------------------------------------------------


@dataclass
class OutlineNode:
    """One item of a site's structure as a tree shows it."""

    kind: str
    id: str
    title: str
    url: str | None = None
    notes: tuple[str, ...] = ()
    children: list[OutlineNode] = field(default_factory=list)


def _site_space_node(ss: SiteSpace) -> OutlineNode:
    notes = tuple(
        note
        for note, on in (
            ("default", ss.default),
            ("hidden", ss.hidden),
            (f"if {ss.condition}", bool(ss.condition)),
        )
        if on
    )
    url = ss.urls.published if ss.urls else None
    return OutlineNode("site-space", ss.id, f"{_space_title(ss)}  /{ss.path}", url, notes)


def _item_node(item: Any) -> OutlineNode:
    if isinstance(item, SiteSectionGroup):
        return OutlineNode("site-section-group", item.id, item.title, None, (), [_item_node(c) for c in item.children])
    if isinstance(item, SiteSection):
        notes = tuple(n for n, on in (("default", item.default), (f"if {item.condition}", bool(item.condition))) if on)
        url = item.urls.published if item.urls else None
        return OutlineNode(
            "site-section",
            item.id,
            f"{item.title}  /{item.path}",
            url,
            notes,
            [_site_space_node(ss) for ss in item.site_spaces],
        )
    if isinstance(item, SiteSpace):
        return _site_space_node(item)
    if isinstance(item, SiteExternalLink):
        return OutlineNode("site-external-link", item.id, item.title, item.url or None, ("link",))
    return OutlineNode(getattr(item, "object", "") or "item", item.id, getattr(item, "title", "") or item.id)


def outline(structure: SiteStructure) -> list[OutlineNode]:
    """The structure as nested nodes: groups hold their children, sections their site spaces."""
    return [_item_node(item) for item in structure.structure]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def structure_summary(structure: SiteStructure) -> str:
    """One line about a structure: how many sections, groups and site spaces, hidden or conditional ones."""
    spaces = structure.site_spaces()
    hidden = sum(1 for ss in spaces if ss.hidden)
    conditional = sum(1 for ss in spaces if ss.condition)
    extra = [f"{hidden} hidden"] if hidden else []
    extra += [f"{conditional} with a condition"] if conditional else []
    tail = f" ({', '.join(extra)})" if extra else ""
    if isinstance(structure, SiteSpacesStructure):
        return f"{_plural(len(spaces), 'site space')} at the root, no sections{tail}"
    items = list(structure.walk())
    groups = sum(1 for i in items if isinstance(i, SiteSectionGroup))
    links = sum(1 for i in items if isinstance(i, SiteExternalLink))
    sections = structure.sections()
    conditional_sections = sum(1 for s in sections if s.condition)
    head = _plural(len(sections), "section")
    if groups:
        head += f" in {_plural(groups, 'group')}"
    if conditional_sections:
        head += f" ({conditional_sections} with a condition)"
    if links:
        head += f", {_plural(links, 'link')}"
    return f"{head} · {_plural(len(spaces), 'site space')}{tail}"
