"""Taking back a review request on a change request (``A`` on its screen): pick one of the people asked to review
it; the request is withdrawn, and the screen reloads its reviewers.

    withdraw_reviewer(screen, services, space_id, overview, then=screen.load)

A withdrawal whose answer was lost is looked for (who is asked now) before it can be sent again; a service without
review requests is said so plainly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folio.services.review.authoring import REVIEW_REQUESTS_NOT_OFFERED
from folio.services.sites.site_rules import Choice
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.widget import Widget

    from folio.services import Services
    from folio.services.review.review import Overview

__all__ = ["WithdrawModal", "asked_of", "withdraw_reviewer"]


class WithdrawModal(ChoiceModal):
    """The people asked to review: enter on one takes the request back."""

    SEND_LABEL = "Withdraw"
    FAILED = "Not withdrawn"


def asked_of(overview: Overview) -> dict[str, str]:
    """The people asked to review and not reviewed since: their names (made safe), by user id."""
    asked = [r for r in overview.reviewers if r.verdict == "requested" and r.user_id]
    return {r.user_id: safe(r.name, limit=60).plain for r in asked if r.user_id}


def withdraw_reviewer(
    owner: Widget, services: Services, space_id: str, overview: Overview, *, then: Callable[[], object]
) -> None:
    """Offer the people asked to review ``overview``'s change request; the one picked is no longer asked."""
    cr = overview.cr
    if not overview.requests_offered:
        owner.notify(REVIEW_REQUESTS_NOT_OFFERED, severity="warning", markup=False)
        return
    asked = asked_of(overview)
    if not asked:
        owner.notify("Nobody is asked to review it now (a asks someone).", markup=False)
        return
    existed: dict[str, bool] = {}

    async def submit(user_id: str) -> bool:
        existed[user_id] = await services.review.withdraw_request(space_id, cr.id, user_id)
        return existed[user_id]

    async def find(user_id: str) -> bool | None:
        return await services.review.find_withdrawn(space_id, cr.id, user_id)

    def done(user_id: str | None) -> None:
        if user_id is None:
            return
        name = asked.get(user_id, "them")
        if existed.get(user_id, True):
            owner.notify(f"{name} is no longer asked to review #{cr.number}.", markup=False)
        else:
            owner.notify(f"{name} was no longer asked to review #{cr.number} already.", markup=False)
        then()

    choices = [Choice(user_id, name) for user_id, name in asked.items()]
    title = f"Withdraw a review request on #{cr.number}"
    modal = WithdrawModal(title, choices, submit, help="Whom to stop asking:", find_sent=find)
    owner.app.push_screen(modal, done)
