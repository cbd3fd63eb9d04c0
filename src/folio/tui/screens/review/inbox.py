"""``:inbox``: the change requests awaiting your review, and yours, across every organization of the profile, in
sections (gh-dash style), one tab each.

The sections come from ``[[inbox.sections]]`` of config.toml (``folio.config.inbox``: a title and a filter in
words), else "Needs my review" (``awaiting-me``) and "Mine" (``mine``). Keys 1 to 9 show a section; in a section
the keys of an organization's inbox (``folio.tui.widgets.change_request_inbox``) change its filter: s the status,
a awaiting me, m mine, u outdated; / filters the rows, enter opens the change request, r reloads the section. A
config that cannot be read is said above the sections, and the default sections are shown.

    [[inbox.sections]]
    title = "Needs my review"
    filter = "awaiting-me"
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Header, Input, Static, TabbedContent, TabPane

from folio.config.inbox import DEFAULT_SECTIONS, InboxSection, inbox_settings
from folio.config.settings import Settings, SettingsError
from folio.services.browse import InboxFilter
from folio.services.errors import ServiceError
from folio.services.review.inbox_watch import inbox_pages, space_titles
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.change_request_inbox import ChangeRequestInbox
from folio.tui.widgets.footer import KeysFooter

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequestSummary
    from folio.services import Services

__all__ = ["InboxScreen", "SectionInbox"]

INBOX = Route(
    kind="inbox",
    noun="inbox",
    plural="inboxes",
    screen="InboxScreen",
    verbs=("inbox",),
    find="none",
    go_to=False,
    order=5,
    summary="the change requests awaiting your review, and yours, across every organization, in sections "
    "([[inbox.sections]] of config.toml)",
)
PAGE_LIMIT = 100
"""Change requests per request: an inbox of one person is short, and each organization is asked in turn."""


class SectionInbox(ChangeRequestInbox):
    """An organization's inbox made to read every organization of the account, starting with ``section``'s filter
    (its keys change it as they do in an organization); the spaces are named once the rows are in."""

    LOAD_ON_MOUNT = True
    LOAD_ON_SHOW = True  # a section is read the first time it is shown

    def __init__(self, services: Services, section: InboxSection, *, id: str | None = None) -> None:
        super().__init__(services, "", id=id)
        self.section = section
        self.inbox = InboxFilter(section.status, section.awaiting_me, section.mine, section.outdated)
        self._orgs: set[str] = set()

    def empty_text(self) -> str:
        return f"Nothing in “{self.section.title}”: no change request is {self.inbox.describe()} in any organization."

    async def fetch(self) -> AsyncIterator[Sequence[ChangeRequestSummary]]:
        self._orgs = set()
        async for page in inbox_pages(self.services, self.inbox, limit=PAGE_LIMIT, orgs=self._orgs):
            yield page

    def loaded(self, items: list[ChangeRequestSummary], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        if not {cr.space for cr in items} <= set(self.space_titles):
            self._name_spaces(set(self._orgs))

    @work(exclusive=True, group="inbox-spaces", exit_on_error=False, description="name the spaces of the inbox")
    async def _name_spaces(self, orgs: set[str]) -> None:
        try:
            titles = await space_titles(self.services, orgs)
        except ServiceError:
            return  # the rows keep the spaces' ids: nothing else is missing
        if self.is_attached:
            self.set_space_titles({**self.space_titles, **titles})


class InboxScreen(FolioScreen):
    """The sections of ``[[inbox.sections]]``, one tab each."""

    ROUTE: ClassVar[str | None] = INBOX.kind
    CSS_PATH = [styles_dir() / "organization.tcss", styles_dir() / "inbox.tcss"]
    AUTO_FOCUS = "ResourceList"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(n), f"show_section({n})", f"Section {n}", show=False, priority=True, id=f"inbox.section-{n}",
                tooltip=f"Show section {n} of the inbox")
        for n in range(1, 10)
    ]  # fmt: skip

    def __init__(self, services: Services, *, trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, trail=trail)
        self.crumb = "Inbox"
        self.problem: str | None = None
        """Why the sections of config.toml could not be used (the defaults are shown)."""
        try:
            self.sections = inbox_settings(Settings.load()).sections
        except SettingsError as exc:
            self.sections, self.problem = DEFAULT_SECTIONS, f"{exc} The default sections are shown."

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        if self.problem:
            yield Static(Content(self.problem), id="inbox-problem")
        with TabbedContent(id="inbox-sections", initial="section-1"):
            for n, section in enumerate(self.sections, 1):
                with TabPane(Content(f"{n} {section.title}"), id=f"section-{n}"):
                    yield SectionInbox(self.services, section, id=f"inbox-section-{n}")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._draw_sub_title()

    @property
    def section(self) -> SectionInbox:
        """The section shown."""
        active = self.query_one(TabbedContent).active
        return self.query_one(f"#inbox-{active}", SectionInbox)

    def _typing(self) -> bool:
        """A filter is being typed (its box, or the keys going to it from the list): digits are text then."""
        focused = self.focused
        if focused is None or isinstance(focused, Input):
            return focused is not None
        return any(node.has_class("-typing") for node in focused.ancestors_with_self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_section" and self._typing():
            return False  # the key is text for the filter: it goes on to the list
        return super().check_action(action, parameters)

    def action_show_section(self, number: int) -> None:
        if number > len(self.sections):
            count = len(self.sections)
            self.notify(
                f"The inbox has {count} section{'s' if count != 1 else ''} (keys 1 to {count}); "
                "[[inbox.sections]] in config.toml adds more.",
                timeout=4,
                markup=False,
            )
            return
        self.query_one(TabbedContent).active = f"section-{number}"

    @on(TabbedContent.TabActivated)
    def _section_shown(self, event: TabbedContent.TabActivated) -> None:
        inbox = self.section
        self.set_focus(inbox.browser.list)
        inbox.call_after_refresh(inbox.read_verdicts)
        self.refresh_bindings()

    def current_item(self) -> Item | None:
        return self.section.current_item()

    def action_refresh(self) -> None:
        inbox = self.section
        inbox.forget_verdicts()
        inbox.reload()
