"""The pure part of the structure editor: the tree of a structure read, where a moving item may land, the
operations a move takes on a service, what they do, the published URLs a plan moves, and the limits."""

from __future__ import annotations

from typing import Any

import pytest

from folio.models.site import Site, SiteUrls
from folio.models.site_structure import (
    SiteSection,
    SiteSectionGroup,
    SiteSectionsStructure,
    SiteSpace,
    SiteSpacesStructure,
)
from folio.services.sites.structure import (
    GROUP,
    SECTION,
    Move,
    Offered,
    Operation,
    StructureTree,
    Unsupported,
    build_plan,
    build_tree,
    describe_move,
    field_problems,
    into_group,
    operations,
    out_of_group,
    simulate,
    spots,
    step,
)

BASE = "https://docs.example.com/"


def _space(sid: str, path: str, *, default: bool = False, hidden: bool = False) -> SiteSpace:
    return SiteSpace(id=sid, path=path, title=sid.upper(), default=default, hidden=hidden)


def _section(sid: str, *spaces: SiteSpace, default: bool = False, group: str | None = None) -> SiteSection:
    return SiteSection(
        id=sid, title=sid.title(), path=sid, default=default, section_group=group, site_spaces=list(spaces)
    )


def _site(published: bool = True) -> Site:
    return Site(id="site", title="Docs", visibility="public", published=published, urls=SiteUrls(published=BASE))


def sample(*, published: bool = True, default: str = "a") -> StructureTree:
    """root: group g [section a (a1, a2), group h [section b (b1)]], section c (c1, c2, c3)."""
    structure = SiteSectionsStructure(
        structure=[
            SiteSectionGroup(
                id="g",
                title="G",
                children=[
                    _section("a", _space("a1", "one", default=True), _space("a2", "two"), default=default == "a"),
                    SiteSectionGroup(id="h", title="H", section_group="g", children=[_section("b", _space("b1", "x"))]),
                ],
            ),
            _section(
                "c", _space("c1", "p", default=True), _space("c2", "q"), _space("c3", "r"), default=default == "c"
            ),
        ]
    )
    return build_tree("org", "site", _site(published), structure)


def shape(tree: StructureTree, layout: Any = None) -> list[tuple[str, int]]:
    return (layout or tree.layout).rows()


# --- the tree ---------------------------------------------------------------------------------------------------


def test_the_tree_of_a_structure_with_sections() -> None:
    tree = sample()
    assert shape(tree) == [
        ("g", 0), ("a", 1), ("a1", 2), ("a2", 2), ("h", 1), ("b", 2), ("b1", 3),
        ("c", 0), ("c1", 1), ("c2", 1), ("c3", 1),
    ]  # fmt: skip
    assert tree.counts() == {GROUP: 2, SECTION: 3, "site-space": 6, "site-external-link": 0}
    assert tree.default_section is None  # the default is the first section: not known to be named
    assert tree.defaults() == {"a", "a1", "b1", "c1"}


def test_urls_follow_the_services_rules() -> None:
    urls = sample().resolve()[1]
    assert urls == {
        "a": BASE,
        "a1": BASE,
        "a2": BASE + "two",
        "b": BASE + "b",
        "b1": BASE + "b",
        "c": BASE + "c",
        "c1": BASE + "c",
        "c2": BASE + "c/q",
        "c3": BASE + "c/r",
    }
    assert sample(published=False).resolve()[1] == {}


def test_a_default_that_is_not_the_first_is_known_to_be_named() -> None:
    tree = sample(default="c")
    assert tree.default_section == "c"
    # Moving the first section away does not change the default then.
    move = Move("c", None, 1, None, 0)
    tree.layout.apply(move)
    assert "c" in tree.defaults()
    tree.layout.apply(move.inverse())
    assert "c" in tree.defaults() and "a" not in tree.defaults()


def test_a_site_without_sections() -> None:
    structure = SiteSpacesStructure(structure=[_space("r1", "one", default=True), _space("r2", "two")])
    tree = build_tree("org", "site", _site(), structure)
    assert not tree.sections
    assert shape(tree) == [("r1", 0), ("r2", 0)]
    assert tree.resolve()[1] == {"r1": BASE, "r2": BASE + "two"}
    assert [(s.parent, s.index) for s in spots(tree, "r2")] == [(None, 0), (None, 1)]


# --- where an item may land -------------------------------------------------------------------------------------


