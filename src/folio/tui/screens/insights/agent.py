"""The instructions every agent of an organization follows: shown as Markdown (made safe first), with who changed
them last and when; ``e`` edits them here (what is typed is kept as a draft until the service accepts it, through
a failed send and a dropped SSH session), ``E`` in ``$EDITOR``. They are sent as a document, one paragraph a line.

``:agent words`` finds the words in the instructions (one text, not a list: the words find, they filter nothing):
the line above them says how many times they occur and in which paragraphs (the phrase, or any of its words, in
any case), or that they do not. The session keeps the words; a reload or a save looks again.

Keys (binding ids ``agent.*``): e edit here, E edit in $EDITOR. Only admins change the instructions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Header, Static, TextArea

from folio.services import format
from folio.services.content.search import match_spans
from folio.services.errors import ServiceError
from folio.services.people.access import AgentView, instructions_markdown, is_plain_text, why_not_admin
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message, notify_error
from folio.tui.external_editor import edit_in_editor
from folio.tui.fresh import cache_first, is_cached_only
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.markdown_view import SafeMarkdown

if TYPE_CHECKING:
    from folio.models.organization import Organization
    from folio.services import Services

__all__ = ["AgentScreen", "find_words"]

AGENT = Route(
    kind="agent",
    noun="agent instructions",
    plural="agent instructions",
    screen="AgentScreen",
    verbs=("agent",),
    find="organization",
    key="A",
    label="Agent",
    hint="The docs assistant's instructions",
    order=50,
    summary="the instructions every agent of the organization follows",
)

CHANGE = "change the agent instructions"
EMPTY = "No instructions yet: agents follow their defaults. Press e to write some (E: in $EDITOR)."
FORMATTING = (
    "These instructions have formatting plain text does not keep (headings, lists): saving here sends them as "
    "paragraphs, one a line."
)


def find_words(text: str, words: str) -> str:
    """Where ``words`` are in the instructions ``text`` (a paragraph a line), in words: ``“tone”: 3 matches, in
    paragraphs 2 and 5 of 7.`` A match is the phrase or any of its words, in any case (as a search's)."""
    quoted = f"\u201c{safe(' '.join(words.split()), limit=80).plain}\u201d"
    paragraphs = [line for line in text.split("\n") if line.strip()]
    if not paragraphs:
        return f"{quoted}: no instructions to look in."
    found = {n: len(match_spans(p, words)) for n, p in enumerate(paragraphs, 1)}
    where = [str(n) for n, matches in found.items() if matches]
    if not where:
        return f"{quoted}: not in the instructions."
    listed = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
    noun = "paragraph" if len(where) == 1 else "paragraphs"
    matches = format.count(sum(found.values()), "match", "matches")
    return f"{quoted}: {matches}, in {noun} {listed} of {len(paragraphs)}."


class AgentScreen(FolioScreen):
    """``:agent [words]``: the agent instructions of organization ``org_id``; ``words``: found in them (how many
    times, in which paragraphs), said above them."""

    org_id: str

    ROUTE: ClassVar[str | None] = AGENT.kind
    CSS_PATH = [styles_dir() / "access.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit_here", "Edit", id="agent.edit", tooltip="Edit the instructions here (kept as a draft)"),
        Binding("E", "edit_in_editor", "$EDITOR", id="agent.editor", tooltip="Edit the instructions in $EDITOR"),
    ]

    def __init__(
        self, services: Services, org_id: str, *, words: str | None = None, trail: tuple[str, ...] = ()
    ) -> None:
        super().__init__(services, trail=trail)
        self.words = " ".join((words or "").split()) or None
        """The words looked for in the instructions (the session saves them)."""
        self.org_id = org_id
        self.crumb = "Agent instructions"
        self.org: Organization | None = None
        self.view: AgentView | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(Content("Loading the agent instructions…"), id="agent-meta", classes="access--summary")
        with VerticalScroll(id="agent-scroll"):
            yield SafeMarkdown(id="agent-text")
        yield Static(id="agent-note", classes="access--help")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._draw_sub_title()
        self.query_one("#agent-scroll").focus()
        self.load()

    @property
    def text(self) -> str:
        """The instructions as the editor holds them (empty before they are loaded)."""
        return self.view.text if self.view is not None else ""

    # -- loading -------------------------------------------------------------------------------------------------

    @work(exclusive=True, group="agent", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        meta = self.query_one("#agent-meta", Static)
        try:
            self.org = await self.services.access.organization(self.org_id)
            view = await self.services.access.instructions(self.org_id)
        except ServiceError as exc:
            if not is_cached_only():  # a first paint from the cache that missed paints nothing
                meta.update(
                    error_message(exc, doing="Could not load the agent instructions", hint="Press r to try again.")
                )
            return
        self.show(view)

    def show(self, view: AgentView) -> None:
        self.view = view
        current = view.instructions
        who = safe(view.updated_by, limit=80).plain if view.updated_by else "someone"
        changed = f"Last changed by {who}, {format.when(current.updated_at)}" if current.updated_at else ""
        role = "" if self.org is None or self.org.permissions.admin else " · read-only: only admins change them"
        found = "\n" + find_words(view.text, self.words) if self.words else ""
        self.query_one("#agent-meta", Static).update(Content(changed or "Never changed") + Content(role + found))
        self.query_one("#agent-text", SafeMarkdown).show(instructions_markdown(current) or EMPTY)
        note = "" if is_plain_text(current) else FORMATTING
        self.query_one("#agent-note", Static).update(Content(note))
        self.query_one("#agent-note", Static).display = bool(note)
        self.refresh_bindings()

    # -- editing -------------------------------------------------------------------------------------------------

    def why_not(self, action: str) -> str | None:
        if action in ("edit_here", "edit_in_editor"):
            if self.view is None:
                return "The instructions are still loading."
            return why_not_admin(self.org, CHANGE)
        return super().why_not(action)

    def action_edit_here(self, text: str | None = None) -> None:
        reason = self.why_not("edit_here")
        if reason:
            self.notify(reason, severity="warning", markup=False)
            return
        org_id = self.org_id

        async def submit(text: str) -> None:
            await self.services.access.save_instructions(org_id, text)

        async def find(text: str) -> object | None:
            return await self.services.access.find_instructions(org_id, text)

        def saved(text: str | None) -> None:
            if text is None:
                self.notify("The agent instructions were not changed.", markup=False)
                return
            self.notify("Agent instructions saved.", markup=False)
            self.load()

        title = "Agent instructions · one paragraph a line" + (" · " + FORMATTING if not self._plain() else "")
        modal = TextEntryModal(
            Content(title),
            submit,
            text=self.text,
            send_label="Save",
            draft=f"agent-instructions:{org_id}",
            where="the agent instructions of an organization",
            allow_empty=True,
            find_sent=find,
        )
        self.app.push_screen(modal, saved)
        if text is not None:  # text from $EDITOR the service refused: typed into the form, so kept as a draft

            def fill() -> None:
                area = modal.widget("text")
                if isinstance(area, TextArea):
                    area.load_text(text)

            modal.call_after_refresh(fill)

    def _plain(self) -> bool:
        return is_plain_text(self.view.instructions if self.view is not None else None)

    def action_edit_in_editor(self) -> None:
        reason = self.why_not("edit_in_editor")
        if reason:
            self.notify(reason, severity="warning", markup=False)
            return
        before = self.text
        try:
            text = edit_in_editor(self.app, before)
        except RuntimeError as exc:
            self.notify(f"Instructions not edited: {exc} Press e to edit them here.", severity="error", markup=False)
            return
        if text.rstrip("\n") == before.rstrip("\n"):
            self.notify("The instructions are unchanged; nothing was sent.", markup=False)
            return
        self._send(text)

    @work(exclusive=True, group="agent-send", exit_on_error=False)
    async def _send(self, text: str) -> None:
        try:
            await self.services.access.save_instructions(self.org_id, text)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not save the agent instructions")
            self.action_edit_here(text)  # the edited text is kept there, to send again
            return
        self.notify("Agent instructions saved.", markup=False)
        self.load()

    # -- what is selected ----------------------------------------------------------------------------------------

    def current_item(self) -> Item | None:
        return Item(self.org_id, None, "organization")

    def action_refresh(self) -> None:
        self.load()
