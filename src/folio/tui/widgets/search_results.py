"""The pieces of the search screens (``folio.tui.screens.content.search``): the query box with its history, the rows of
results (a space, its pages, each page's matching sections, a row that loads more) and text from the server
with the searched words highlighted (spans added to plain text: nothing from the server is read as markup).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import Input

from folio.services import format
from folio.services.content.search import PageHit, SectionHit, SpaceHits, match_spans
from folio.tui.safe import safe
from folio.tui.screens.base import CRUMB
from folio.tui.widgets.resource_list import Column, Row

__all__ = ["COLUMNS", "HIGHLIGHT", "MORE", "QueryBox", "Target", "highlighted", "result_rows"]

HIGHLIGHT = "bold underline $text-accent"
"""How the searched words look where they are found."""
MORE = "more"
"""The key (and kind) of the last row while more results can be loaded."""
COLUMNS = (Column("result", "Result"), Column("where", "Where", 22))


@dataclass(frozen=True)
class Target:
    """What a result row is, and so what ``enter`` opens."""

    kind: Literal["space", "page", "section", "more"]
    space_id: str = ""
    space_title: str = ""
    page: PageHit | None = None
    section: SectionHit | None = None


def highlighted(text: str, words: str, *, limit: int = 2000, style: str = "") -> Content:
    """``text`` from the server made safe, with ``words`` highlighted where they occur in what is shown."""
    content = safe(text, limit=limit)
    if style:
        content = content.stylize(style)
    for start, end in match_spans(content.plain, words):
        content = content.stylize(HIGHLIGHT, start, end)
    return content


def result_rows(groups: list[SpaceHits], *, with_spaces: bool, more: bool) -> list[Row]:
    """A space's row (when the results span spaces), each page under it, each matching section under its page;
    a last row that loads the next page when there is one."""
    rows: list[Row] = []
    depth = 1 if with_spaces else 0
    for group in groups:
        if with_spaces:
            rows.append(
                Row(
                    f"space:{group.id}",
                    [safe(group.title or group.id, limit=200), format.count(len(group.pages), "page")],
                    style="bold",
                    data=Target("space", group.id, group.title),
                )
            )
        for page in group.pages:
            where = f" {CRUMB} ".join(page.ancestors)  # empty for a page at the top of its space
            rows.append(
                Row(
                    f"page:{group.id}/{page.id}",
                    [safe(page.title or page.path or page.id, limit=200), safe(where, limit=200)],
                    indent=depth,
                    data=Target("page", group.id, group.title, page),
                )
            )
            for section in page.sections:
                text = f"{section.title} — {section.body}" if section.body else section.title
                rows.append(
                    Row(
                        f"section:{group.id}/{page.id}/{section.id}",
                        [safe(text, limit=300), safe(f"#{section.anchor}" if section.anchor else "", limit=200)],
                        style="dim",
                        indent=depth + 1,
                        data=Target("section", group.id, group.title, page, section),
                    )
                )
    if more:
        rows.append(Row(MORE, ["More results… (enter, or reach this row)", ""], style="italic", data=Target("more")))
    return rows


class QueryBox(Input):
    """The words searched for: ``up``/``down`` recall earlier searches (as the command line does); ``down`` past
    the newest goes to the results."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "history(-1)", "Earlier", show=False, id="search.earlier", tooltip="The search before"),
        Binding("down", "history(1)", "Later", show=False, id="search.later",
                tooltip="The search after (past the newest: the results)"),
    ]  # fmt: skip

    @dataclass
    class Leave(Message):
        """``down`` past the newest search: the user is done typing (the screen moves to the results)."""

        box: QueryBox

        @property
        def control(self) -> QueryBox:
            return self.box

    def __init__(self, value: str, history: list[str], *, id: str | None = None) -> None:
        super().__init__(value, placeholder="Words to look for (up: earlier searches)", id=id, compact=True)
        self.history = history
        """Earlier searches of the organization, oldest first (the service's list: it outlives the screen)."""
        self._recall = len(history)

    def action_history(self, step: int) -> None:
        if step > 0 and self._recall >= len(self.history):
            self.post_message(self.Leave(self))
            return
        if not self.history:
            return
        self._recall = max(0, min(len(self.history), self._recall + step))
        self.value = self.history[self._recall] if self._recall < len(self.history) else ""
        self.cursor_position = len(self.value)

    def reset_recall(self) -> None:
        self._recall = len(self.history)
