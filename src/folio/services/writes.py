"""What a failed write means for the screen that sent it, in the product's words (the TUI never sees the API's
error classes):

    may_have_reached(exc)   the answer was lost but the write may have been done: look for it before sending again
    field_of(exc)           the field a refusal names (a limit checked before sending), or None
"""

from __future__ import annotations

from folio.api import errors

__all__ = ["field_of", "may_have_reached"]


def may_have_reached(exc: BaseException) -> bool:
    """True when the service may have done the write although no good answer came back: the connection dropped
    after sending, a 5xx, or a 2xx that could not be read."""
    if isinstance(exc, errors.Offline | errors.NotCached | errors.InvalidRequest):
        return False
    if isinstance(exc, errors.TransportError):
        return bool(exc.may_have_reached)
    if isinstance(exc, errors.StatusError):
        return (exc.status or 0) >= 500
    return isinstance(exc, errors.ResponseError)


def field_of(exc: BaseException) -> str | None:
    """The field a refusal names: a limit of the spec checked before sending (``title``, ``body.markdown``)."""
    if isinstance(exc, errors.InvalidRequest):
        return exc.field
    return None
