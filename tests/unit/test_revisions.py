"""The sandbox's page-tree logic: ``diff_pages`` and ``three_way`` (shared, in sandbox/revisions.py), and what
the change request routes add on top (moves, keeping a change request's edits, the semantic change list)."""

from __future__ import annotations

from typing import Any

from folio.sandbox.revisions import apply_moves, clone_pages, diff_pages, find_page, keep_edits, moved_pages, three_way
from folio.sandbox.routes.reviews import render_changes

Tree = list[dict[str, Any]]


def page(pid: str, markdown: str = "", *children: dict[str, Any], title: str | None = None) -> dict[str, Any]:
    return {
        "id": pid,
        "title": title or pid.upper(),
        "type": "document",
        "slug": pid,
        "description": "",
        "markdown": markdown or f"# {pid}\n",
        "pages": list(children),
    }


def base_tree() -> Tree:
    return [page("a"), page("b", "", page("b1"), page("b2")), page("c"), page("d")]


def ids(tree: Tree) -> list[str]:
    return [p["id"] for p in tree]


def get(tree: Tree, pid: str) -> dict[str, Any]:
    found = find_page(tree, pid)
    assert found is not None
    return found[0]


def kinds(changes: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(c["type"], c["page"]) for c in changes}


# --- diff_pages ---------------------------------------------------------------------------------------------


def test_diff_of_identical_trees_is_empty() -> None:
    assert diff_pages(base_tree(), base_tree()) == []


def test_diff_created_edited_deleted() -> None:
    new = base_tree()
    get(new, "a")["markdown"] = "# a\n\nMore.\n"
    get(new, "b")["pages"].append(page("b3"))
    new.remove(get(new, "d"))
    changes = diff_pages(base_tree(), new)
    assert kinds(changes) == {("page_edited", "a"), ("page_created", "b3"), ("page_deleted", "d")}
    edited = next(c for c in changes if c["type"] == "page_edited")
    assert edited["fields"] == ["markdown"] and edited["path"] == "a"
    created = next(c for c in changes if c["type"] == "page_created")
    assert created["path"] == "b/b3" and created["title"] == "B3"


def test_diff_move_to_another_parent() -> None:
    new = base_tree()
    c = get(new, "c")
    new.remove(c)
    get(new, "b")["pages"].insert(0, c)
    moves = [ch for ch in diff_pages(base_tree(), new) if ch["type"] == "page_moved" and ch["page"] == "c"]
    assert moves == [{"type": "page_moved", "page": "c", "title": "C", "path": "b/c", "previousPath": "c"}]


def test_diff_title_edit_names_the_field() -> None:
    new = base_tree()
    get(new, "b2")["title"] = "Second"
    assert diff_pages(base_tree(), new) == [
        {"type": "page_edited", "page": "b2", "title": "Second", "path": "b/b2", "fields": ["title"]}
    ]


# --- three_way ----------------------------------------------------------------------------------------------


def test_three_way_applies_theirs_on_ours() -> None:
    base, ours, theirs = base_tree(), base_tree(), base_tree()
    get(ours, "a")["markdown"] = "# a\n\nmain\n"  # only main edits a
    get(theirs, "c")["markdown"] = "# c\n\ncr\n"  # only the change request edits c
    theirs.remove(get(theirs, "d"))  # and deletes d
    get(theirs, "b")["pages"].append(page("b3"))  # and creates b3 under b
    snapshot = clone_pages(ours)
    result = three_way(base, ours, theirs)
    assert get(result, "a")["markdown"] == "# a\n\nmain\n"
    assert get(result, "c")["markdown"] == "# c\n\ncr\n"
    assert ids(result) == ["a", "b", "c"] and ids(get(result, "b")["pages"]) == ["b1", "b2", "b3"]
    assert ours == snapshot and base == base_tree()  # the inputs are left alone


def test_three_way_theirs_wins_a_page_both_changed() -> None:
    base, ours, theirs = base_tree(), base_tree(), base_tree()
    get(ours, "a")["markdown"] = "main"
    get(theirs, "a")["markdown"] = "cr"
    assert get(three_way(base, ours, theirs), "a")["markdown"] == "cr"


