"""The merge pre-flight (issue 16): before a change request is merged, what the service will check (the merge
rules of the space, or of its organization when the space inherits them) and what a careful reviewer would
(up to date with main, open comments, changed pages not marked viewed, broken links the change introduces:
:mod:`folio.services.review.review_lint`).

    flight = await services.preflight.check(space_id, cr_id)
    flight.passed                # no line failed (lines the service checks itself do not count)
    for line in flight.checks:   # ok True (passes), False (fails: ``fix`` says what mends it), None (the service's)
        ...

Each line names the action that fixes it (``fix``): ``ask_reviewers``, ``update_from_main``, ``comments``,
``changes``, ``edit_subject``, ``edit_description``. A reviewer's say is their latest review that is not
outdated, as the service counts it. No Textual here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from folio.api.errors import ApiError, NotOffered

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest, ChangeRequestReview, RequestedReviewer
    from folio.models.organization import MergeRule, MergeRules
    from folio.services import Services
    from folio.services.review.review_lint import BrokenLink

__all__ = ["Check", "Fix", "Preflight", "PreflightService", "rule_checks"]

Fix = Literal["ask_reviewers", "update_from_main", "comments", "changes", "edit_subject", "edit_description"]


@dataclass(frozen=True)
class Check:
    """One line of the checklist: ``ok`` True (passes), False (fails), None (Folio cannot tell: the service
    checks it when merging). ``rule`` marks the merge rules, which the service enforces."""

    label: str
    ok: bool | None
    detail: str = ""
    fix: Fix | None = None
    rule: bool = False


@dataclass
class Preflight:
    """The checklist of a change request, and where its merge rules come from."""

    cr: ChangeRequest
    checks: list[Check]
    source: str = "the space"
    bypass: bool = False
    """The caller may bypass the merge rules (``allow_bypass``)."""
    broken: list[BrokenLink] = field(default_factory=list)

    @property
    def failing(self) -> list[Check]:
        return [c for c in self.checks if c.ok is False]

    @property
    def passed(self) -> bool:
        return not self.failing


def _verdicts(reviews: Sequence[ChangeRequestReview]) -> dict[str, str]:
    """Reviewer id -> the status of their latest review that is not outdated (``reviews`` newest first)."""
    out: dict[str, str] = {}
    for review in reviews:
        if review.reviewer is not None and not review.outdated:
            out.setdefault(review.reviewer.id, str(review.status))
    return out


def rule_checks(
    rules: Sequence[MergeRule],
    cr: ChangeRequest,
    reviews: Sequence[ChangeRequestReview],
    me: str,
    names: dict[str, str],
) -> list[Check]:
    """One line a merge rule, evaluated on the reviews (newest first) as the service does; rules Folio cannot
    evaluate (``custom``, ``require_agent_review``, ones it does not know) are the service's to check."""
    verdicts = _verdicts(reviews)
    approved = {uid for uid, status in verdicts.items() if status == "approved"}

    def who(users: Sequence[str], joiner: str = ", ") -> str:
        return joiner.join(names.get(u, u) for u in users)

    out: list[Check] = []
    for rule in rules:
        name, users = str(rule.rule), list(rule.users)
        match name:
            case "require_specific_reviewers":
                missing = [u for u in users if u not in approved]
                label = f"Approved by {who(users)}" if users else "Approved by the specific reviewers"
                detail = f"Not yet approved by {who(missing)}." if missing else ""
                out.append(Check(label, not missing, detail, "ask_reviewers" if missing else None, rule=True))
            case "require_one_of_specific_reviewers":
                ok = bool(approved & set(users)) or not users
                out.append(
                    Check(f"Approved by one of {who(users, ' or ')}", ok, "", _unless(ok, "ask_reviewers"), True)
                )
            case "require_at_least_one_review":
                out.append(
                    Check("At least one review", bool(verdicts), "", _unless(bool(verdicts), "ask_reviewers"), True)
                )
            case "require_at_least_one_approved_review":
                out.append(
                    Check("At least one approval", bool(approved), "", _unless(bool(approved), "ask_reviewers"), True)
                )
            case "require_all_reviews_approved":
                against = [u for u in verdicts if u not in approved]
                detail = f"{who(against)} asked for changes." if against else ""
                out.append(
                    Check("Every review approves it", not against, detail, _unless(not against, "ask_reviewers"), True)
                )
            case "require_up_to_date_change_request":
                out.append(
                    Check(
                        "Up to date with main (rule)",
                        not cr.outdated,
                        "",
                        _unless(not cr.outdated, "update_from_main"),
                        True,
                    )
                )
            case "require_change_request_subject":
                ok = bool((cr.subject or "").strip())
                out.append(Check("It has a subject", ok, "", _unless(ok, "edit_subject"), True))
            case "require_change_request_description":
                ok = cr.description is not None and bool(cr.description.plain_text().strip())
                out.append(Check("It has a description", ok, "", _unless(ok, "edit_description"), True))
            case "require_author_to_merge":
                author = cr.created_by.id if cr.created_by else None
                ok = author == me
                detail = "" if ok else f"Only its author, {names.get(author or '', author or 'someone')}, may merge it."
                out.append(Check("Merged by its author", ok, detail, rule=True))
            case "allow_bypass":
                continue
            case "custom":
                said = f"“{rule.message}”" if rule.message else "a custom expression"
                out.append(Check(f"Custom rule: {said}", None, "Checked by the service when merging.", rule=True))
            case _:
                out.append(Check(f"Rule {name}", None, "Checked by the service when merging.", rule=True))
    return out


