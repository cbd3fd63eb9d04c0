"""Starting and sharing a change request: each form sends itself, keeps what was typed when sending fails, and
looks for a write whose answer was lost before anything is sent again.

NewChangeRequestModal    a subject (1..100, checked as you type) and an optional description -> NewChangeRequest
RequestReviewersModal    members of the organization picked to review a change request -> the requests made
start_change_request     ``n`` on a space's change requests: the form, then the new change request opens
ask_for_reviewers        the change request screen's key: the picker (members already asked, and you, left out)

A change request cannot be made from a template here: the API applies a template by id, but lists no templates
to pick from (``folio.services.review.authoring``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.widget import Widget

from folio.services.errors import ServiceError
from folio.services.review.authoring import (
    REVIEW_REQUESTS_NOT_OFFERED,
    AuthoringService,
    NewChangeRequest,
    ReviewRequestsNotOffered,
    check_subject,
)
from folio.tui.errors import error_message, notify_error
from folio.tui.modals.form import Field, FormModal
from folio.tui.modals.people_forms import PickingForm
from folio.tui.navigation import Open
from folio.tui.safe import safe

if TYPE_CHECKING:
    from datetime import datetime

    from folio.models.change_request import RequestedReviewer
    from folio.services import Services
    from folio.services.people.people import PeopleService

__all__ = ["NewChangeRequestModal", "RequestReviewersModal", "ask_for_reviewers", "start_change_request"]


class NewChangeRequestModal(FormModal[NewChangeRequest]):
    """A new change request of ``space_id``: its subject and, optionally, a description."""

    TITLE = "New change request"
    INTRO = "It starts from the space's current content, as a draft."
    FIELDS = (
        Field("subject", "Subject", placeholder="What the change is (up to 100 characters)"),
        Field("description", "Description", kind="text", height=5, hint="Optional: why, and what to look at"),
    )
    SEND_LABEL = "Create"
    FAILED = "Not created"

    def __init__(self, authoring: AuthoringService, space_id: str, *, space_title: str | None = None) -> None:
        where = f"a new change request in {space_title}" if space_title else "a new change request"
        super().__init__(draft=f"new-change-request:{space_id}", where=where)
        self.authoring = authoring
        self.space_id = space_id
        self.began: datetime | None = None
        """When the last send began: a change request made since then, with this subject, is the one sent."""

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = check_subject(str(values.get("subject") or ""))
        return {"subject": problem} if problem else {}

    async def submit(self, values: Mapping[str, Any]) -> NewChangeRequest:
        self.began = self.authoring.clock()
        subject, description = str(values["subject"]), str(values.get("description") or "")
        return await self.authoring.create_change_request(self.space_id, subject, description)

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        since = self.began or self.authoring.clock()
        subject, description = str(values["subject"]), str(values.get("description") or "")
        return await self.authoring.find_change_request(self.space_id, subject, since=since, description=description)


class RequestReviewersModal(PickingForm["list[RequestedReviewer]"]):
    """Members of the organization picked to review a change request (``leave_out``: already asked, and you)."""

    TITLE = "Ask for reviewers"
    INTRO = "Each member picked is asked to review this change request."
    PICK_LABEL = "Members (space picks, ctrl+s asks them)"
    SEND_LABEL = "Ask"
    FAILED = "Not asked"

    def __init__(
        self,
        people: PeopleService,
        authoring: AuthoringService,
        org_id: str,
        space_id: str,
        cr_id: str,
        *,
        leave_out: set[str] | None = None,
        title: Content | str | None = None,
    ) -> None:
        super().__init__(people, org_id, leave_out=leave_out or set(), title=title)
        self.authoring = authoring
        self.space_id = space_id
        self.cr_id = cr_id

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        return {} if values.get("members") else {"members": "Pick at least one member (space picks)."}

    async def submit(self, values: Mapping[str, Any]) -> list[RequestedReviewer]:
        return await self.authoring.request_reviewers(self.space_id, self.cr_id, list(values["members"]))

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        return await self.authoring.find_requested(self.space_id, self.cr_id, list(values["members"]))


# -- the flows the screens bind -------------------------------------------------------------------------------


def start_change_request(owner: Widget, services: Services, space_id: str, *, space_title: str | None = None) -> None:
    """Open the new change request form over ``owner``'s screen; once made, say so and open it."""

    def made(result: NewChangeRequest | None) -> None:
        if result is None:
            return
        cr = result.change_request
        subject = safe(cr.subject or "Untitled", limit=80).plain
        owner.notify(f"Change request #{cr.number} “{subject}” created.", markup=False)
        if result.description_error is not None:
            problem = error_message(
                result.description_error, doing="Its description was not saved", hint="Press d on it to add it."
            )
            owner.notify(problem.plain, severity="warning", markup=False)
        owner.post_message(
            Open("change-request", {"space_id": space_id, "ref": cr.id}, title=f"#{cr.number} {subject}")
        )

    owner.app.push_screen(NewChangeRequestModal(services.authoring, space_id, space_title=space_title), made)


def ask_for_reviewers(
    owner: Widget, services: Services, space_id: str, cr_id: str, *, then: Callable[[], None] | None = None
) -> None:
    """Pick members of the space's organization and ask them to review ``cr_id`` (in a worker of ``owner``);
    ``then`` runs once they were asked (the screen reloads its reviewers). A service without review requests
    is said so plainly."""

    async def run() -> None:
        try:
            space = await services.space.space(space_id)
            asked = await services.authoring.requested_reviewers(space_id, cr_id)
            me = (await services.me()).id
        except ReviewRequestsNotOffered:
            owner.notify(REVIEW_REQUESTS_NOT_OFFERED, severity="warning", markup=False)
            return
        except ServiceError as exc:
            notify_error(owner, exc, doing="Could not prepare the list of members to ask")
            return
        if not space.organization:
            owner.notify("This space names no organization: there are no members to pick from.", markup=False)
            return
        leave_out = {r.reviewer_id for r in asked if r.reviewer_id} | {me}
        modal = RequestReviewersModal(
            services.people, services.authoring, space.organization, space_id, cr_id, leave_out=leave_out
        )
        result = await owner.app.push_screen_wait(modal)
        if not result:
            return
        names = [safe(r.user.display_name or r.user.id, limit=60).plain for r in result if r.user is not None]
        owner.notify(f"Asked to review: {', '.join(names) or f'{len(result)} members'}.", markup=False)
        if then is not None:
            then()

    owner.run_worker(run(), group="ask-reviewers", exclusive=True, exit_on_error=False)
