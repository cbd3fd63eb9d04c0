"""The decisions of the change request screen, apart from its loading and its tabs: review, merge, update from
main, status, subject and description (here or in ``$EDITOR``), the PDF link. Each asks first where it cannot be
undone, then ends in a message saying what happened (or what failed) and reloads the screen.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App
from textual.content import Content

from folio.services.errors import ServiceError
from folio.services.review.review import next_status, subject_problem
from folio.tui.clipboard import copy
from folio.tui.errors import notify_error
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.review import ReviewModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen
from folio.tui.screens.review.change_request_review import review_extras

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.services.review.review import Overview

__all__ = ["Decisions", "edit_in_editor"]


def edit_in_editor(app: App[Any], text: str) -> str:
    """Hand the terminal to ``$EDITOR`` (else ``$VISUAL``, else vi) on a temporary file holding ``text``; the
    file's text when the editor quits. Raises RuntimeError (in words) when the editor cannot run or fails."""
    command = shlex.split(os.environ.get("EDITOR") or os.environ.get("VISUAL") or "vi")
    with tempfile.NamedTemporaryFile("w", suffix=".md", prefix="folio-", delete=False, encoding="utf-8") as handle:
        handle.write(text)
    try:
        try:
            with app.suspend():
                status = subprocess.run([*command, handle.name], check=False).returncode
        except FileNotFoundError:
            raise RuntimeError(f"The editor {command[0]!r} was not found; set EDITOR.") from None
        except Exception as exc:  # SuspendNotSupported and kin: the terminal cannot be handed over here
            raise RuntimeError(f"This terminal cannot be handed to an editor here ({type(exc).__name__}).") from None
        if status != 0:
            raise RuntimeError(f"The editor {command[0]!r} exited with status {status}.")
        return Path(handle.name).read_text(encoding="utf-8")
    finally:
        Path(handle.name).unlink(missing_ok=True)


STATUS_VERBS = {"archived": "Archive", "open": "Open it", "draft": "Make it a draft"}
"""The confirm button of a status change says what it does, not the status it ends in (#14.18)."""