def test_spots_of_a_section_run_in_row_order_deepest_first() -> None:
    tree = sample()
    found = [(s.parent, s.index, s.depth, s.line) for s in spots(tree, "c")]
    assert found == [
        (None, 0, 0, 0),  # before g
        ("g", 0, 1, 1),  # before a
        ("g", 1, 1, 4),  # before h
        ("h", 0, 2, 5),  # before b
        ("h", 1, 2, 7),  # end of h
        ("g", 2, 1, 7),  # end of g
        (None, 1, 0, 7),  # where it is
    ]


def test_a_group_never_lands_in_itself_and_site_spaces_stay_home() -> None:
    tree = sample()
    assert all(s.parent != "g" and s.parent != "h" for s in spots(tree, "g"))
    assert {s.parent for s in spots(tree, "h")} == {None, "g"}
    assert [(s.parent, s.index) for s in spots(tree, "c2")] == [("c", 0), ("c", 1), ("c", 2)]


@pytest.mark.parametrize(
    ("item", "delta", "expected"),
    [
        ("c", -1, Move("c", None, 1, "g", 2)),  # up: into the end of g
        ("a", -1, Move("a", "g", 0, None, 0)),  # up from the top of g: out, before it
        ("a", 1, Move("a", "g", 0, "h", 0)),  # down past h's row: into h, at its start
        ("c2", 1, Move("c2", "c", 1, "c", 2)),
        ("c3", 1, None),  # the last spot
        ("g", -1, None),
    ],
)
def test_one_step(item: str, delta: int, expected: Move | None) -> None:
    tree = sample()
    assert step(tree, tree.layout, item, delta) == expected


def test_into_and_out_of_groups() -> None:
    tree = sample()
    assert into_group(tree, tree.layout, "c") == Move("c", None, 1, "g", 2)  # the group above, at its end
    assert out_of_group(tree, tree.layout, "b") == Move("b", "h", 0, "g", 2)  # just after its group
    assert out_of_group(tree, tree.layout, "c") is None
    assert into_group(tree, tree.layout, "c1") is None
    tree.layout.apply(Move("c", None, 1, None, 0))
    assert into_group(tree, tree.layout, "c") == Move("c", None, 0, "g", 0)  # the group below, at its start


# --- operations -------------------------------------------------------------------------------------------------


def test_a_reorder_is_one_sort_before_the_next_sibling() -> None:
    tree = sample()
    move = Move("c", None, 1, None, 0)
    assert operations(tree, tree.layout, move, Offered()) == [Operation("sort", "c", SECTION, before=(GROUP, "g"))]
    to_end = Move("a", "g", 0, "g", 1)
    assert operations(tree, tree.layout, to_end, Offered()) == [Operation("sort", "a", SECTION, after=(GROUP, "h"))]


def test_a_new_group_is_an_update_then_a_sort_unless_it_ends_up_last() -> None:
    tree = sample()
    into_h = Move("c", None, 1, "h", 0)
    assert operations(tree, tree.layout, into_h, Offered()) == [
        Operation("update-section", "c", SECTION, parent="h"),
        Operation("sort", "c", SECTION, before=(SECTION, "b")),
    ]
    assert operations(tree, tree.layout, Move("c", None, 1, "h", 1), Offered()) == [
        Operation("update-section", "c", SECTION, parent="h")
    ]
    assert operations(tree, tree.layout, Move("h", "g", 1, None, 2), Offered()) == [
        Operation("update-group", "h", GROUP, parent=None)
    ]


def test_older_services_get_the_older_operations() -> None:
    tree = sample()
    older = Offered(sort=False, section_group_update=False)
    assert operations(tree, tree.layout, Move("c", None, 1, "h", 0), older) == [
        Operation("add-to-group", "c", SECTION, parent="h"),
        Operation("move-section", "c", SECTION, before=(SECTION, "b")),
    ]
    with pytest.raises(Unsupported, match="no operation to put"):
        operations(tree, tree.layout, Move("a", "g", 0, None, 0), older)  # to the root needs the update
    with pytest.raises(Unsupported, match="section move cannot place"):
        operations(tree, tree.layout, Move("c", None, 1, None, 0), Offered(sort=False))  # next to a group
    assert operations(tree, tree.layout, Move("c2", "c", 1, "c", 0), Offered(site_space_move=False)) == [
        Operation("sort", "c2", "site-space", before=("site-space", "c1"))
    ]
    assert operations(tree, tree.layout, Move("c2", "c", 1, "c", 0), Offered()) == [
        Operation("move-site-space", "c2", "site-space", before=("site-space", "c1"))
    ]
    with pytest.raises(Unsupported, match="stays in its section"):
        operations(tree, tree.layout, Move("c2", "c", 1, "a", 0), Offered())


