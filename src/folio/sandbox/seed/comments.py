"""Seed: comment threads on the demo spaces and on the seeded change requests.

Threads sit on the whole space, on a page or on a block (node) of a page; some have replies and emoji
reactions, some are resolved. Change requests get threads on pages of their own revision when the change
requests seed made any (this part also works when it made none). ``scale`` adds N short comments spread over
the spaces.
"""

from __future__ import annotations

from datetime import timedelta

from folio.sandbox.clock import parse_iso
from folio.sandbox.revisions import walk
from folio.sandbox.state import Record, SandboxState

# (target: "space" | "page" | "node", text, author, hours ago, resolved, [(author, text, hours later)],
#  [(emoji, [reactors])]); authors index the commenting members of the organization.
THREADS: list[tuple[str, str, int, float, bool, list[tuple[int, str, float]], list[tuple[str, list[int]]]]] = [
    (
        "page",
        "The first paragraph of **{title}** still says the CLI needs Python 3.9; it needs 3.11 now.",
        2,
        70,
        False,
        [(0, "Good catch, I will fix it in the next change request.", 3), (2, "Thanks!", 5)],
        [("👍", [0, 3])],
    ),
    (
        "node",
        "Could this step link to the troubleshooting page?",
        3,
        52,
        True,
        [(1, "Linked it, see the latest revision.", 20)],
        [("🎉", [3])],
    ),
    (
        "space",
        "Should **{space}** move under the Reference collection?",
        0,
        30,
        False,
        [
            (4, "I would keep it here, readers find it from the guides.", 2),
            (1, "Agreed with keeping it.", 6),
            (0, "Fine, leaving it where it is.", 9),
        ],
        [],
    ),
    (
        "page",
        "The screenshot on **{title}** shows the old navigation.",
        5,
        12,
        False,
        [],
        [("👀", [0, 1, 2])],
    ),
    ("node", "Typo: *recieve* → *receive*.", 1, 6, True, [], [("✅", [2])]),
    (
        "page",
        "Is **{title}** still accurate after the November release?",
        4,
        2,
        False,
        [(3, "Mostly. The rollout section needs the new wave sizes.", 1)],
        [],
    ),
]

CR_THREADS: list[tuple[str, str, int, float, bool, list[tuple[int, str, float]], list[tuple[str, list[int]]]]] = [
    (
        "page",
        "This rewrite of **{title}** reads much better.",
        3,
        20,
        False,
        [(2, "Thanks, I also split the long table.", 1)],
        [("❤️", [0, 3])],
    ),
    (
        "node",
        "This sentence contradicts the policy page; which one is right?",
        0,
        10,
        False,
        [(2, "The policy page. I will align this one.", 2), (0, "Perfect.", 4)],
        [],
    ),
    ("space", "Please request a review from the API writers before merging.", 1, 4, True, [], [("👍", [2])]),
]


def _commenters(state: SandboxState, org: str) -> list[str]:
    members = state.members.get(org, {})
    ids = [uid for uid, m in members.items() if m.get("role") != "read" and not m.get("disabled")]
    return ids[:12] or ([state.default_user] if state.default_user else [])


def _pages(state: SandboxState, revision: str) -> list[Record]:
    tree = state.revisions.get(revision, {}).get("pages") or []
    return [p for p, _, _ in walk(tree) if p.get("type", "document") == "document"]


