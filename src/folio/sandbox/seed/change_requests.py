"""Seed: ten change requests over five spaces of the demo organization, with real page edits between their
initial revision and their own (edited markdown, created, deleted and moved pages), review requests and
reviews.

For the demo user (``state.default_user``): three are theirs ("mine"), three await their review. One is merged
(the space's revision moved on), one archived, two drafts, and one outdated (main changed after it began).
``scale`` adds one cheap change request to each of the first ``scale`` generated spaces, and a large one (200
pages, pages of 5,000 lines) in a space of its own (:mod:`folio.sandbox.seed.large`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from folio.sandbox.domain.change_requests import merge_change_request, open_change_request
from folio.sandbox.domain.reviews import add_review, document, request_review
from folio.sandbox.revisions import clone_pages, find_page, make_page, new_revision, walk
from folio.sandbox.seed.large import seed_large
from folio.sandbox.state import Record, SandboxState

Edit = Callable[[SandboxState, list[Record], str], None]


# --- page edits ---------------------------------------------------------------------------------------------


def _page(pages: list[Record], title: str) -> Record:
    return next(page for page, _, _ in walk(pages) if page["title"] == title)


def edit(title: str, old: str, new: str) -> Edit:
    """Replace ``old`` with ``new`` in the markdown of the page titled ``title`` (append it when ``old`` is
    empty)."""

    def apply(state: SandboxState, pages: list[Record], at: str) -> None:
        page = _page(pages, title)
        page["markdown"] = page["markdown"] + new if not old else page["markdown"].replace(old, new)
        page["updatedAt"] = at

    return apply


def create(title: str, markdown: str, *, under: str | None = None, index: int = -1) -> Edit:
    def apply(state: SandboxState, pages: list[Record], at: str) -> None:
        siblings = _page(pages, under).setdefault("pages", []) if under else pages
        siblings.insert(len(siblings) if index < 0 else index, make_page(state, title, markdown, at=at))

    return apply


def delete(title: str) -> Edit:
    def apply(state: SandboxState, pages: list[Record], at: str) -> None:
        found = find_page(pages, _page(pages, title)["id"])
        assert found is not None
        found[1].remove(found[0])

    return apply


def move(title: str, *, under: str | None = None, index: int = 0) -> Edit:
    def apply(state: SandboxState, pages: list[Record], at: str) -> None:
        found = find_page(pages, _page(pages, title)["id"])
        assert found is not None
        found[1].remove(found[0])
        siblings = _page(pages, under).setdefault("pages", []) if under else pages
        siblings.insert(index, found[0])

    return apply


def commit(state: SandboxState, cr: Record, edits: list[Edit], at: str, by: str | None = None) -> None:
    """One round of edits to a change request: a new revision on top of its current one."""
    current = state.revisions[cr["revision"]]
    pages = clone_pages(current["pages"])
    for change in edits:
        change(state, pages, at)
    cr["revision"] = new_revision(
        state, cr["space"], pages, parents=[current["id"]], at=at, files=[dict(f) for f in current["files"]]
    )
    cr["updatedAt"] = at
    if by and by not in cr["contributors"]:
        cr["contributors"].append(by)


def commit_main(state: SandboxState, space_id: str, edits: list[Edit], at: str, message: str) -> None:
    """An edit straight to a space's main content (its revision moves on)."""
    space = state.spaces[space_id]
    current = state.revisions[space["revision"]]
    pages = clone_pages(current["pages"])
    for change in edits:
        change(state, pages, at)
    space["revision"] = new_revision(
        state,
        space_id,
        pages,
        parents=[current["id"]],
        at=at,
        message=message,
        files=[dict(f) for f in current["files"]],
    )
    space["updatedAt"] = at


# --- the demo -----------------------------------------------------------------------------------------------


