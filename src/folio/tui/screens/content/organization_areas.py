"""The organization's other screens, reached from the organization screen by one key each (they are also the
``:`` commands, in the palette and in ``?``): key, route kind, label, tooltip."""

from __future__ import annotations

__all__ = ["AREAS"]

AREAS = (
    ("M", "members", "Members", "Members of the organization: roles, SSO, removal (:members)"),
    ("T", "teams", "Teams", "Teams and their members (:teams)"),
    ("I", "sso", "Single sign-on", "SAML providers and sign-in options (:sso)"),
    ("comma", "settings", "Settings", "The organization's settings and invite links (:settings)"),
    ("A", "agent", "Agent", "The docs assistant's instructions (:agent)"),
    ("P", "specs", "API specs", "Imported OpenAPI descriptions (:specs)"),
    ("C", "clusters", "Issue clusters", "What readers ask about, grouped (:clusters)"),
    ("V", "conversations", "Conversations", "Readers' conversations with support and the assistant (:conversations)"),
    ("L", "translations", "Translations", "Translations of the spaces (:translations)"),
    ("F", "search", "Search", "Search the organization's pages (:search)"),
    ("X", "trash", "Trash", "Deleted spaces, restorable for 7 days (:trash)"),
)
"""The organization's other screens, one key each (also the ``:`` commands, the palette and ``?``)."""
