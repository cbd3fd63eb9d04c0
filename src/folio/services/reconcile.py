"""Writes that set a state (a transfer, a move, a restore) after an answer that was lost, or a refusal that may
only mean the state is already so: read what is true before saying anything.

Sending such a write again is not the way to find out: the second send is refused (409 "would not result in any
update", 400 "not deleted") for a thing that was done. So when the answer is lost, or the service refuses with
one of the refusals that mean "it is so already", the state is read once: done, the write's result is what was
read; not done after a lost answer, :class:`NotDone` says so (nothing is sent again); a refusal that the state
does not explain stands as it was.

    moved = await send_or_read(lambda: client.collections.transfer(id, organization=org),
                               lambda: in_org(id, org), refused=(Conflict,), what="the collection")

No Textual here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from folio.api.errors import ApiError
from folio.services.errors import Refusal
from folio.services.writes import may_have_reached

__all__ = ["NotDone", "send_or_read"]

T = TypeVar("T")


class NotDone(Refusal):
    """The answer to a write was lost, and what the service holds now shows it was not done."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(self.describe())

    def describe(self) -> str:
        return f"The answer was lost; {self.what} was read again and it was not done: nothing changed, try again."


async def send_or_read(
    send: Callable[[], Awaitable[T]],
    read: Callable[[], Awaitable[T | None]],
    *,
    refused: tuple[type[ApiError], ...] = (),
    what: str,
) -> T:
    """``send()``'s answer; after a lost answer (or one of ``refused``), what ``read()`` finds when the state
    shows the write done (``read`` returns None when it does not). ``what`` names the thing read, for
    :class:`NotDone`."""
    try:
        return await send()
    except ApiError as exc:
        lost = may_have_reached(exc)
        if not lost and not isinstance(exc, refused):
            raise
        try:
            found = await read()
        except ApiError:
            raise exc from None  # the state could not be read: what the send met is all there is to say
        if found is not None:
            return found
        if lost:
            raise NotDone(what) from exc
        raise
