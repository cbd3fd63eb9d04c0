"""A page's markdown edited in ``$EDITOR`` and sent into a change request, from any screen (``E`` on a page; the
review's suggest keys).

    sent = await edit_page(screen, space_id, page_id, change_request=cr_id, line=12)   # in a worker
    sent = await suggest(screen, space_id, page_id, cr, line=12, reply_to=comment_id)   # from a diff or a thread

The flow: the page is read (``services.writing.open``); a draft kept from an earlier edit is offered; the terminal
is handed to the editor (at ``line`` where it takes one); an unchanged text sends nothing; otherwise the send dialog
shows the diff and asks where it goes (``PageSendModal``: this change request, a new one, one of yours). The edited
text is a draft until the service has it: a failed send shows the error in the dialog, esc closes it, and the
next ``E`` on the page offers the draft again. A colleague's revision met before sending (``MovedOn``) is shown
beside yours (``MovedOnModal``): ``f`` sends anyway, ``r`` rebases.

Rebase: the page is read again where the edit goes (their text, at the revision now), your changes (the text you
read → yours) are made on their text line by line (``folio.services.review.rebase``), places both changed are
marked ``<<<<<<< yours`` / ``=======`` / ``>>>>>>> theirs``, and the editor opens on that; the send dialog refuses
a text that still holds marks. The result is kept as the draft of the page read again.

Suggest (from a review): into the change request when it is draft or open; otherwise into a new change request
of the same space, titled ``Suggestion for #N: <page title>``; from a thread, a reply then links it
(``Suggested in change request #M: <url>``). The screen's data is reloaded after a send (``action_refresh``).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.content import Content

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.review.comments import Queued
from folio.services.review.rebase import rebase
from folio.services.review.writing import MovedOn, NothingChanged, same_text
from folio.services.writes import may_have_reached
from folio.tui.errors import error_message, notify_error
from folio.tui.external_editor import edit_in_editor
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.page_edit import Destination, MovedOnModal, PageSendModal, SendChoice
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.models.change_request import ChangeRequest
    from folio.services import Services
    from folio.services.review.writing import EditedPage, Sent, WritingService

__all__ = ["Line", "edit_page", "suggest"]

Line = int | Callable[["EditedPage"], Awaitable[int | None]] | None
"""Where the editor opens: a line of the page's markdown (1-based), or how to find it once the page is read."""
NOT_SENT = "Not sent: your edit is kept as a draft (E on the page offers it again)."
NOTHING = "Nothing changed: nothing was sent."


def _services(screen: Screen[Any]) -> Services:
    if not isinstance(screen, FolioScreen):
        raise TypeError(f"a page is edited from one of Folio's screens, not {type(screen).__name__}")
    return screen.services


async def edit_page(
    screen: Screen[Any],
    space_id: str,
    page_id: str,
    *,
    change_request: str | int | None = None,
    line: Line = None,
    subject: str | Callable[[EditedPage], str] | None = None,
    closed: str | None = None,
) -> Sent | None:
    """Edit the page (read from ``change_request``, else the space's main content) in ``$EDITOR`` and send it
    where the user chooses; the :class:`Sent` once the service has it, None otherwise (said on the screen).
    ``subject`` prefills a new change request's subject (default ``Edit <title>``); ``closed`` says why the change
    request read from cannot take the edit (the dialog then offers a new one first). Run it in a worker."""
    writing = _services(screen).writing
    screen.notify("Reading the page…", markup=False, timeout=2)
    try:
        page = await writing.open(space_id, page_id, change_request=change_request)
    except ServiceError as exc:
        notify_error(screen, exc, doing="Could not open the page for editing")
        return None
    origin = page
    text = page.markdown
    continued = False
    draft = writing.draft(page)
    if draft is not None and not same_text(draft.text, draft.base):
        when = format.ago(datetime.fromtimestamp(draft.saved_at, UTC)) if draft.saved_at else "earlier"
        question = ConfirmModal(
            Content.assemble("Continue your unsent edit of “", safe(page.title, limit=60), "”?"),
            f"You edited this page ({when}) and it was not sent. y opens the editor on that edit; n on the page as it "
            "is now (the kept edit is replaced when you save).",
            accept_key="y",
            accept_label="Continue it",
        )
        if await screen.app.push_screen_wait(question):
            continued = True
            text = draft.text
            if not same_text(draft.base, page.markdown):  # the page moved on since: compared from what was edited
                page = replace(page, markdown=draft.base, revision=draft.revision)
    at = await line(page) if callable(line) else line
    edited = _in_editor(screen, text, at)
    if edited is None:
        return None
    if same_text(edited, page.markdown):
        if continued:
            writing.drop(page)  # the kept edit was undone: nothing is left to offer again
        screen.notify(NOTHING, markup=False)
        return None
    writing.keep(page, edited)
    offered = subject(page) if callable(subject) else subject or f"Edit {page.title}"
    sent = await _send(screen, writing, page, edited, subject=offered[:100], closed=closed)
    if sent is not None and origin.key != page.key:
        writing.drop(origin)
    return sent


def _in_editor(screen: Screen[Any], text: str, line: int | None) -> str | None:
    try:
        return edit_in_editor(screen.app, text, line=line)
    except RuntimeError as exc:
        screen.notify(f"Page not edited: {exc}", severity="error", markup=False)
        return None