def _thread(state: SandboxState, space: Record, cr: Record | None, spec: tuple, people: list[str], pick: int) -> None:
    kind, text, author, hours_ago, resolved, replies, reactions = spec
    now = state.clock.now()
    revision = (cr or space)["revision"]
    pages = _pages(state, revision)
    target: Record = {"revision": revision}
    title = space["title"]
    if kind in ("page", "node") and pages:
        page = pages[pick % len(pages)]
        target["page"] = {"id": page["id"]}
        title = page.get("title") or title
        if kind == "node":
            target["node"] = {"id": state.new_id(12)}
    posted = now - timedelta(hours=hours_ago)
    if cr and cr.get("createdAt"):  # never before the change request was opened
        posted = min(max(posted, parse_iso(cr["createdAt"]) + timedelta(minutes=10)), now)
    comment: Record = {
        "id": state.new_id(),
        "space": space["id"],
        "changeRequest": cr["id"] if cr else None,
        "postedBy": people[author % len(people)],
        "postedAt": state.clock.iso(posted),
        "editedAt": None,
        "body": text.format(title=title, space=space["title"]),
        "target": target,
        "status": "open",
        "resolvedAt": None,
        "resolvedBy": None,
        "reactions": [
            {
                "emoji": emoji,
                "users": [
                    {"user": uid, "reactedAt": state.clock.iso(posted + timedelta(minutes=5 + i))}
                    for i, uid in enumerate(dict.fromkeys(people[w % len(people)] for w in who))
                ],
            }
            for emoji, who in reactions
        ],
        "replies": [],
    }
    last = posted
    for who, body, later in replies:
        at = min(posted + timedelta(hours=later), now)
        last = max(last, at)
        comment["replies"].append(
            {
                "id": state.new_id(),
                "postedBy": people[who % len(people)],
                "postedAt": state.clock.iso(at),
                "editedAt": None,
                "body": body,
                "reactions": [],
            }
        )
    if resolved:
        comment.update(
            status="resolved",
            resolvedAt=state.clock.iso(min(last + timedelta(minutes=30), now)),
            resolvedBy=people[0],
        )
    state.comments[comment["id"]] = comment


def seed(state: SandboxState, *, scale: int = 0) -> None:
    spaces = [s for s in state.spaces.values() if not s.get("deletedAt")]
    seeded = [s for s in spaces if s.get("organization") == state.demo_org][:8]
    for n, space in enumerate(seeded):
        people = _commenters(state, space["organization"])
        if not people:
            continue
        for k in range(2 + n % 3):
            _thread(state, space, None, THREADS[(n + k) % len(THREADS)], people, pick=n + 2 * k)
    by_id = {s["id"]: s for s in spaces}
    for n, cr in enumerate(list(state.change_requests.values())[:40]):
        home = by_id.get(cr.get("space", ""))
        if home is None or not cr.get("revision"):
            continue
        people = _commenters(state, home["organization"])
        if not people:
            continue
        for k in range(1 + n % 2):
            _thread(state, home, cr, CR_THREADS[(n + k) % len(CR_THREADS)], people, pick=n + k)
    if scale > 0 and spaces:
        _generated(state, spaces, scale)


def _generated(state: SandboxState, spaces: list[Record], scale: int) -> None:
    now = state.clock.now()
    people_by_org: dict[str, list[str]] = {}
    first_page: dict[str, str | None] = {}
    for n in range(scale):
        space = spaces[n % len(spaces)]
        org = space["organization"]
        if org not in people_by_org:
            people_by_org[org] = _commenters(state, org)
        people = people_by_org[org]
        if not people:
            continue
        if space["id"] not in first_page:
            pages = state.revisions.get(space["revision"], {}).get("pages") or []
            first_page[space["id"]] = pages[0]["id"] if pages else None
        target: Record = {"revision": space["revision"]}
        if first_page[space["id"]] and n % 2 == 0:
            target["page"] = {"id": first_page[space["id"]]}
        cid = state.new_id()
        state.comments[cid] = {
            "id": cid,
            "space": space["id"],
            "changeRequest": None,
            "postedBy": people[n % len(people)],
            "postedAt": state.clock.iso(now - timedelta(minutes=7 * n + 1)),
            "editedAt": None,
            "body": f"Generated comment {n:05d}.",
            "target": target,
            "status": "resolved" if n % 5 == 0 else "open",
            "resolvedAt": state.clock.iso(now - timedelta(minutes=7 * n)) if n % 5 == 0 else None,
            "resolvedBy": people[0] if n % 5 == 0 else None,
            "reactions": [],
            "replies": [],
        }
