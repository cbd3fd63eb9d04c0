"""Asks for text (a comment, a reply, a subject, a description) and sends it, keeping it when sending fails: a
:class:`~folio.tui.modals.form.FormModal` of one field.

``submit(text)`` sends; ``check(text)`` (optional) says what breaks a limit of the spec, as the user types; an
empty text is refused before sending ("Write something first"). With a ``draft`` key every change is saved as a
draft as it is typed, the draft comes back when the same entry is opened again, and it is removed only once the
service accepted the text; esc keeps it. ``find_sent(text)`` (optional) looks for a write whose answer was lost.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from textual.content import Content

from folio.tui.modals.form import NOT_CHECKED, Field, FormModal

__all__ = ["TextEntryModal"]


class TextEntryModal(FormModal[str]):
    """``push_screen(TextEntryModal("Reply to Ada", submit, draft=key))``; dismissed with the text sent, or None."""

    DEFAULT_CSS = """
    TextEntryModal .form--row > .form--label { display: none; }
    TextEntryModal .form--field-problem { padding-left: 0; }
    """

    def __init__(
        self,
        title: Content | str,
        submit: Callable[[str], Awaitable[object]],
        *,
        text: str = "",
        multiline: bool = True,
        check: Callable[[str], str | None] | None = None,
        send_label: str = "Send",
        draft: str | None = None,
        where: str = "",
        allow_empty: bool = False,
        find_sent: Callable[[str], Awaitable[object | None]] | None = None,
    ) -> None:
        self.multiline = multiline
        self._submit = submit
        self._check = check
        self._find = find_sent
        self.allow_empty = allow_empty
        self.send_label = send_label
        super().__init__(values={"text": text}, draft=draft, where=where, title=title)

    def fields(self) -> Sequence[Field]:
        return (Field("text", "Text", kind="text" if self.multiline else "input", height=12),)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#send").label = Content(self.send_label)  # type: ignore[attr-defined]

    @property
    def text(self) -> str:
        return str(self.values()["text"])

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        text = str(values.get("text") or "")
        if not text.strip() and not self.allow_empty:
            return {"text": "Write something first."}
        problem = self._check(text) if self._check else None
        return {"text": problem} if problem else {}

    async def submit(self, values: Mapping[str, Any]) -> str:
        text = str(values["text"])
        await self._submit(text)
        return text

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        if self._find is None:
            return NOT_CHECKED
        found = await self._find(str(values["text"]))
        return str(values["text"]) if found is not None else None
