"""Every error a service call may raise to a screen, as one name.

    try:
        await services.space.rename(space, title)
    except ServiceError as exc:
        notify_error(self, exc, doing="Could not rename the space")

:data:`ServiceError` is the tuple of the API layer's :class:`~folio.api.errors.ApiError` (the service answered
an error, or could not be reached) and :class:`Refusal`, the base of the services' own refusals (a change refused
before sending, an operation this service does not offer, an answer lost and the write found not done, …). Both
have ``describe()``: one line a person can read. Anything else a service call raises is a bug of ours, and is
left to reach the app's bug logging (``folio.tui.errors.error_text``) instead of being shown as a failed request.

:class:`Refusal` is importable without the HTTP stack (the first frame imports none); :data:`ServiceError`
imports the API layer's errors when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["Invalid", "Refusal", "ServiceError"]

if TYPE_CHECKING:
    ServiceError: tuple[type[Exception], ...]


class Refusal(Exception):
    """A service's own no, in words (``describe()``, as the API's errors do): nothing was done, or what was done
    is said."""

    def describe(self) -> str:
        return str(self)


class Invalid(Refusal, ValueError):
    """What was given cannot be sent (an empty subject, no member picked, …): nothing was sent."""


def __getattr__(name: str) -> object:
    # ServiceError needs the API layer's errors (and so the HTTP stack): imported when first asked for
    if name == "ServiceError":
        from folio.api.errors import ApiError

        found: tuple[type[Exception], ...] = (ApiError, Refusal)
        globals()["ServiceError"] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
