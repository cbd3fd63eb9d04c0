"""The pages a reviewer marked "viewed" in a change request, kept on this machine only.

One JSON file per change request under the state folder (``<state>/viewed/<change request id>.json``; with an
account, ``<state>/viewed/<account>/<change request id>.json``), holding the marked page ids per revision of the
change request, and when each revision's marks last changed: when the change request gets a new revision, its
review starts with no page marked (what you looked at may have changed), and the revision marked last is the one
"since your last review" compares with. Only the last :data:`KEEP_REVISIONS` revisions are kept. A file that
cannot be read counts as no marks; a write that fails raises ``OSError`` for the screen to say so.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from folio.config.paths import paths

__all__ = ["KEEP_REVISIONS", "ViewedMarks"]

KEEP_REVISIONS = 10
_SAFE_NAME = re.compile(r"[A-Za-z0-9_-]{1,100}")


class ViewedMarks:
    """``marks.viewed(cr_id, revision)`` -> page ids; ``marks.toggle(cr_id, revision, page_id)`` -> now viewed?

    ``directory`` defaults to ``<state dir>/viewed`` (read when first needed, so ``FOLIO_HOME`` set later
    still counts). ``account`` says whose marks they are (asked each time: the account is known once the service
    has said who the caller is); marks made before they were kept per account are read from the shared folder
    until the account's own file is written."""

    def __init__(self, directory: Path | None = None, *, account: Callable[[], str | None] | None = None) -> None:
        self._directory = directory
        self._account = account

    @property
    def shared(self) -> Path:
        return self._directory if self._directory is not None else paths().state_dir / "viewed"

    @property
    def directory(self) -> Path:
        account = self._account() if self._account is not None else None
        return self.shared / _name(account) if account else self.shared

    def path_for(self, cr_id: str) -> Path:
        """The file of a change request (ids that are not plain letters and digits are hashed)."""
        return self.directory / f"{_name(cr_id)}.json"

    def _load(self, cr_id: str) -> object:
        path = self.path_for(cr_id)
        if not path.exists():
            path = self.shared / path.name  # marks made before they were kept per account
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def _read(self, cr_id: str) -> dict[str, list[str]]:
        data = self._load(cr_id)
        revisions = data.get("revisions") if isinstance(data, dict) else None
        if not isinstance(revisions, dict):
            return {}
        return {
            str(rev): [p for p in pages if isinstance(p, str)]
            for rev, pages in revisions.items()
            if isinstance(pages, list)
        }

    def _times(self, cr_id: str) -> dict[str, float]:
        """When each revision's marks last changed (seconds since the epoch; files of older versions have none)."""
        data = self._load(cr_id)
        times = data.get("markedAt") if isinstance(data, dict) else None
        if not isinstance(times, dict):
            return {}
        return {str(r): float(t) for r, t in times.items() if isinstance(t, int | float) and not isinstance(t, bool)}

    def _write(self, cr_id: str, revisions: dict[str, list[str]], *, touched: str | None = None) -> None:
        target = self.path_for(cr_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        kept = dict(list(revisions.items())[-KEEP_REVISIONS:])
        times = self._times(cr_id)
        if touched is not None:
            times[touched] = time.time()
        fd, temp = tempfile.mkstemp(prefix=".viewed-", suffix=".json", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                marked = {rev: times[rev] for rev in kept if rev in times}
                json.dump({"changeRequest": cr_id, "revisions": kept, "markedAt": marked}, handle, indent=1)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def viewed(self, cr_id: str, revision: str) -> set[str]:
        """The page ids marked viewed in this revision of the change request."""
        return set(self._read(cr_id).get(revision, []))

    def set_viewed(self, cr_id: str, revision: str, page_id: str, viewed: bool = True) -> set[str]:
        """Mark (or unmark) one page; returns the revision's marks after the change."""
        revisions = self._read(cr_id)
        marks = dict.fromkeys(revisions.pop(revision, []))
        if viewed:
            marks[page_id] = None
        else:
            marks.pop(page_id, None)
        revisions[revision] = list(marks)  # re-inserted last: the most recently used revision is kept longest
        self._write(cr_id, revisions, touched=revision)
        return set(marks)

    def last_marked(self, cr_id: str, *, other_than: str | None = None) -> tuple[str, float | None] | None:
        """The revision whose marks the reviewer set last (other than ``other_than``: the current one) with when
        they did (None: marked by an older Folio that kept no time), or None when no other revision has marks.
        Marks only carried over (:meth:`carry`) carry no time: a revision the reviewer marked is preferred."""
        times = self._times(cr_id)
        untimed: tuple[str, float | None] | None = None
        for revision, pages in reversed(self._read(cr_id).items()):
            if revision == other_than or not pages:
                continue
            if revision in times:
                return revision, times[revision]
            untimed = untimed or (revision, None)
        return untimed

    def carry(self, cr_id: str, revision: str, page_ids: set[str]) -> set[str]:
        """Add marks to ``revision`` for ``page_ids`` (pages viewed in an earlier revision and untouched since),
        without making it the most recently marked revision; returns the revision's marks after."""
        revisions = self._read(cr_id)
        marks = dict.fromkeys(revisions.get(revision, []))
        added = [p for p in page_ids if p not in marks]
        if not added:
            return set(marks)
        marks.update(dict.fromkeys(sorted(added)))
        revisions[revision] = list(marks)
        self._write(cr_id, revisions)
        return set(marks)

    def toggle(self, cr_id: str, revision: str, page_id: str) -> bool:
        """Flip a page's mark; True when it is now viewed."""
        now = page_id not in self.viewed(cr_id, revision)
        self.set_viewed(cr_id, revision, page_id, now)
        return now


def _name(text: str) -> str:
    """A file name for an id (ids that are not plain letters and digits are hashed)."""
    return text if _SAFE_NAME.fullmatch(text) else hashlib.sha256(text.encode()).hexdigest()[:32]
