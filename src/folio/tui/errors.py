"""The one place failures become words on the screen.

Every error the services raise from the API layer has ``describe()``: one line saying what failed, where,
and what the service said. Anything else is a bug of ours: it is logged with its traceback (the debug log
hides the token) and shown as a short sentence naming its kind. The text always goes through
:func:`folio.tui.safe.safe`, since the service's own message is part of it.
"""

from __future__ import annotations

import logging
from typing import Any

from textual.app import App
from textual.content import Content
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from folio.services.connection import Connection
from folio.tui import textual_private
from folio.tui.safe import safe

__all__ = ["advice", "brief_text", "error_message", "error_text", "notify_error", "report_bug", "watch_workers"]

log = logging.getLogger("folio.tui")


def error_text(exc: BaseException) -> str:
    """The plain sentence for an error (not yet made safe: use :func:`error_message` for the screen)."""
    describe = getattr(exc, "describe", None)
    if callable(describe):
        text = describe()
        if isinstance(text, str) and text.strip():
            return text
    log.error("unexpected error", exc_info=exc)
    return f"Something went wrong inside Folio ({type(exc).__name__}). Run with --debug to log the details."


def brief_text(exc: BaseException) -> str:
    """The sentence without where it happened (``— POST /spaces/…``): what a dialog has room for."""
    text = error_text(exc)
    where = f"{getattr(exc, 'method', '')} {getattr(exc, 'path', '')}".strip()
    return text.replace(f" — {where}", "") if where else text


def advice(exc: BaseException) -> str | None:
    """What the user can do about an error, where there is something to say."""
    status = getattr(exc, "status", None)
    if status == 401:
        return "Check the token with: folio auth status."
    if status == 403:
        return "Your role does not allow this; an administrator of the organization can change it."
    return None


def error_message(
    exc: BaseException, *, doing: str | None = None, hint: str | None = None, brief: bool = False
) -> Content:
    """The error as safe content: ``"<doing>: <what failed>. <advice> <hint>"`` (``brief``: without the method
    and path, for dialogs)."""
    if Connection.is_cache_only() and Connection.is_cache_miss(exc):
        # the first paint from the cache found nothing: the fresh read is under way, there is no failure to say
        return Content("Loading…")
    text = brief_text(exc) if brief else error_text(exc)
    if doing:
        text = f"{doing}: {text}"
    for extra in (advice(exc), hint):
        if extra:
            text = f"{text.rstrip('.')}. {extra}"
    return safe(text, limit=600)


def notify_error(target: App[Any] | Widget, exc: BaseException, *, doing: str | None = None) -> None:
    """Show the error as a notification of ``target`` (an app, screen or widget); nothing for a cache miss of a
    first paint (the fresh read is under way)."""
    if Connection.is_cache_only() and Connection.is_cache_miss(exc):
        return
    target.notify(error_message(exc, doing=doing).plain, title="Error", severity="error", markup=False)


def report_bug(app: App[Any], exc: BaseException) -> None:
    """A bug of ours that reached no handler: logged with its traceback, and said in one sentence (the app goes
    on)."""
    app.notify(error_text(exc), title="Error", severity="error", markup=False)


def watch_workers(app: App[Any]) -> None:
    """Folio's workers do not end the app when they fail (``exit_on_error=False``), and catch the service's errors
    themselves (``except ServiceError``); anything else that ends one is a bug of ours: it is logged and said
    (:func:`report_bug`) instead of passing without a word."""

    def ended(worker: Worker[Any]) -> None:
        error = worker.error
        if worker.state != WorkerState.ERROR or error is None or worker.exit_on_error:
            return  # done, cancelled, or one Textual itself reports (and ends the app)
        from folio.services.errors import ServiceError  # (the HTTP stack's errors: not before the first frame)

        if not isinstance(error, ServiceError):  # a service error a worker leaves uncaught stays unsaid, as before
            report_bug(app, error)

    textual_private.watch_workers(app, ended)
