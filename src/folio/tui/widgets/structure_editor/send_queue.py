"""The send queue of the structure editor: changes already shown in the tree, sent to the service one at a time,
in the order they were made. A refusal stops it; every job still queued is then rolled back, last first, so the
tree can go back to what the service holds. (Not the offline outbox of ``folio.services.review.outbox``: nothing here
outlives the editor.)

No Textual here: the edit session drives it, and tests drive the session.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from folio.services.errors import ServiceError
from folio.services.sites.structure import Move

__all__ = ["Change", "Job", "SendQueue"]


@dataclass
class Change:
    """One entry of the undo history: moves, or an edit's way back, or what was created."""

    label: str
    moves: list[Move] = field(default_factory=list)
    item: str | None = None
    back: dict[str, Any] | None = None
    default_before: str | None = None
    created: str | None = None


@dataclass
class Job:
    """A change on its way: ``change`` goes on the undo history once sent; ``undoing`` (the history entry an
    undo took) goes back on it if the undo is refused; ``rollback`` takes back what the job showed."""

    label: str
    send: Callable[[], Awaitable[object]]
    rollback: Callable[[], None] | None = None
    change: Change | None = None
    undoing: Change | None = None


class SendQueue:
    """Jobs in the order they were made; the first is the one being sent."""

    def __init__(self) -> None:
        self.jobs: deque[Job] = deque()
        self.sending = False

    def __len__(self) -> int:
        return len(self.jobs)

    def __iter__(self) -> Iterator[Job]:
        return iter(self.jobs)

    def add(self, job: Job) -> None:
        self.jobs.append(job)

    async def run(self, sent: Callable[[Job], None]) -> tuple[Job, Exception] | None:
        """Send the jobs in order, each after the one before succeeded (jobs added meanwhile too); ``sent`` hears
        of each. Stops at the first refusal and returns it, the refused job still first in the queue. None: all
        sent, or a run was already going (it sends what was added)."""
        if self.sending:
            return None
        self.sending = True
        try:
            while self.jobs:
                job = self.jobs[0]
                try:
                    await job.send()
                except ServiceError as exc:
                    return job, exc
                self.jobs.popleft()
                sent(job)
        finally:
            self.sending = False
        return None

    def abandon(self) -> list[Job]:
        """Take every job out, rolling back what each showed, last first; returns them in their order."""
        jobs = list(self.jobs)
        for job in reversed(jobs):
            if job.rollback:
                job.rollback()
        self.jobs.clear()
        return jobs