def test_simulated_operations_reach_the_move() -> None:
    tree = sample()
    for move in (Move("c", None, 1, "h", 0), Move("a", "g", 0, None, 2), Move("c3", "c", 2, "c", 0)):
        expected = tree.layout.copy()
        expected.apply(move)
        got = tree.layout.copy()
        for op in operations(tree, got, move, Offered()):
            simulate(got, op)
        assert got.rows() == expected.rows()


# --- plans ------------------------------------------------------------------------------------------------------


def test_a_plan_lists_steps_and_every_url_that_moves() -> None:
    tree = sample()
    start = tree.layout.copy()
    moves = [Move("c", None, 1, None, 0), Move("c3", "c", 2, "c", 0)]
    plan = build_plan(tree, start, moves, Offered())
    assert [s.label for s in plan.steps] == [
        "Move section “C” before group “G”",
        "Move site space “C3” before site space “C1”",
    ]
    assert [len(s.operations) for s in plan.steps] == [1, 1]
    assert plan.sendable and plan.published
    # c becomes the first section (the default: the root URL) and c3 its default site space.
    assert {(u.id, u.old, u.new) for u in plan.urls} == {
        ("a", BASE, BASE + "a"),
        ("a1", BASE, BASE + "a"),
        ("a2", BASE + "two", BASE + "a/two"),
        ("c", BASE + "c", BASE),
        ("c1", BASE + "c", BASE + "p"),
        ("c2", BASE + "c/q", BASE + "q"),
        ("c3", BASE + "c/r", BASE),
    }
    assert shape(tree, start) == shape(tree)  # planning changes nothing


def test_a_plan_says_what_it_cannot_send_and_nothing_moves_unpublished() -> None:
    tree = sample(published=False)
    plan = build_plan(tree, tree.layout, [Move("c", None, 1, None, 0)], Offered(sort=False))
    assert not plan.sendable and plan.steps[0].problem and "section move" in plan.steps[0].problem
    assert plan.urls == [] and not plan.published


def test_inverse_moves_restore_the_layout() -> None:
    tree = sample()
    before = shape(tree)
    moves = [Move("c", None, 1, "h", 0), Move("a", "g", 0, None, 0), Move("b1", "b", 0, "b", 0)]
    for move in moves:
        tree.layout.apply(move)
    for move in reversed(moves):
        tree.layout.apply(move.inverse())
    assert shape(tree) == before


def test_describe_move() -> None:
    tree = sample()
    assert describe_move(tree, tree.layout, Move("c", None, 1, "h", 0)) == (
        "Move section “C” to group “H”, before section “B”"
    )
    assert describe_move(tree, tree.layout, Move("a", "g", 0, "g", 1)) == "Move section “A” to the end of group “G”"


# --- local edits and removals -----------------------------------------------------------------------------------


def test_edits_and_their_way_back() -> None:
    tree = sample()
    back = tree.apply_edit("c2", {"path": "new", "default": True, "hidden": True})
    assert tree.nodes["c2"].path == "new" and tree.nodes["c2"].hidden
    assert tree.default_among("c1") == "c2" and tree.default_spaces["c"] == "c2"
    tree.apply_edit("c2", back)
    assert tree.nodes["c2"].path == "q" and not tree.nodes["c2"].hidden
    assert "c" not in tree.default_spaces and tree.default_among("c2") == "c1"


def test_removing_a_group_keeps_its_children_and_a_section_takes_its_spaces() -> None:
    tree = sample()
    tree.remove("h")
    assert shape(tree)[:5] == [("g", 0), ("a", 1), ("a1", 2), ("a2", 2), ("b", 1)]
    tree.remove("c")
    assert "c1" not in tree.nodes and "c" not in tree.layout.parent
    assert [k for k, _ in shape(tree)] == ["g", "a", "a1", "a2", "b", "b1"]


# --- limits -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "values", "expected"),
    [
        (SECTION, {"title": "A"}, {"title": "is too short (1 characters) (2..128 characters)"}),
        (GROUP, {"title": "A"}, {}),
        (GROUP, {"title": ""}, {"title": "is empty (1..100 characters)"}),
        (SECTION, {"path": ""}, {"path": "is empty (1..100 characters)"}),
        (SECTION, {"icon": "x" * 51}, {"icon": "is too long (51 characters) (at most 50 characters)"}),
        (SECTION, {"description": None, "condition": None, "icon": None}, {}),
        (
            "site-space",
            {"condition": "x" * 1025},
            {"condition": "is too long (1025 characters) (at most 1024 characters)"},
        ),
        (SECTION, {"hidden": True, "default": True}, {}),
    ],
)
def test_field_problems(kind: str, values: dict[str, Any], expected: dict[str, str]) -> None:
    assert field_problems(kind, values) == expected
