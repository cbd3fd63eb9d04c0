"""Seed: collections (nested), a dozen spaces with page trees in markdown, files, and a deleted space.

After the base content, :func:`_extend` adds what the link and page-variant reads need: markdown links between
pages (ok, broken and in-app ones, written ``[text](/pages/<id>)`` and ``[text](/files/<id>)`` as the
service's markdown does), a link page, a group page, and Git Sync metadata on one space. It draws its ids from
a random generator of its own, so the ids every other part of the seed makes stay what they were.
"""

from __future__ import annotations

import hashlib
import random
import string
from datetime import timedelta

from folio.sandbox.revisions import make_page, new_revision
from folio.sandbox.seed.content_data import COLLECTIONS, SPACES
from folio.sandbox.state import Record, SandboxState

__all__ = ["COLLECTIONS", "MISSING_FILE", "MISSING_PAGE", "SPACES", "make_space", "seed"]


def _pages(state: SandboxState, specs: list[tuple[str, str, list]], at: str) -> list[Record]:
    return [make_page(state, title, md, children=_pages(state, kids, at), at=at) for title, md, kids in specs]


def _files(state: SandboxState, title: str) -> list[Record]:
    stem = title.lower().replace(" ", "-")
    return [
        {
            "id": state.new_id(),
            "name": f"{stem}-diagram.png",
            "contentType": "image/png",
            "downloadURL": f"https://files.example.com/{stem}-diagram.png",
            "size": 48213,
            "dimensions": {"width": 1280, "height": 720},
        },
        {
            "id": state.new_id(),
            "name": f"{stem}.pdf",
            "contentType": "application/pdf",
            "downloadURL": f"https://files.example.com/{stem}.pdf",
            "size": 183004,
        },
    ]


def make_space(
    state: SandboxState,
    org: str,
    title: str,
    *,
    emoji: str = "",
    parent: str | None = None,
    visibility: str = "private",
    language: str = "en",
    days_ago: float = 100,
    pages: list[Record] | None = None,
    files: list[Record] | None = None,
    order: int = 0,
) -> str:
    now = state.clock.now()
    created = state.clock.iso(now - timedelta(days=days_ago))
    sid = state.new_id()
    state.spaces[sid] = {
        "id": sid,
        "organization": org,
        "parent": parent,
        "title": title,
        "emoji": emoji,
        "visibility": visibility,
        "createdAt": created,
        "updatedAt": created,
        "deletedAt": None,
        "editMode": "live",
        "language": language,
        "revision": "",
        "defaultLevel": "read",
        "mergeRules": {"type": "inherit"},
        "order": order,
    }
    rev = new_revision(state, sid, pages or [], parents=[], message="Initial content", files=files or [], at=created)
    state.spaces[sid]["revision"] = rev
    return sid


def seed(state: SandboxState, *, scale: int = 0) -> None:
    org = state.demo_org
    now = state.clock.now()
    keys: dict[str, str] = {}
    for order, (key, title, description, parent) in enumerate(COLLECTIONS):
        cid = state.new_id()
        keys[key] = cid
        state.collections[cid] = {
            "id": cid,
            "organization": org,
            "title": title,
            "description": description,
            "parent": keys[parent] if parent else None,
            "defaultLevel": "read",
            "order": order,
        }
    for order, (title, emoji, coll, visibility, language, specs) in enumerate(SPACES):
        at = state.clock.iso(now - timedelta(days=300 - order * 17))
        make_space(
            state,
            org,
            title,
            emoji=emoji,
            parent=keys[coll] if coll else None,
            visibility=visibility,
            language=language,
            days_ago=300 - order * 17,
            pages=_pages(state, specs, at),
            files=_files(state, title),
            order=order,
        )
    # A space deleted three days ago: still restorable for four more days.
    gone = make_space(
        state,
        org,
        "Legacy Docs (v1)",
        emoji="🗄️",
        days_ago=700,
        pages=_pages(state, [("Old index", "# Old index\n\nSuperseded.\n", [])], state.now()),
        order=len(SPACES),
    )
    state.spaces[gone]["deletedAt"] = state.clock.iso(now - timedelta(days=3))
    _extend(state, org)
    # The second organization has one space.
    other = next((o for o in state.orgs if o != org), None)
    if other:
        make_space(
            state,
            other,
            "Guild Handbook",
            emoji="🤖",
            visibility="public",
            days_ago=120,
            pages=_pages(state, [("Code of conduct", "# Code of conduct\n\nBe kind.\n", [])], state.now()),
        )
    for n in range(scale):
        at = state.clock.iso(now - timedelta(minutes=n))
        make_space(
            state,
            org,
            f"Generated space {n:05d}",
            emoji="📄",
            days_ago=n % 365,
            pages=[make_page(state, "Overview", f"# Overview {n}\n\nGenerated.\n", at=at)],
            order=len(SPACES) + 1 + n,
        )


