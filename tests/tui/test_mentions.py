"""``@`` in a comment's text: the space's commenters and members are offered, narrowed as one types (name or
email), and the chosen one is inserted as the mention's markdown, which the sandbox then holds in the comment."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import TextArea

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.comments_panel import PagePickerModal
from folio.tui.widgets.mentions import MentionPopup, typed_mention

SIZE = (100, 30)
LINUX = "Clarify Linux install steps"


async def settle(pilot: Pilot[None]) -> None:
    app = pilot.app
    for _ in range(500):
        await pilot.pause()
        asking = isinstance(app.screen, ModalScreen)
        if not [w for w in app.workers if w.is_running and not (asking and w.group == "comments-panel-new")]:
            break
    await pilot.pause()


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*[{" ": "space", "@": "at"}.get(ch, ch) for ch in text])
    await settle(pilot)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["displayName"] == name)


def offered(app: Any) -> list[str]:
    popup = app.screen.query_one(MentionPopup)
    if not popup.display:
        return []
    return [str(popup.get_option_at_index(i).prompt).split("\u00a0")[0] for i in range(popup.option_count)]


async def open_comment_box(pilot: Pilot[None]) -> TextArea:
    for key in ("3", "c", "enter"):
        await pilot.press(key)
        await settle(pilot)
        if key == "c":
            assert isinstance(pilot.app.screen, PagePickerModal)
    assert isinstance(pilot.app.screen, TextEntryModal)
    return pilot.app.screen.query_one(TextArea)


def opener(services: Services, state: SandboxState) -> Any:
    record = next(c for c in state.change_requests.values() if c["subject"] == LINUX)
    return lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=("Northwind Labs",))


def test_a_mention_is_typed_at_the_start_of_a_word() -> None:
    assert typed_mention("Thanks @da") == (7, "da")
    assert typed_mention("@") == (0, "")
    assert typed_mention("(@hana") == (1, "hana")
    assert typed_mention("mail ada@northwind.dev") is None  # an address, not a mention
    assert typed_mention("@ada done") is None


async def test_at_offers_people_narrows_and_inserts_the_mention(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    dana = user(state, "Dana Moreau")
    async with open_app(opener(services, state), size=SIZE) as (app, pilot):
        area = await open_comment_box(pilot)
        await type_text(pilot, "Thanks @")
        everyone = offered(app)
        assert len(everyone) == 8 and "Dana Moreau" in everyone[:4]  # the space's commenters first
        await type_text(pilot, "mor")
        assert offered(app) == ["Dana Moreau"]
        await pilot.press("tab")
        await settle(pilot)
        assert area.text == f"Thanks [@Dana Moreau](user:{dana}) "
        assert offered(app) == [] and area.has_focus  # the list is gone, the text keeps the focus
        await type_text(pilot, "and @contractor")  # by email
        assert offered(app) == ["Kofi Mensah"]
        await pilot.press("escape")  # closes the list, not the form
        await settle(pilot)
        assert offered(app) == [] and isinstance(app.screen, TextEntryModal)
        await pilot.press("backspace", "r")  # still the same mention: the list stays closed
        await settle(pilot)
        assert offered(app) == []
        await type_text(pilot, " @hana")
        await pilot.press("enter")  # enter inserts too (no new line)
        await settle(pilot)
        hana = user(state, "Hana Sato")
        assert area.text == f"Thanks [@Dana Moreau](user:{dana}) and @contractor [@Hana Sato](user:{hana}) "
        await pilot.press("ctrl+s")
        await settle(pilot)
        sent = [c for c in state.comments.values() if c["body"].startswith("Thanks [@Dana")]
        assert len(sent) == 1 and f"(user:{dana})" in sent[0]["body"] and f"(user:{hana})" in sent[0]["body"]