def seed(state: SandboxState, *, scale: int = 0) -> None:
    org, now = state.demo_org, state.clock.now()
    spaces = {s["title"]: sid for sid, s in state.spaces.items() if s["organization"] == org}
    people = {u["email"].split("@")[0]: uid for uid, u in state.users.items() if uid in state.members[org]}
    me = state.default_user

    def ago(days: float) -> str:
        return state.clock.iso(now - timedelta(days=days))

    def cr(space: str, subject: str, by: str, days: float, edits: list[Edit], description: str = "") -> Record:
        record = open_change_request(state, spaces[space], by, subject=subject, at=ago(days))
        if description:
            record["description"] = document(description)
        commit(state, record, edits, ago(days - 0.05))
        return record

    # Getting Started: one awaiting my review (reviewed, edited, asked again), my draft, an archived one.
    linux = cr(
        "Getting Started",
        "Clarify Linux install steps",
        people["chen"],
        12,
        [
            edit(
                "Linux",
                "sudo apt install northwind\n```\n",
                "sudo apt update\nsudo apt install northwind\n```\n\nThe package needs Ubuntu 22.04 or newer.\n",
            ),
            create(
                "Windows",
                "# Windows\n\nInstall with winget:\n\n```powershell\nwinget install northwind\n```\n",
                under="Installation",
            ),
        ],
        "Adds the apt update step and a Windows page.",
    )
    request_review(state, linux, me, people["chen"], at=ago(11.9))
    request_review(state, linux, people["dana"], people["chen"], at=ago(11.9))
    add_review(
        state,
        linux,
        people["dana"],
        "changes-requested",
        "Please say which Ubuntu versions are supported.",
        at=ago(11),
    )
    commit(
        state,
        linux,
        [edit("Linux", "22.04 or newer.", "22.04 or newer (Debian 12 works too).")],
        ago(10),
        by=people["chen"],
    )
    request_review(state, linux, people["dana"], people["chen"], at=ago(9.9))
    cr(
        "Getting Started",
        "Reorganise troubleshooting",
        me,
        3,
        [
            move("Troubleshooting", under="Your first robot"),
            edit(
                "Troubleshooting",
                "",
                "\n## The QR code does not scan\n\nClean the camera and raise the screen brightness.\n",
            ),
        ],
    )
    archived = cr(
        "Getting Started",
        "Refresh the welcome page",
        people["emeka"],
        40,
        [edit("Welcome", "ship fleet updates safely", "ship fleet updates safely and quickly")],
    )
    archived.update(status="archived", updatedAt=ago(30))

    # User Guide: a merged change request (the space moved on), then one of mine on top of it.
    canary = cr(
        "User Guide",
        "Document the canary channel",
        people["farah"],
        25,
        [
            edit(
                "Fleets",
                "| channel | stable, beta or canary |",
                "| channel | stable, beta or canary (see Channels) |",
            ),
            create(
                "Channels",
                "# Channels\n\n- **stable**: every robot\n- **beta**: opt-in fleets\n- **canary**: "
                "1% of robots, first to update\n",
                under="Fleets",
            ),
        ],
        "Explains the three release channels.",
    )
    request_review(state, canary, people["bruno"], people["farah"], at=ago(24))
    add_review(state, canary, people["bruno"], "approved", None, at=ago(22))
    merge_change_request(state, canary, people["bruno"], at=ago(21))
    waves = cr(
        "User Guide",
        "Explain rollout waves",
        me,
        6,
        [
            edit(
                "Rollouts",
                "waits for health checks.",
                "waits for health checks.\n\nA wave fails when more than "
                "2% of its robots report errors; the rollout then pauses.",
            )
        ],
    )
    request_review(state, waves, people["hana"], me, at=ago(5.5))
    add_review(state, waves, people["hana"], "changes-requested", "Can we give an example with numbers?", at=ago(5))
    request_review(state, waves, people["dana"], me, at=ago(4.5))

    # REST API Reference: one outdated (main changed after it began) awaiting my review; one deleting a page.
    paging = cr(
        "REST API Reference",
        "Add pagination to the Robots API",
        people["farah"],
        15,
        [
            edit(
                "Robots",
                "returns a paged list.",
                "returns a paged list: pass `page` from `next.page` to go on, "
                "and `limit` (at most 1000) to size a page.",
            )
        ],
    )
    request_review(state, paging, me, people["farah"], at=ago(14.5))
    request_review(state, paging, people["dana"], people["farah"], at=ago(14.5))
    add_review(state, paging, people["dana"], "approved", "Clear and correct.", at=ago(13))
    commit_main(
        state,
        spaces["REST API Reference"],
        [edit("Errors", "", "\n## Rate limits\n\nA 429 answer carries `Retry-After` in seconds.\n")],
        ago(8),
        "Document rate limit errors",
    )
    legacy = cr(
        "REST API Reference",
        "Remove the deprecated Rollouts API page",
        people["julia"],
        5,
        [delete("Rollouts API")],
    )
    request_review(state, legacy, people["bruno"], people["julia"], at=ago(4.9))
    add_review(state, legacy, people["bruno"], "approved", None, at=ago(4))

    # Release Notes: a draft adding next month's page.
    cr(
        "Release Notes",
        "December 2026 release notes",
        people["lena"],
        2,
        [
            create(
                "2026-12",
                "# December 2026\n\n- Rollout pause on error budget\n- Windows installer\n",
                index=0,
            )
        ],
    )

    # Platform Runbooks: one of mine awaiting Bruno, one awaiting me (with an approval already).
    failover = cr(
        "Platform Runbooks",
        "Failover: lower the DNS TTL first",
        me,
        7,
        [
            edit(
                "Database failover",
                "1. Confirm the primary is down.",
                "1. Lower the DNS TTL to 60 seconds.\n2. Confirm the primary is down.",
            )
        ],
    )
    request_review(state, failover, people["bruno"], me, at=ago(6.9))
    weekend = cr(
        "Platform Runbooks",
        "Weekend paging rotation",
        people["emeka"],
        4,
        [
            edit("Paging policy", "", "\nOn weekends the secondary answers within 15 minutes.\n"),
            move("Incident review", index=0),
        ],
    )
    request_review(state, weekend, me, people["emeka"], at=ago(3))
    request_review(state, weekend, people["hana"], people["emeka"], at=ago(3))
    add_review(state, weekend, people["hana"], "approved", "Looks right to me.", at=ago(2))

    if scale:
        _generated(state, scale)
        seed_large(state)


def _generated(state: SandboxState, scale: int) -> None:
    """One change request in each of the first ``scale`` generated spaces: cheap (one page, one revision)."""
    now, org = state.clock.now(), state.demo_org
    generated = [
        sid for sid, s in state.spaces.items() if s["organization"] == org and s["title"].startswith("Generated space")
    ]
    members = list(state.members[org])
    for n, space_id in enumerate(generated[:scale]):
        at = state.clock.iso(now - timedelta(hours=n % 2000, minutes=n))
        record = open_change_request(
            state, space_id, members[n % len(members)], subject=f"Generated change {n:05d}", number=1, at=at
        )
        for page in state.revisions[record["revision"]]["pages"]:  # fresh and unseen: edit it in place
            page["markdown"] += f"\nEdited in change request {n}.\n"
        record["status"] = ("open", "draft", "open", "archived")[n % 4]
        if record["status"] == "open":
            reviewer = members[(n + 1) % len(members)]
            record["requestedReviewers"] = [reviewer]
            record["reviewRequests"] = {
                reviewer: {
                    "requestedBy": record["createdBy"],
                    "revision": record["revision"],
                    "createdAt": at,
                }
            }
