"""The collections and space-admin services: the tree a grab moves through (rows, landing spots, folded
collections, into and out of a collection), the move a drop sends, the spec's limits on the forms, and the writes
and reads against the seeded sandbox (what the sandbox then holds is checked)."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import InvalidRequest
from folio.models.space import Collection, Space, SpaceSummary
from folio.sandbox import SandboxState
from folio.sandbox.domain.spaces import siblings
from folio.services import Services
from folio.services.browse import build_tree
from folio.services.content.collections import (
    LOOSE,
    check_collection,
    content_spots,
    content_tree,
    delete_consequence,
    into_collection,
    out_of_collection,
    placement,
    visible_rows,
)
from folio.services.content.space_admin import (
    FileUse,
    FileUses,
    RevisionFacts,
    check_space,
    git_words,
    merge_mode,
    space_changes,
    space_header,
)
from folio.tui.widgets.tree_grab import Declined, TreeGrab

# P (collection): G (collection: gs, gu), R (collection, empty), rn (space)
# E (collection, empty)
# x (a space in no collection)
COLLECTIONS = [
    Collection(id="P", title="P"),
    Collection(id="G", title="G", parent="P"),
    Collection(id="R", title="R", parent="P"),
    Collection(id="E", title="E"),
]
SPACES = [
    SpaceSummary(id="gs", title="GS", parent="G"),
    SpaceSummary(id="gu", title="GU", parent="G"),
    SpaceSummary(id="rn", title="RN", parent="P"),
    SpaceSummary(id="x", title="X"),
]


def sample() -> Any:
    return content_tree(build_tree(COLLECTIONS, SPACES))


def shown(rows: list[tuple[str, int]]) -> list[str]:
    return [f"{'.' * depth}{key}" for key, depth in rows]


def spots_of(tree: Any, item: str, collapsed: set[str] | None = None) -> list[tuple[str | None, int, int, int]]:
    return [(s.parent, s.index, s.depth, s.line) for s in content_spots(tree, item, collapsed or set())]


# --- the tree --------------------------------------------------------------------------------------------------


def test_rows_are_collections_then_spaces_and_the_root_spaces_last() -> None:
    tree = sample()
    assert shown(visible_rows(tree)) == ["c:P", ".c:G", "..s:gs", "..s:gu", ".c:R", ".s:rn", "c:E", LOOSE, ".s:x"]
    assert shown(visible_rows(tree, {"c:G"})) == ["c:P", ".c:G", ".c:R", ".s:rn", "c:E", LOOSE, ".s:x"]
    assert tree.spaces_under("c:P") == 3 and tree.collections_under("c:P") == 2
    assert tree.name("c:G") == "collection “G”" and tree.name("s:x") == "space “X”"
    assert tree.name(LOOSE) == "the root (no collection)"


def test_the_root_node_shows_without_loose_spaces_only_while_a_space_is_in_hand() -> None:
    tree = content_tree(build_tree(COLLECTIONS, SPACES[:3]))
    assert LOOSE not in [key for key, _ in visible_rows(tree)]
    assert LOOSE not in [key for key, _ in visible_rows(tree, held="c:E")]
    assert (LOOSE, 0) in visible_rows(tree, held="s:gu")
    assert spots_of(tree, "s:gu")[-1] == (LOOSE, 0, 1, 7)  # the root is somewhere a space may go


def test_a_space_lands_among_spaces_only() -> None:
    tree = sample()
    assert spots_of(tree, "s:gu") == [
        ("c:G", 0, 2, 2),
        ("c:G", 1, 2, 3),
        ("c:R", 0, 2, 4),  # into the empty R (its gap is the row after R)
        ("c:P", 2, 1, 4),  # after P's collections: among its spaces
        ("c:P", 3, 1, 5),
        ("c:E", 0, 1, 6),
        (LOOSE, 0, 1, 7),
        (LOOSE, 1, 1, 8),
    ]


def test_a_collection_lands_among_collections_never_inside_itself() -> None:
    tree = sample()
    found = spots_of(tree, "c:G")
    assert all(parent in (None, "c:P", "c:R", "c:E") for parent, *_ in found)
    assert spots_of(tree, "c:P") == [(None, 0, 0, 0), ("c:E", 0, 1, 1), (None, 1, 0, 1)]  # before the root spaces


def test_a_folded_collection_takes_a_row_at_its_end_and_shows_it_there() -> None:
    tree = sample()
    found = content_spots(tree, "s:x", {"c:G"})
    folded = next(s for s in found if s.parent == "c:G")
    assert (folded.index, folded.depth, folded.line) == (2, 2, 2)
    assert [s.parent for s in found].count("c:G") == 1
    tree.layout.place("s:x", "c:G", 2)
    assert shown(visible_rows(tree, {"c:G"}, held="s:x"))[:3] == ["c:P", ".c:G", "..s:x"]


def test_out_of_and_into_a_collection() -> None:
    tree = sample()
    assert out_of_collection(tree, "s:gu") == ("c:P", 2)  # among P's first spaces
    assert out_of_collection(tree, "s:rn") == (LOOSE, 0)  # P is at the root: to the root's spaces
    assert out_of_collection(tree, "s:x") is None
    assert out_of_collection(tree, "c:G") == (None, 1)  # just after P
    assert out_of_collection(tree, "c:P") is None
    assert into_collection(tree, "s:rn") == ("c:R", 0)  # the last collection beside it, at its end
    assert into_collection(tree, "s:x") == ("c:E", 0)
    assert into_collection(tree, "c:R") == ("c:G", 0)  # the one above, at the end of its collections
    assert into_collection(tree, "c:G") == ("c:R", 0)  # none above: the one below, at its start
    assert into_collection(tree, "s:gs") is None  # G holds no collection


def test_the_grab_moves_through_the_spots_and_back() -> None:
    tree = sample()
    grab = TreeGrab.over(tree, "s:gu", content_spots(tree, "s:gu"), name="GU")
    assert grab.origin == ("c:G", 1) and grab.depth == 2 and not grab.moved
    assert grab.land(tree, grab.at + 1) and tree.layout.parent["s:gu"] == "c:R"
    assert grab.moved and grab.holds(tree, "s:gu") and not grab.holds(tree, "s:gs")
    assert grab.land_in(tree, "c:Q", 0) is None
    grab.put_back(tree)
    assert tree.layout.position("s:gu") == ("c:G", 1)
    lonely = content_tree(build_tree([], SPACES[3:]))
    with pytest.raises(Declined, match="nowhere else to put X"):
        TreeGrab.over(lonely, "s:x", content_spots(lonely, "s:x"), name="X")


def test_the_mouse_lands_on_the_nearest_spot() -> None:
    tree = sample()
    grab = TreeGrab.over(tree, "s:x", content_spots(tree, "s:x"), name="X", mouse=True, press=(8, 4))
    rows = visible_rows(tree, held="s:x")
    at = grab.nearest(tree, 3, 6, rows)  # over "gu": the gap before it, two levels deep
    assert at is not None and (grab.spots[at].parent, grab.spots[at].index) == ("c:G", 1)
    assert grab.nearest(tree, rows.index(("s:x", 1)), 4, rows) is None


def test_a_drop_names_a_neighbour_of_its_own_kind() -> None:
    tree = sample()
    tree.layout.place("s:gu", "c:R", 0)
    assert placement(tree, "s:gu").body() == {"parent": "R"}
    tree.layout.place("s:gu", "c:P", 2)
    assert placement(tree, "s:gu").body() == {"parent": "P", "position": {"before": {"type": "space", "space": "rn"}}}
    tree.layout.place("s:gu", "c:P", 3)
    assert placement(tree, "s:gu").body() == {"parent": "P", "position": {"after": {"type": "space", "space": "rn"}}}
    tree.layout.place("s:rn", "c:E", 0)
    tree.layout.place("s:gu", "c:P", 2)  # P has no other space: after its collections
    body = placement(tree, "s:gu").body()
    assert body == {"parent": "P", "position": {"after": {"type": "collection", "collection": "R"}}}
    tree.layout.place("c:G", None, 1)
    assert placement(tree, "c:G").body() == {
        "parent": None,
        "position": {"before": {"type": "collection", "collection": "E"}},
    }
    tree.layout.place("c:G", None, 2)  # the last collection of the root: after the one before it
    assert placement(tree, "c:G").body() == {
        "parent": None,
        "position": {"after": {"type": "collection", "collection": "E"}},
    }
    tree.layout.place("c:R", "c:E", 0)  # E holds the space rn: before the spaces
    assert placement(tree, "c:R").body() == {"parent": "E", "position": {"before": {"type": "space", "space": "rn"}}}


# --- limits and words -----------------------------------------------------------------------------------------


def test_collection_limits() -> None:
    assert check_collection({"title": "Guides", "description": "", "default_level": "edit"}) == {}
    assert "title" in check_collection({"title": "  "})
    assert check_collection({"title": "x" * 51})["title"] == "At most 50 characters: this title has 51."
    assert "description" in check_collection({"title": "A", "description": "d" * 101})
    assert "default_level" in check_collection({"title": "A", "default_level": "owner"})


def test_deleting_says_what_becomes_of_what_it_holds() -> None:
    assert delete_consequence(0, 0) == "It holds no space and no collection."
    text = delete_consequence(3, 1)
    assert text.startswith("The 1 collection inside it are deleted with it; its 3 spaces are deleted too")
    assert "restored for 7 days" in text


def space(**fields: Any) -> Space:
    return Space.model_validate({"id": "s1", "title": "Guide", "visibility": "public", **fields})


def test_space_limits_and_changes() -> None:
    assert check_space({"title": "Guide", "emoji": "📘", "language": "fr", "merge": "inherit"}) == {}
    assert "title" in check_space({"title": ""})
    assert "language" in check_space({"title": "A", "language": "xx"})
    assert "reviewers" in check_space({"title": "A", "merge": "rules", "reviewers": []})
    current = space(emoji="", language="en", defaultLevel="read", mergeRules={"type": "inherit"})
    same = {"title": "Guide", "emoji": "", "language": "en", "default_level": "read", "merge": "inherit"}
    assert space_changes(current, same) == {}
    changed = space_changes(current, {**same, "emoji": "📘", "merge": "rules", "reviewers": ["u1", "u2"]})
    assert changed == {
        "emoji": "📘",
        "merge_rules": {"type": "rules", "rules": [{"rule": "require_specific_reviewers", "users": ["u1", "u2"]}]},
    }
    ruled = space(mergeRules={"type": "rules", "rules": [{"rule": "require_specific_reviewers", "users": ["u2"]}]})
    assert merge_mode(ruled) == ("rules", ["u2"])
    assert space_changes(ruled, {"merge": "inherit"}) == {"merge_rules": {"type": "inherit"}}
    assert space_changes(ruled, {"merge": "rules", "reviewers": ["u2"]}) == {}
    bypass = {"rule": "allow_bypass", "users": ["u9"]}
    mixed = space(mergeRules={"type": "rules", "rules": [bypass, {"rule": "require_specific_reviewers", "users": []}]})
    assert space_changes(mixed, {"merge": "rules", "reviewers": ["u1"]}) == {
        "merge_rules": {"type": "rules", "rules": [bypass, {"rule": "require_specific_reviewers", "users": ["u1"]}]}
    }


def test_the_header_puts_the_git_sync_before_the_language() -> None:
    plain = space(language="en", changeRequestsOpen=1)
    assert git_words(plain) == ""
    assert space_header(plain) == "Public · Live editing · Language en · 1 open change request · 0 open comments"
    synced = space(
        language="en",
        editMode="locked",
        gitSync={"repoName": "northwind/docs", "installationProvider": "github"},
    )
    assert space_header(synced).startswith("Public · Locked: no edits · Git: northwind/docs (github, synced) · ")


def test_file_uses_and_revision_facts_in_words() -> None:
    assert FileUses(offered=False).summary == "This service does not say where files are used."
    assert FileUses().summary == "Not used on any page."
    uses = FileUses(True, (FileUse("Docs", "Welcome"), FileUse("Docs", "Install"), FileUse("API", "")))
    assert uses.summary == "Used on 2 pages in 2 spaces"
    facts = RevisionFacts("r1", "edits", "2026-10-31 21:00 UTC", 1, "Fix typos", "abcdef1234567890", None, "main")
    assert facts.lines()[-1] == "Git commit abcdef123456 on main: Fix typos"
    assert RevisionFacts("r2", "merge", "-", 2).lines()[-1] == "Not synced with Git: no commit."


# --- against the sandbox ---------------------------------------------------------------------------------------


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client, where="the test sandbox")


def named(state: SandboxState, title: str) -> dict[str, Any]:
    return next(r for r in (*state.spaces.values(), *state.collections.values()) if r["title"] == title)


async def test_moves_sent_as_the_tree_places_them(services: Services, state: SandboxState) -> None:
    org = state.demo_org
    tree = content_tree(build_tree(await services.browse.collections(org), await spaces_of(services, org)))
    guide, reference = named(state, "User Guide"), named(state, "Reference")
    tree.layout.place(f"s:{guide['id']}", f"c:{reference['id']}", 1)  # before SDK Reference
    await services.collections.move(placement(tree, f"s:{guide['id']}"), org)
    assert [i["title"] for _, i in siblings(state, org, reference["id"])] == [
        "REST API Reference",
        "User Guide",
        "SDK Reference",
    ]
    runbooks = named(state, "Runbooks")
    tree.layout.place(f"c:{runbooks['id']}", None, 0)
    await services.collections.move(placement(tree, f"c:{runbooks['id']}"), org)
    assert [i["title"] for _, i in siblings(state, org, None)][:2] == ["Runbooks", "Product"]
    assert services.changes.version(("collections", org)) == 2


async def spaces_of(services: Services, org: str) -> list[SpaceSummary]:
    out: list[SpaceSummary] = []
    async for page in services.browse.spaces_pages(org):
        out.extend(page)
    return out


async def test_collections_written_and_found_again(services: Services, state: SandboxState) -> None:
    org = state.demo_org
    known = {c.id for c in await services.collections.collections(org)}
    made = await services.collections.create(org, "Drafts")
    assert await services.collections.find(org, "Drafts", known=known) == made
    assert await services.collections.find(org, "Drafts", known=known | {made.id}) is None
    edited = await services.collections.update(made, {"description": "Work in progress", "default_level": "edit"})
    assert edited.description == "Work in progress" and state.collections[made.id]["defaultLevel"] == "edit"
    with pytest.raises(InvalidRequest):
        await services.collections.update(made, {"title": "x" * 51})
    guild = next(o for o in state.orgs if o != org)
    assert [o.id for o in await services.collections.organizations(org)] == [guild]
    moved = await services.collections.transfer(made, guild)
    assert moved.organization == guild and state.collections[made.id]["organization"] == guild
    spare = await services.collections.create(org, "Spare", parent=named(state, "Company")["id"])
    assert await services.collections.delete(spare) is True
    assert spare.id not in state.collections


async def test_space_admin_writes_and_reads(services: Services, state: SandboxState) -> None:
    admin = services.space_admin
    scratch = await admin.space(named(state, "Scratchpad")["id"])
    locked = await admin.set_locked(scratch, True)
    assert locked.locked and state.spaces[scratch.id]["editMode"] == "locked"
    known = await admin.known_ids(state.demo_org)
    copy = await admin.duplicate(scratch)
    assert copy.title == "Scratchpad (copy)" and copy.id not in known
    assert await admin.find_duplicate(scratch, known) is not None
    assert await admin.delete(copy) is True and state.spaces[copy.id]["deletedAt"]

    start = named(state, "Getting Started")
    diagram = state.revisions[start["revision"]]["files"][0]
    uses = await admin.file_uses(start["id"], diagram["id"])
    assert uses.offered and [(u.space, u.page) for u in uses.uses] == [("Getting Started", "Welcome")]

    facts = await admin.revision(start["id"])
    assert facts.id == start["revision"] and facts.pages and facts.type == "edits"

    trouble = next(e for e in facts.pages if e.page.title == "Troubleshooting")
    report = await admin.page_links(start["id"], trouble.page.id, pages=facts.pages)
    assert report.offered and report.broken == 1
    assert any(link.broken and link.label.startswith("Missing page") for link in report.links)
