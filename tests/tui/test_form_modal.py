"""The base of the modal forms (``folio.tui.modals.form``), driven by keys at 80x24: a send of a form that breaks
a limit says what is wrong next to the send, puts the cursor in the bad field and keeps everything typed."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Input, Static

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.modals.content_forms import NewCollectionModal
from folio.tui.modals.form import Field
from folio.tui.screens.base import FolioScreen
from tests.tui.conftest import settle


class Home(FolioScreen):
    crumb = "Home"

    def compose(self) -> ComposeResult:
        yield Static("home")


class CollectionWithNote(NewCollectionModal):
    """The new collection form with a second field above the title (so the title is not where the cursor starts)."""

    FIELDS = (Field("note", "Note"), *NewCollectionModal.FIELDS)


def collections_named(state: SandboxState, title: str) -> list[dict[str, Any]]:
    return [c for c in state.collections.values() if c.get("title") == title]


async def test_ctrl_s_on_a_title_past_the_limit_says_why_focuses_it_and_keeps_what_was_typed(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    async with open_app(lambda: Home(services)) as (app, pilot):
        form = CollectionWithNote(services.collections, state.demo_org, None)
        await app.push_screen(form)
        await settle(pilot)
        title = "x" * 51
        await pilot.press(*"why", "tab", *title, "shift+tab")  # the cursor left the title
        assert form.focused is form.widget("note")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form  # not sent, not closed
        said = str(form.query_one(".form--problem", Static).render())
        assert said == "Not sent: fix Title (see above). What you typed is kept."
        assert "At most 50 characters: this title has 51." in form.problem_text
        assert form.focused is form.widget("title")  # the cursor is in the field to fix
        assert form.values() == {"note": "why", "title": title}
        line = form.query_one(".form--problem", Static)
        assert line.region.height >= 1 and line.region.bottom <= 24  # on screen at 80x24
        assert not collections_named(state, title)
        await pilot.press("backspace", "ctrl+s")  # fixed: it goes
        await settle(pilot)
        assert app.screen is not form, form.problem_text
        assert len(collections_named(state, "x" * 50)) == 1


async def test_ctrl_s_on_an_empty_form_says_a_title_is_needed(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    async with open_app(lambda: Home(services)) as (app, pilot):
        form = NewCollectionModal(services.collections, state.demo_org, None)
        await app.push_screen(form)
        await settle(pilot)
        assert isinstance(form.focused, Input)
        await pilot.press("ctrl+s")  # empty: a title is needed
        await settle(pilot)
        assert "fix Title" in str(form.query_one(".form--problem", Static).render())
        assert "needs a title" in form.problem_text


async def test_the_refusal_goes_once_the_field_is_fixed(open_app: Any, services: Services, state: SandboxState) -> None:
    async with open_app(lambda: Home(services)) as (app, pilot):
        form = NewCollectionModal(services.collections, state.demo_org, None)
        await app.push_screen(form)
        await settle(pilot)
        await pilot.press(*("y" * 51), "ctrl+s")
        await settle(pilot)
        assert "Not sent: fix Title" in form.problem_text
        await pilot.press("backspace")
        await settle(pilot)
        assert form.problem_text == "" and form.values()["title"] == "y" * 50