def _unless(ok: bool, fix: Fix) -> Fix | None:
    return None if ok else fix


class PreflightService:
    """``await preflight.check(space_id, cr)``: the checklist of a change request (by id or number)."""

    def __init__(self, client: GitBookClient, services: Services) -> None:
        self._client = client
        self._services = services

    async def merge_rules(self, space_id: str) -> tuple[list[MergeRule], str, str | None]:
        """The rules a merge in the space obeys, whose they are (``the space`` or ``the organization``) and the
        space's organization."""
        space = await self._client.spaces.get(space_id)
        rules: MergeRules | None = space.merge_rules
        source = "the space"
        if (rules is None or rules.type == "inherit") and space.organization:
            rules = (await self._client.organizations.get(space.organization)).merge_rules
            source = "the organization"
        return (list(rules.rules) if rules is not None and rules.type == "rules" else []), source, space.organization

    async def _requested(self, space_id: str, cr_id: str) -> list[RequestedReviewer]:
        """The reviewers asked for; none on a service that does not offer asking for reviewers (the checklist
        then names reviewers from the reviews alone)."""
        try:
            return await self._client.reviews.requested_reviewers(space_id, cr_id).collect()
        except NotOffered:
            return []

    async def check(self, space_id: str, cr_ref: str | int) -> Preflight:
        cr = await self._client.change_requests.get(space_id, cr_ref)
        review = self._services.review
        (rules, source, org), reviews, requested, open_comments, changes, me = await asyncio.gather(
            self.merge_rules(space_id),
            self._client.reviews.list(space_id, cr.id, format="markdown").collect(),
            self._requested(space_id, cr.id),
            self._client.comments.list(space_id, change_request=cr.id, status="open", limit=1000).collect(),
            review.changes(space_id, cr),
            self._services.me(),
        )
        names = await self._names(org, rules, reviews, requested)
        checks = rule_checks(rules, cr, reviews, me.id, names)
        bypass = any(str(r.rule) == "allow_bypass" and me.id in r.users for r in rules)
        if not rules:
            checks.append(Check(f"Merge rules: none set by {source}", True, rule=True))
        elif not checks:  # only allow_bypass: it says who may skip rules, and there are none to skip
            checks.append(Check("Merge rules: none to meet (only who may bypass them)", True, rule=True))
        if not any(str(r.rule) == "require_up_to_date_change_request" for r in rules):
            checks.append(self._up_to_date(cr))
        threads = len(open_comments)
        plural = "s" if threads != 1 else ""
        checks.append(
            Check(
                "No open comments",
                not threads,
                f"{threads} open thread{plural}." if threads else "",
                _unless(not threads, "comments"),
            )
        )
        changed = changes.changed
        viewed = review.viewed.viewed(cr.id, cr.revision or "")
        unviewed = [p for p in changed if p.id not in viewed]
        detail = f"{len(unviewed)} of {len(changed)} changed pages not marked viewed." if unviewed else ""
        checks.append(Check("Every changed page viewed", not unviewed, detail, _unless(not unviewed, "changes")))
        broken: list[BrokenLink] = []
        try:
            broken = await self._services.review_lint.introduced_broken_links(space_id, cr.id)
        except NotOffered:
            checks.append(Check("No broken links introduced", None, "This service does not list links."))
        except ApiError as exc:
            checks.append(Check("No broken links introduced", None, f"Could not read the links: {exc.describe()}"))
        else:
            first = f": {broken[0].page_title} links to {broken[0].target}" if broken else ""
            more = f" (and {len(broken) - 1} more)" if len(broken) > 1 else ""
            detail = f"{len(broken)} broken{first}{more}." if broken else ""
            checks.append(Check("No broken links introduced", not broken, detail, _unless(not broken, "changes")))
        return Preflight(cr, checks, source, bypass, broken)

    @staticmethod
    def _up_to_date(cr: ChangeRequest) -> Check:
        detail = "Main changed since it began." if cr.outdated else ""
        return Check("Up to date with main", not cr.outdated, detail, _unless(not cr.outdated, "update_from_main"))

    async def _names(
        self,
        org: str | None,
        rules: Sequence[MergeRule],
        reviews: Sequence[ChangeRequestReview],
        requested: Sequence[RequestedReviewer],
    ) -> dict[str, str]:
        """User id -> name, for the users the rules name (members looked up where no review names them)."""
        names: dict[str, str] = {}
        for user in [r.reviewer for r in reviews] + [r.user for r in requested]:
            if user is not None:
                names.setdefault(user.id, user.display_name or user.email or user.id)
        unknown = {u for r in rules for u in r.users} - set(names)
        if unknown and org:

            async def look(uid: str) -> None:
                try:
                    member = await self._client.members.get(org, uid)
                except ApiError:
                    return  # named by id
                if member.user is not None:
                    names[uid] = member.user.display_name or member.user.email or uid

            await asyncio.gather(*(look(u) for u in sorted(unknown)))
        return names