class Decisions(FolioScreen):
    """The change request screen's decisions (``ChangeRequestScreen`` loads and shows what they act on)."""

    space_id: str
    cr: ChangeRequest | None
    overview: Overview | None
    review_draft: str

    def load(self) -> object:
        """Load the change request again (the screen's worker)."""
        raise NotImplementedError

    def _label_of(self, cr: ChangeRequest) -> Content:
        return Content.assemble((f"#{cr.number} ", "bold"), safe(cr.subject or "Untitled", limit=80))

    def _done(self, message: str, *, warning: bool = False) -> None:
        self.notify(message, markup=False, severity="warning" if warning else "information")
        self.load()

    def action_review(self) -> None:
        if (cr := self.cr) is None:
            return

        held: list[int] = []

        async def submit(status: str, comment: str) -> None:
            held.append((await self.services.pending_review.send(self.space_id, cr.id)).done)  # first, in order
            await self.services.review.submit(self.space_id, cr.id, status, comment)  # type: ignore[arg-type]

        async def find(status: str, since: datetime) -> object | None:
            return await self.services.review.find_review(self.space_id, cr.id, status, since)  # type: ignore[arg-type]

        def keep(comment: str) -> None:
            self.review_draft = comment

        def sent(status: str | None) -> None:
            if status is not None:
                self.review_draft = ""
                said = "Approved" if status == "approved" else "Asked for changes on"
                n = sum(held)
                self._done(f"{said} #{cr.number}" + (f" with {n} comment{'s' if n != 1 else ''}." if n else "."))

        title = Content.assemble("Review ", self._label_of(cr))
        modal = ReviewModal(
            title,
            submit,
            comment=self.review_draft,
            keep=keep,
            find=find,
            draft=f"review:{self.space_id}/{cr.id}",
            where=f"your review of #{cr.number}",
            **review_extras(self, self.space_id, cr),  # the pending review's comments; what approving waits for
        )
        self.app.push_screen(modal, sent)

    async def _confirm(self, title: Content, body: str, label: str) -> bool:
        modal = ConfirmModal(title, body, accept_key="y", accept_label=label)
        answer: bool | None = await self.app.push_screen_wait(modal)
        return answer is True

    @work(exclusive=True, group="change-request-decide", exit_on_error=False)
    async def _decide(
        self, question: Content, body: str, label: str, send: Callable[[], Awaitable[tuple[str, bool]]], doing: str
    ) -> None:
        """Ask (accept key y), send, then say what happened (a warning when the service reports conflicts)."""
        if not await self._confirm(question, body, label):
            return
        try:
            said, warning = await send()
        except ServiceError as exc:
            notify_error(self, exc, doing=doing)
            return
        self._done(said, warning=warning)

    def action_merge(self) -> None:
        if (cr := self.cr) is not None:
            self._merge(cr)

    @work(exclusive=True, group="change-request-merge", exit_on_error=False)
    async def _merge(self, cr: ChangeRequest) -> None:
        """The pre-flight checklist first (``modals.preflight``: a failing line asks to type the merge); a line's
        fix key runs that fix instead. The service's refusal is said in words."""
        from folio.tui.modals.preflight import FIX_ACTIONS, ask_before_merge

        choice = await ask_before_merge(self.app, self.services.preflight, self.space_id, cr)
        if choice is None:
            return
        if choice != "merge":
            await self.run_action(FIX_ACTIONS[choice])
            return
        try:
            result = await self.services.review.merge(self.space_id, cr.id)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not merge #{cr.number}")
            return
        if result.conflicts:
            self._done(f"#{cr.number} has conflicts with main: resolve them on GitBook, then merge.", warning=True)
        else:
            self._done(f"Merged #{cr.number} into main (revision {result.revision}).")

    def action_update_from_main(self) -> None:
        if (cr := self.cr) is None:
            return

        async def send() -> tuple[str, bool]:
            result = await self.services.review.update_from_main(self.space_id, cr.id)
            if result.conflicts:
                return f"Updating #{cr.number} from main ran into conflicts: resolve them on GitBook.", True
            return f"Updated #{cr.number} from main (revision {result.revision}).", False

        question = Content.assemble("Update ", self._label_of(cr), " from main?")
        body = "Main's changes since it began are brought in; its own edits win."
        self._decide(question, body, "Update", send, f"Could not update #{cr.number} from main")

    def action_cycle_status(self) -> None:
        if (cr := self.cr) is None or (target := next_status(cr.status)) is None:
            return

        async def send() -> tuple[str, bool]:
            await self.services.review.set_status(self.space_id, cr.id, target)
            return f"#{cr.number} is now {target}.", False

        question = Content.assemble("Change ", self._label_of(cr), f" from {cr.status} to {target}?")
        verb = STATUS_VERBS.get(target, f"Make it {target}")
        self._decide(question, "", verb, send, f"Could not make #{cr.number} {target}")

    def action_ask_reviewers(self) -> None:
        """``a``: pick members and ask them to review (a service without review requests says so)."""
        from folio.tui.modals.change_request_forms import ask_for_reviewers

        if (cr := self.cr) is not None:
            ask_for_reviewers(self, self.services, self.space_id, cr.id, then=self.action_refresh)

    def action_withdraw_reviewer(self) -> None:
        """``A``: pick one of those asked to review; they are no longer asked."""
        from folio.tui.screens.review.change_request_reviewers import withdraw_reviewer

        if self.overview is not None:
            withdraw_reviewer(self, self.services, self.space_id, self.overview, then=self.load)

    def action_pdf(self) -> None:
        self._pdf()

    @work(exclusive=True, group="change-request-pdf", exit_on_error=False)
    async def _pdf(self) -> None:
        if (cr := self.cr) is None:
            return
        try:
            url = await self.services.review.pdf_url(self.space_id, cr.id)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not get the PDF link")
            return
        copy(self.app, url, what="PDF link (valid for an hour)", url=True)

    def action_edit_subject(self) -> None:
        if (cr := self.cr) is None:
            return

        async def submit(text: str) -> None:
            await self.services.review.rename(self.space_id, cr.id, text.strip())

        def saved(text: str | None) -> None:
            if text is not None:
                self._done(f"Subject of #{cr.number} saved.")

        modal = TextEntryModal(
            Content.assemble("Subject of ", self._label_of(cr)),
            submit,
            text=cr.subject,
            multiline=False,
            check=subject_problem,
            send_label="Save",
            draft=f"subject:{self.space_id}/{cr.id}",
            where=f"the subject of #{cr.number}",
        )
        self.app.push_screen(modal, saved)

    def _description(self) -> str:
        cr = self.cr
        return cr.description.plain_text() if cr is not None and cr.description else ""

    def action_edit_description(self) -> None:
        self._describe_in_modal(self._description())

    def _describe_in_modal(self, text: str) -> None:
        if (cr := self.cr) is None:
            return

        async def submit(text: str) -> None:
            await self.services.review.describe(self.space_id, cr.id, text)

        def saved(text: str | None) -> None:
            if text is not None:
                self._done(f"Description of #{cr.number} saved.")

        title = Content.assemble("Description of ", self._label_of(cr))
        modal = TextEntryModal(
            title,
            submit,
            text=text,
            send_label="Save",
            draft=f"description:{self.space_id}/{cr.id}",
            where=f"the description of #{cr.number}",
        )
        self.app.push_screen(modal, saved)

    def action_edit_in_editor(self) -> None:
        if self.cr is None:
            return
        before = self._description()
        try:
            text = edit_in_editor(self.app, before)
        except RuntimeError as exc:
            self.notify(f"Description not edited: {exc} Press d to edit it here.", severity="error", markup=False)
            return
        if text.strip() == before.strip():
            self.notify("The description is unchanged; nothing was sent.", markup=False)
            return
        self._send_description(text)

    @work(exclusive=True, group="change-request-decide", exit_on_error=False)
    async def _send_description(self, text: str) -> None:
        if (cr := self.cr) is None:
            return
        try:
            await self.services.review.describe(self.space_id, cr.id, text)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not save the description")
            self._describe_in_modal(text)  # the edited text is kept there, to send again
            return
        self._done(f"Description of #{cr.number} saved.")
