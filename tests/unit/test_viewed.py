"""The local "viewed" marks of review: per change request and revision, kept across runs, robust to bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from folio.services.review.viewed import KEEP_REVISIONS, ViewedMarks


def test_marks_persist_per_change_request_and_revision(tmp_path: Path) -> None:
    marks = ViewedMarks(tmp_path)
    assert marks.viewed("cr1", "rev1") == set()
    assert marks.set_viewed("cr1", "rev1", "pageA") == {"pageA"}
    assert marks.toggle("cr1", "rev1", "pageB") is True
    again = ViewedMarks(tmp_path)  # a new run reads the file
    assert again.viewed("cr1", "rev1") == {"pageA", "pageB"}
    assert again.viewed("cr1", "rev2") == set()  # a new revision starts afresh
    assert again.viewed("cr2", "rev1") == set()
    assert again.toggle("cr1", "rev1", "pageA") is False
    assert ViewedMarks(tmp_path).viewed("cr1", "rev1") == {"pageB"}


def test_the_default_folder_is_under_the_state_dir(isolated_home: Path) -> None:
    marks = ViewedMarks()
    marks.set_viewed("abcDEF123", "r1", "p1")
    path = isolated_home / "state" / "viewed" / "abcDEF123.json"
    assert path.is_file()
    data = json.loads(path.read_text())
    assert data["changeRequest"] == "abcDEF123" and data["revisions"] == {"r1": ["p1"]}
    assert set(data["markedAt"]) == {"r1"}  # when the revision's marks last changed


def test_the_last_marked_revision_and_carried_marks(tmp_path: Path) -> None:
    marks = ViewedMarks(tmp_path)
    assert marks.last_marked("cr") is None
    marks.set_viewed("cr", "r1", "a")
    marks.set_viewed("cr", "r1", "b")
    assert marks.carry("cr", "r2", {"a"}) == {"a"}
    last = marks.last_marked("cr", other_than="r3")
    assert last is not None and last[0] == "r1" and last[1] is not None  # carried marks are not a look
    marks.set_viewed("cr", "r2", "c")
    assert marks.viewed("cr", "r2") == {"a", "c"}
    assert marks.last_marked("cr", other_than="r3")[0] == "r2"  # type: ignore[index]
    assert marks.last_marked("cr", other_than="r2")[0] == "r1"  # type: ignore[index]


def test_odd_ids_never_escape_the_folder(tmp_path: Path) -> None:
    marks = ViewedMarks(tmp_path)
    path = marks.path_for("../../etc/passwd")
    assert path.parent == tmp_path and ".." not in path.name
    marks.set_viewed("../../etc/passwd", "r", "p")
    assert marks.viewed("../../etc/passwd", "r") == {"p"}


@pytest.mark.parametrize("content", ["not json", "[]", '{"revisions": 3}', '{"revisions": {"r": [1, "p"]}}'])
def test_a_bad_file_counts_as_no_marks(tmp_path: Path, content: str) -> None:
    marks = ViewedMarks(tmp_path)
    marks.path_for("cr").write_text(content)
    assert marks.viewed("cr", "r") <= {"p"}
    assert marks.set_viewed("cr", "r", "q") >= {"q"}  # and writing over it works


def test_only_the_recent_revisions_are_kept(tmp_path: Path) -> None:
    marks = ViewedMarks(tmp_path)
    for n in range(KEEP_REVISIONS + 3):
        marks.set_viewed("cr", f"r{n}", "p")
    data = json.loads(marks.path_for("cr").read_text())
    assert list(data["revisions"]) == [f"r{n}" for n in range(3, KEEP_REVISIONS + 3)]
    marks.set_viewed("cr", "r3", "q")  # used again: now the most recent
    assert list(json.loads(marks.path_for("cr").read_text())["revisions"])[-1] == "r3"


def test_a_failed_write_raises_and_leaves_no_temp_file(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    marks = ViewedMarks(blocked / "viewed")  # a folder that cannot be made: its parent is a file
    with pytest.raises(OSError):
        marks.set_viewed("cr", "r", "p")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_marks_are_kept_per_account_and_older_shared_ones_still_read(tmp_path: Path) -> None:
    ViewedMarks(tmp_path).set_viewed("cr", "r1", "old")  # made before marks were kept per account
    account: list[str | None] = ["ada"]
    marks = ViewedMarks(tmp_path, account=lambda: account[0])
    assert marks.viewed("cr", "r1") == {"old"}  # the shared file, until the account has its own
    marks.set_viewed("cr", "r1", "new")
    assert marks.path_for("cr") == tmp_path / "ada" / "cr.json" and marks.path_for("cr").is_file()
    assert marks.viewed("cr", "r1") == {"old", "new"}
    account[0] = "bruno"
    assert marks.viewed("cr", "r1") == {"old"}  # another account does not see Ada's marks
    account[0] = None
    assert marks.path_for("cr") == tmp_path / "cr.json"
