"""What the TUI keeps for each listed item (issue 15, memory per item): a list's ``Row`` has slots and makes its
filter text when first asked (again after new cells), and the go-to's ``Loaded`` keeps the names of its ids, not a
dict of them, with one trail tuple for everything a screen remembered. What they say is what they said before."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from textual.content import Content

from folio.tui.app.navigation import Loaded, Navigation
from folio.tui.navigation import key_of
from folio.tui.widgets.page_tree import PageRow
from folio.tui.widgets.rows import Row

# -- Row ---------------------------------------------------------------------------------------------------------


def test_a_row_has_no_dict() -> None:
    row = Row("k", ["a"])
    assert not hasattr(row, "__dict__")
    with pytest.raises(AttributeError):
        row.extra = 1  # type: ignore[attr-defined]


def test_search_is_the_cells_text_joined_in_lower_case() -> None:
    row = Row("k", [Content("User Guide"), "public", Content("Docs"), "3 d ago", "2"])
    assert row.search == "user guide public docs 3 d ago 2"


def test_search_is_made_when_first_asked_not_before() -> None:
    row = Row("k", ["Alpha", "Beta"])
    assert row._joined is None  # nothing made for a row the filter never reads
    assert row.search == "alpha beta"
    assert row._joined == "alpha beta"
    assert row.search is row.search  # made once


def test_search_follows_new_cells() -> None:
    row = Row("k", ["Alpha", "1"])
    assert "alpha" in row.search
    row.cells = ["Renamed", "2"]
    assert row.search == "renamed 2"
    assert "alpha" not in row.search


def test_search_given_is_kept_as_given_even_with_new_cells() -> None:
    row = Row("--section", [Content("Keys")], search=" ")
    assert row.search == " "
    row.cells = ["Other"]
    assert row.search == " "


def test_an_empty_search_given_means_the_cells() -> None:
    assert Row("k", ["Alpha"], search="").search == "alpha"


def test_a_row_says_what_its_fields_say() -> None:
    data = object()
    row = Row(key="k", cells=["A", "B"], search="x", style="dim", indent=2, data=data)
    assert (row.key, list(row.cells), row.search, row.style, row.indent, row.data) == (
        "k",
        ["A", "B"],
        "x",
        "dim",
        2,
        data,
    )
    assert Row("k", ["A"]) == Row(
        "k", ["A"], search="a"
    )  # as the dataclass compared: key, cells, search, style, indent
    assert Row("k", ["A"]) != Row("k", ["B"])
    assert Row("k", ["A"], data=1) == Row("k", ["A"], data=2)  # data is not compared
    assert "search='a'" in repr(Row("k", ["A"]))
    with pytest.raises(TypeError):
        hash(Row("k", ["A"]))


def test_a_lazy_search_filters_as_an_eager_one() -> None:
    cells: list[list[Content | str]] = [
        [Content(f"Space {n}"), "public" if n % 2 else "private", str(n)] for n in range(50)
    ]
    lazy = [Row(f"k{n}", c) for n, c in enumerate(cells)]
    eager = [
        Row(f"k{n}", c, search=" ".join(x.plain if isinstance(x, Content) else x for x in c).lower())
        for n, c in enumerate(cells)
    ]
    for words in (["space", "1"], ["private"], ["nothing"]):
        assert [r.key for r in lazy if all(w in r.search for w in words)] == [
            r.key for r in eager if all(w in r.search for w in words)
        ]


def test_a_page_row_still_makes_its_own_cells_and_search() -> None:
    row = PageRow(SimpleNamespace(page=SimpleNamespace(id="p", hidden=False, path="a/b"), guide="", kind="document"))  # type: ignore[arg-type]
    row.cells = ["Renamed"]
    assert row.search == "renamed a/b"
    assert isinstance(row, Row) and row.key == "p"


# -- Loaded, the go-to's store -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ids",
    [
        {"space_id": "sp1"},
        {"org_id": "o1", "team_id": "t1"},
        {"space_id": "sp1", "ref": "cr7"},
        {"org_id": "o1", "user_id": ""},
    ],
)
def test_loaded_gives_back_the_ids_it_was_given(ids: dict[str, Any]) -> None:
    loaded = Loaded("thing", ids, "Title", ("Org",))
    assert loaded.ids == ids
    assert (loaded.kind, loaded.key, loaded.title, loaded.trail) == ("thing", key_of(ids), "Title", ("Org",))
    assert loaded.ids is not loaded.ids  # a copy: a caller may change it


@pytest.mark.parametrize(
    "ids",
    [
        {"org_id": "o1", "path": "a/b"},  # a slash: the key cannot be split back
        {"space_id": "sp1", "number": 12},  # not a string
        {"org_id": "o1", "query": None},  # left out of the key
        {},
    ],
)
def test_loaded_keeps_ids_it_cannot_read_back_from_its_key(ids: dict[str, Any]) -> None:
    given = dict(ids)
    loaded = Loaded("thing", ids, "Title", ())
    ids.clear()  # what it keeps is its own
    assert loaded.ids == given


def test_loaded_shares_the_names_of_ids() -> None:
    one, two = Loaded("space", {"space_id": "a"}, "A", ()), Loaded("space", {"space_id": "b"}, "B", ())
    assert one._ids is two._ids
    assert not hasattr(one, "__dict__")


def test_things_remembered_from_one_screen_share_its_trail() -> None:
    store = SimpleNamespace(loaded={})
    for n in range(3):
        Navigation.remember(store, "space", {"space_id": f"s{n}"}, f"Space {n}", ("Northwind", "Spaces"))  # type: ignore[arg-type]
    Navigation.remember(store, "space", {"space_id": "x"}, "Other", ("Acme",))  # type: ignore[arg-type]
    trails = [item.trail for item in store.loaded.values()]
    assert trails == [("Northwind", "Spaces")] * 3 + [("Acme",)]
    assert trails[0] is trails[1] is trails[2]


def test_remember_keeps_the_latest_last_and_once() -> None:
    store = SimpleNamespace(loaded={})
    Navigation.remember(store, "space", {"space_id": "a"}, "A")  # type: ignore[arg-type]
    Navigation.remember(store, "space", {"space_id": "b"}, "B")  # type: ignore[arg-type]
    Navigation.remember(store, "space", {"space_id": "a"}, "A again")  # type: ignore[arg-type]
    assert list(store.loaded) == [("space", "b"), ("space", "a")]
    assert store.loaded[("space", "a")].title == "A again"
    assert store.loaded[("space", "a")].ids == {"space_id": "a"}
