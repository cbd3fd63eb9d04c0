"""``@`` in a text field offers people to mention: the space's commenters and its organization's members, filtered
as one types (name or email), inserted as the markdown the service reads (``folio.services.review.mentions``).

Mixed into a screen that holds text fields (the forms base does it: every comment, reply and description)::

    class FormModal(ModalScreen[T | None], Mentions, Generic[T]): ...

An ``@`` at the start of a word in a text area (or in an ``Input`` with the class ``-mentions``) opens a list under
the cursor; typing narrows it, up/down choose, tab or enter inserts, esc closes it (the form stays open). The space
is the one of the nearest screen below that has a ``space_id``; with none, ``@`` is just a character.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from textual import events
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea
from textual.widgets.option_list import Option

from folio.services.errors import ServiceError
from folio.services.review.mentions import Person, markdown_of, pick
from folio.tui.safe import safe

if TYPE_CHECKING:
    from textual.screen import Screen

__all__ = ["MentionPopup", "Mentions", "typed_mention"]

TOKEN = re.compile(r"(?:^|(?<=[\s(]))@([^\s@\[\]()]{0,40})$")
"""An ``@`` at the start of a word, and what follows it up to the cursor."""
WIDTH = 52


def typed_mention(before_cursor: str) -> tuple[int, str] | None:
    """Where the ``@`` being typed is (its column) and the text after it, if the cursor is in a mention."""
    found = TOKEN.search(before_cursor)
    return (found.start(), found.group(1)) if found else None


class MentionPopup(OptionList, can_focus=False):
    """The list of people under the cursor (it never takes the focus: the text field keeps it)."""

    DEFAULT_CSS = f"""
    MentionPopup {{ overlay: screen; position: absolute; width: {WIDTH}; height: auto; max-height: 10;
                    border: round $accent; background: $surface; padding: 0; display: none; }}
    """


class Mentions:
    """The ``@`` completer of a screen's text fields (see the module docstring)."""

    _mention_at: tuple[Widget, int, int, str] | None = None
    """The field, the row and column of the ``@``, and what was typed after it (None: no list open)."""
    _mention_people: list[Person] | None = None
    _mention_loading = False
    _mention_shown: list[Person] = []  # replaced whole, never changed in place
    _mention_closed: tuple[int, int, int] | None = None
    """The ``@`` esc closed the list on (field id, row, column): it stays closed while that mention is typed."""

    # -- what the screen is -------------------------------------------------------------------------------------

    def _mention_screen(self) -> Screen[Any]:
        return self  # type: ignore[return-value]

    def _mention_space(self) -> str | None:
        screen = self._mention_screen()
        for below in reversed(screen.app.screen_stack):
            space_id = getattr(below, "space_id", None)
            if isinstance(space_id, str) and space_id:
                return space_id
        return None

    def _mention_popup(self) -> MentionPopup:
        screen = self._mention_screen()
        found = screen.query(MentionPopup)
        if found:
            return found.first()
        popup = MentionPopup(id="mention-popup")
        screen.mount(popup)
        return popup

    # -- typing ------------------------------------------------------------------------------------------------

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._mention_typed(event.text_area)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.has_class("-mentions"):
            self._mention_typed(event.input)

    def _mention_typed(self, field: Widget) -> None:
        if self._mention_enter(field):
            return
        where = _before_cursor(field)
        found = typed_mention(where[2]) if where is not None else None
        space = self._mention_space() if found is not None else None
        if where is None or found is None or space is None:
            self._mention_close()
            return
        row, column = where[0], found[0]
        if self._mention_closed == (id(field), row, column):
            return
        self._mention_closed = None
        self._mention_at = (field, row, column, found[1])
        if self._mention_people is None and not self._mention_loading:
            self._mention_load(space)
        self._mention_show()

    def _mention_enter(self, field: Widget) -> bool:
        """Enter in a text area while the list is open: the newline it typed becomes the chosen mention."""
        at = self._mention_at
        if at is None or at[0] is not field or not isinstance(field, TextArea) or not self._mention_shown:
            return False
        row, column, typed = at[1], at[2], at[3]
        if field.cursor_location != (row + 1, 0) or field.document.get_line(row)[column:] != "@" + typed:
            return False
        self._mention_insert(end=(row + 1, 0))
        return True

    def _mention_load(self, space_id: str) -> None:
        screen = self._mention_screen()
        self._mention_loading = True

        async def load() -> None:
            try:
                self._mention_people = await screen.app.services.mentions.people(space_id)  # type: ignore[attr-defined]
            except ServiceError:
                self._mention_people = []
            finally:
                self._mention_loading = False
            self._mention_show()

        screen.run_worker(load(), group="mentions", exclusive=True, exit_on_error=False)

    # -- the list ----------------------------------------------------------------------------------------------

    def _mention_show(self) -> None:
        at = self._mention_at
        if at is None:
            return
        popup = self._mention_popup()
        popup.clear_options()
        people = self._mention_people
        if people is None:
            self._mention_shown = []
            popup.add_option(Option(Content("Looking up who can be mentioned\u2026"), disabled=True))
        else:
            self._mention_shown = pick(people, at[3])
            if not self._mention_shown:
                said = "Nobody to mention here." if not people else "Nobody by that name or email."
                popup.add_option(Option(Content(said), disabled=True))
            for person in self._mention_shown:
                parts: list[Content | tuple[str, str]] = [safe(person.label, limit=30)]
                if person.email and person.email != person.label:
                    parts.append((f"\u00a0\u00a0<{person.email}>", "$text-muted"))  # no-break: kept when drawn
                popup.add_option(Option(Content.assemble(*parts)))
            if self._mention_shown:
                popup.highlighted = 0
        self._mention_place(popup, at[0])
        popup.display = True

    def _mention_place(self, popup: MentionPopup, field: Widget) -> None:
        screen = self._mention_screen()
        cursor = getattr(field, "cursor_screen_offset", None)
        x, y = (cursor.x, cursor.y) if cursor is not None else (field.region.x, field.region.bottom)
        lines = min(10, popup.option_count + 2)
        x = max(0, min(x - 1, screen.size.width - WIDTH))
        y = y + 1 if y + 1 + lines <= screen.size.height else max(0, y - lines)
        popup.styles.offset = (x, y)

    def _mention_close(self) -> None:
        self._mention_at = None
        self._mention_shown = []
        screen = self._mention_screen()
        for popup in screen.query(MentionPopup):
            popup.display = False

    def _mention_insert(self, *, end: tuple[int, int] | None = None) -> None:
        at, popup = self._mention_at, self._mention_popup()
        index = popup.highlighted
        if at is None or index is None or not 0 <= index < len(self._mention_shown):
            return
        field, row, column, _ = at
        text = markdown_of(self._mention_shown[index]) + " "
        self._mention_close()
        if isinstance(field, TextArea):
            field.replace(text, (row, column), end if end is not None else field.cursor_location)
        elif isinstance(field, Input):
            value, cursor = field.value, field.cursor_position
            field.value = value[:column] + text + value[cursor:]
            field.cursor_position = column + len(text)

    # -- keys while the list is open ----------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        at = self._mention_at
        if at is None or not self._mention_popup().display:
            return
        popup = self._mention_popup()
        if event.key in ("down", "up"):
            if self._mention_shown:
                step = 1 if event.key == "down" else -1
                popup.highlighted = ((popup.highlighted or 0) + step) % len(self._mention_shown)
        elif event.key in ("tab", "enter"):
            if not self._mention_shown:
                return
            self._mention_insert()
        elif event.key == "escape":
            self._mention_closed = (id(at[0]), at[1], at[2])
            self._mention_close()
        else:
            return
        event.stop()
        event.prevent_default()


def _before_cursor(field: Widget) -> tuple[int, int, str] | None:
    """The cursor's row and column in ``field`` and the text of its line up to the cursor."""
    if isinstance(field, TextArea):
        row, column = field.cursor_location
        return row, column, field.document.get_line(row)[:column]
    if isinstance(field, Input):
        return 0, field.cursor_position, field.value[: field.cursor_position]
    return None
