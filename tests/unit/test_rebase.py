"""Your edit carried onto a colleague's newer text (``folio.services.review.rebase``): lines only one side
changed are merged, places both changed differently are marked, and the marks are counted."""

from __future__ import annotations

import pytest

from folio.services.review.rebase import conflict_marks, rebase

BASE = "# T\n\none\ntwo\nthree\n"


@pytest.mark.parametrize(
    ("mine", "theirs", "merged"),
    [
        pytest.param(BASE, BASE, BASE, id="nothing changed"),
        pytest.param(BASE, "# Title\n\none\ntwo\nthree\n", "# Title\n\none\ntwo\nthree\n", id="only theirs"),
        pytest.param("# T\n\none\nTWO\nthree\n", BASE, "# T\n\none\nTWO\nthree\n", id="only mine"),
        pytest.param(
            "# T\n\none\nTWO\nthree\nfour\n",
            "# Title\n\none\ntwo\nthree\n",
            "# Title\n\none\nTWO\nthree\nfour\n",
            id="apart",
        ),
        pytest.param("# T\n\none\nTWO\nthree\n", "# T\n\none\nTWO\nthree\n", "# T\n\none\nTWO\nthree\n", id="same"),
        pytest.param("# T\n\none\nthree\n", "# T\n\none\ntwo\nthree\nfour\n", "# T\n\none\nthree\nfour\n", id="cut"),
    ],
)
def test_changes_apart_are_merged(mine: str, theirs: str, merged: str) -> None:
    result = rebase(BASE, mine, theirs)
    assert (result.text, result.conflicts) == (merged, 0)


def test_the_same_lines_changed_differently_are_marked() -> None:
    result = rebase(BASE, "# T\n\nuno\ntwo\nthree\n", "# T\n\nein\ntwo\nthree\n", theirs_label="main now")
    assert result.conflicts == 1
    assert result.text == "# T\n\n<<<<<<< yours\nuno\n=======\nein\n>>>>>>> theirs (main now)\ntwo\nthree\n"
    assert conflict_marks(result.text) == 1
    assert conflict_marks(result.text.replace("<<<<<<< yours\n", "")) == 0


def test_lines_inserted_at_the_same_place_are_marked() -> None:
    result = rebase(BASE, BASE + "mine\n", BASE + "theirs\n")
    assert result.conflicts == 1
    assert result.text.endswith("three\n<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> theirs\n")


def test_a_line_inserted_beside_their_change_is_not_a_conflict() -> None:
    result = rebase(BASE, "# T\n\none\ntwo\nthree\nfour\n", "# T\n\none\ntwo\nTHREE\n")
    assert (result.text, result.conflicts) == ("# T\n\none\ntwo\nTHREE\nfour\n", 0)