def test_three_way_keeps_pages_ours_created() -> None:
    base, ours, theirs = base_tree(), base_tree(), base_tree()
    ours.append(page("e"))
    assert ids(three_way(base, ours, theirs)) == ["a", "b", "c", "d", "e"]


# --- what the change request routes add ---------------------------------------------------------------------


def test_moved_pages_ignores_pages_that_only_shifted() -> None:
    base = base_tree()
    inserted = [page("z"), *clone_pages(base)]  # everything after z shifted by one
    assert moved_pages(base, inserted) == set()
    rotated = clone_pages(base)
    rotated.append(rotated.pop(0))  # a moved to the end: b, c, d only shifted
    assert moved_pages(base, rotated) == {"a"}
    nested = base_tree()
    c = get(nested, "c")
    nested.remove(c)
    get(nested, "b1")["pages"].append(c)
    assert moved_pages(base, nested) == {"c"}


def test_apply_moves_places_pages_as_theirs_does() -> None:
    base, theirs = base_tree(), base_tree()
    d = get(theirs, "d")
    theirs.remove(d)
    get(theirs, "b")["pages"].insert(1, d)  # d between b1 and b2
    result = base_tree()
    result.append(page("e"))  # something ours has and theirs does not
    apply_moves(base, theirs, result)
    assert ids(result) == ["a", "b", "c", "e"] and ids(get(result, "b")["pages"]) == ["b1", "d", "b2"]
    untouched = base_tree()
    apply_moves(base, theirs, untouched, skip={"d"})
    assert ids(untouched) == ["a", "b", "c", "d"]


def test_keep_edits_restores_our_content() -> None:
    base, ours = base_tree(), base_tree()
    get(ours, "a")["markdown"] = "ours"
    result = base_tree()
    get(result, "a")["markdown"] = "theirs"
    get(result, "c")["markdown"] = "theirs too"
    keep_edits(base, ours, result)
    assert get(result, "a")["markdown"] == "ours" and get(result, "c")["markdown"] == "theirs too"


def test_render_changes_in_the_service_shapes() -> None:
    base, new = base_tree(), base_tree()
    get(new, "a")["markdown"] = "edited"
    get(new, "b2")["slug"] = "second"
    c = get(new, "c")
    new.remove(c)
    get(new, "b")["pages"].append(c)
    new.append(page("e"))
    changes = render_changes(base, new)
    by_type = {(ch["type"], ch["page"]["id"]): ch for ch in changes}
    assert set(by_type) == {("page_edited", "a"), ("page_edited", "b2"), ("page_moved", "c"), ("page_created", "e")}
    document = by_type[("page_edited", "a")]["attributes"]["document"]
    assert document["before"] != document["after"] and document["after"].startswith("doc-")
    assert by_type[("page_edited", "b2")]["attributes"] == {"slug": {"before": "b2", "after": "second"}}
    moved = by_type[("page_moved", "c")]
    assert moved["page"] == {"id": "c", "type": "document", "title": "C", "path": "b/c"}
    assert moved["parent"] == {"after": {"id": "b", "type": "document", "title": "B", "path": "b"}}


def test_three_way_carries_their_moves_and_keeps_ours() -> None:
    base = base_tree()
    theirs = clone_pages(base)
    moved = get(theirs, "d")
    theirs.remove(moved)
    get(theirs, "b")["pages"].insert(0, moved)  # d moved under b, first
    ours = clone_pages(base)
    ours.insert(0, ours.pop(2))  # c moved to the top on our side
    merged = three_way(base, ours, theirs)
    assert ids(merged) == ["c", "a", "b"]
    assert ids(get(merged, "b")["pages"]) == ["d", "b1", "b2"]


def test_a_slug_change_alone_is_an_edit_and_a_shift_is_not_a_move() -> None:
    base = base_tree()
    new = clone_pages(base)
    get(new, "c")["slug"] = "see"
    new.insert(0, page("z"))  # every sibling shifts by one; none was moved
    assert kinds(diff_pages(base, new)) == {("page_created", "z"), ("page_edited", "c")}