async def _send(
    screen: Screen[Any],
    writing: WritingService,
    page: EditedPage,
    text: str,
    *,
    subject: str,
    closed: str | None,
) -> Sent | None:
    """The send dialog, again after each failure, until the edit is sent or the dialog closed."""
    app = screen.app
    start: Destination = "here" if page.change_request is not None and closed is None else "new"
    problem: Content | None = None
    chosen: SendChoice | None = None
    force = False
    while True:
        if chosen is None:
            modal = PageSendModal(
                page,
                text,
                yours=partial(writing.open_change_requests, page.space_id),
                subject=subject,
                start=start,
                closed=closed if page.change_request is not None else None,
                problem=problem,
            )
            chosen = await app.push_screen_wait(modal)
            if chosen is None:
                screen.notify(NOT_SENT, markup=False)
                return None
            if chosen.kind == "edit":
                chosen, problem = None, None
                again = _in_editor(screen, text, None)
                if again is not None:
                    if same_text(again, page.markdown):
                        writing.drop(page)
                        screen.notify(NOTHING, markup=False)
                        return None
                    text = again
                    writing.keep(page, text)
                continue
            start = chosen.kind
            subject = chosen.subject or subject
        screen.notify("Sending your edit…", markup=False, timeout=2)
        try:
            sent = await writing.send(page, text, into=chosen.into, subject=chosen.subject, force=force)
        except MovedOn as moved:
            answer = await app.push_screen_wait(MovedOnModal(moved, text))
            if answer == "force":
                force = True
                continue  # the same choice, sent anyway
            if answer != "rebase":
                screen.notify(NOT_SENT, markup=False)
                return None
            rebased = await _rebase(screen, writing, page, text, moved, chosen)
            if rebased is None:
                return None
            page, text = rebased
            if page.change_request is not None:
                start, closed = "here", None  # read again where it goes: that is "this change request" now
            chosen, force, problem = None, False, None
            continue
        except NothingChanged:
            writing.drop(page)
            screen.notify(NOTHING, markup=False)
            return None
        except ServiceError as exc:
            problem = error_message(exc, doing="Not sent (your edit is kept)", brief=True)
            chosen, force = None, False
            continue
        said = sent.words() + (f" {sent.url}" if sent.url else "")
        screen.notify(said, markup=False, timeout=8)
        if isinstance(screen, FolioScreen):
            screen.action_refresh()
        return sent


async def _rebase(
    screen: Screen[Any], writing: WritingService, page: EditedPage, text: str, moved: MovedOn, chosen: SendChoice
) -> tuple[EditedPage, str] | None:
    """The page read again where the edit goes, your changes carried onto it, then the editor on the result."""
    screen.notify("Reading their text…", markup=False, timeout=2)
    try:
        fresh = await writing.open(page.space_id, page.page_id, change_request=chosen.into)
    except ServiceError as exc:
        notify_error(screen, exc, doing="Could not read the page again (your edit is kept)")
        return None
    label = f"change request #{fresh.number} now" if fresh.change_request else "main now"
    merged = rebase(page.markdown, text, fresh.markdown, theirs_label=label)
    writing.keep(fresh, merged.text)
    if merged.conflicts:
        places = f"{merged.conflicts} place{'s' if merged.conflicts != 1 else ''}"
        said = f"{places} changed by both: marked <<<<<<< yours … >>>>>>> theirs. Keep what should stay."
    else:
        said = "Your changes are carried onto their text (no line was changed by both): check it, then save."
    screen.notify(said, markup=False, timeout=8)
    edited = _in_editor(screen, merged.text, None)
    if edited is None:
        return fresh, merged.text  # kept as the draft; the send dialog shows it (and its marks)
    writing.keep(fresh, edited)
    return fresh, edited


# --- suggest from a review -----------------------------------------------------------------------------------


async def suggest(
    screen: Screen[Any],
    space_id: str,
    page_id: str,
    cr: ChangeRequest | None,
    *,
    line: Line = None,
    reply_to: str | None = None,
) -> Sent | None:
    """Open the page at ``line`` in the editor and send the result into ``cr`` when it can take it (draft or
    open), else into a new change request ``Suggestion for #N: <page title>``; ``reply_to`` (a comment of ``cr``,
    or of the space when ``cr`` is None) then gets a reply linking the change request."""

    def subject(page: EditedPage) -> str:
        return f"Suggestion for #{cr.number}: {page.title}" if cr is not None else f"Suggestion: {page.title}"

    closed = None
    if cr is not None and not cr.is_active:
        closed = f"#{cr.number} is {cr.status}: the suggestion goes into a new change request."
    sent = await edit_page(
        screen,
        space_id,
        page_id,
        change_request=cr.id if cr is not None else None,
        line=line,
        subject=subject,
        closed=closed,
    )
    if sent is not None and reply_to is not None:
        await _reply(screen, space_id, reply_to, cr.id if cr is not None else None, sent)
    return sent


async def _reply(screen: Screen[Any], space_id: str, comment_id: str, cr_id: str | None, sent: Sent) -> None:
    """The thread's reply that links the change request holding the suggestion (a lost answer is looked for)."""
    comments = _services(screen).comments
    made = sent.change_request
    text = (
        f"Suggested in change request #{made.number}: {sent.url}"
        if sent.url
        else (f"Suggested in change request #{made.number}.")
    )
    began = time.time()
    try:
        posted = await comments.reply(space_id, comment_id, text, change_request=cr_id, where="a reply linking it")
    except ServiceError as exc:
        found = None
        if may_have_reached(exc):
            try:
                found = await comments.find_reply(space_id, comment_id, text, change_request=cr_id, since=began - 1)
            except ServiceError:
                found = None
        if found is None:
            notify_error(screen, exc, doing=f"Sent, but the reply linking #{made.number} was not posted")
            return
        posted = found
    if isinstance(posted, Queued):  # held for the pending review, or queued offline: its message says which
        screen.notify(posted.message, markup=False)
    else:
        screen.notify("Reply posted: it links the change request.", markup=False)
    _services(screen).changes.bump(("comments", space_id))