# --- links, page variants and Git metadata ------------------------------------------------------------------

MISSING_PAGE = "pgNetworkSetupRemoved"
"""A page id no revision holds: the target of the seeded broken link."""
MISSING_FILE = "flOldErrorChartGone01"


def _space_by_title(state: SandboxState, org: str, title: str) -> Record:
    return next(s for s in state.spaces.values() if s["organization"] == org and s["title"] == title)


def _page(pages: list[Record], title: str) -> Record:
    return next(p for p in pages if p["title"] == title)


def _oid(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def _extend(state: SandboxState, org: str) -> None:
    rng = random.Random(f"content-extra-{state.seed}")

    def new_id() -> str:
        return "".join(rng.choices(string.ascii_letters + string.digits, k=20))

    start = _space_by_title(state, org, "Getting Started")
    guide = _space_by_title(state, org, "User Guide")
    rev = state.revisions[start["revision"]]
    pages = rev["pages"]
    welcome, install, robot, trouble = (
        _page(pages, t) for t in ("Welcome", "Installation", "Your first robot", "Troubleshooting")
    )
    diagram = rev["files"][0]
    welcome["markdown"] += (
        f"\nStart with [Installation](/pages/{install['id']}), then register "
        f"[your first robot](/pages/{robot['id']}). The [architecture diagram](/files/{diagram['id']}) shows "
        "the moving parts.\n"
    )
    robot["markdown"] += (
        f"\nThen [open the fleet in the app]({state.app_base}/o/{org}/s/{guide['id']}/fleets) and check "
        f"[Troubleshooting](/pages/{trouble['id']}) if it does not show up.\n"
    )
    trouble["markdown"] += (
        f"\nSee also [Network setup](/pages/{MISSING_PAGE}) and the [status page](https://status.northwind.dev).\n"
    )
    pages.append(
        {
            "id": new_id(),
            "title": "Status page",
            "type": "link",
            "slug": "status-page",
            "description": "",
            "pages": [],
            "target": {"kind": "url", "url": "https://status.northwind.dev"},
            "href": "https://status.northwind.dev",
            "createdAt": rev["createdAt"],
            "updatedAt": rev["createdAt"],
        }
    )

    api = _space_by_title(state, org, "REST API Reference")
    api_rev = state.revisions[api["revision"]]
    errors = _page(api_rev["pages"], "Errors")
    errors["markdown"] += (
        f"\nThe [error rate chart](/files/{MISSING_FILE}) is no longer kept; "
        f"[Authentication](/pages/{_page(api_rev['pages'], 'Authentication')['id']}) lists the 401 causes.\n"
    )
    # This space is synced with a Git repository: its revision, pages and files carry Git metadata.
    api["gitSync"] = {
        "repoName": "northwind/rest-api-docs",
        "installationId": new_id(),
        "installationProvider": "github",
        "installationStatus": "active",
        "url": "https://github.com/northwind/rest-api-docs/tree/main",
        "updatedAt": api["createdAt"],
    }
    api_rev["git"] = {
        "oid": _oid(api_rev["id"]),
        "message": "Import API reference",
        "createdByGitBook": False,
        "url": "https://github.com/northwind/rest-api-docs/commit/" + _oid(api_rev["id"]),
        "ref": "refs/heads/main",
    }
    for page in api_rev["pages"]:
        page["git"] = {"oid": _oid(page["id"]), "path": page["slug"] + ".md"}
    for file in api_rev["files"]:
        file["git"] = {"oid": _oid(file["id"]), "path": ".gitbook/assets/" + file["name"]}

    # A group page at the root of the SDK reference, holding a document page.
    sdk = _space_by_title(state, org, "SDK Reference")
    sdk_rev = state.revisions[sdk["revision"]]
    when = sdk_rev["createdAt"]
    samples = {
        "id": new_id(),
        "title": "Code samples",
        "type": "document",
        "slug": "code-samples",
        "description": "",
        "markdown": "# Code samples\n\nSee the [Python SDK](/pages/"
        f"{_page(sdk_rev['pages'], 'Python SDK')['id']}) first.\n",
        "pages": [],
        "createdAt": when,
        "updatedAt": when,
    }
    sdk_rev["pages"].append(
        {
            "id": new_id(),
            "title": "More",
            "type": "group",
            "slug": "more",
            "description": "",
            "pages": [samples],
            "createdAt": when,
            "updatedAt": when,
        }
    )
