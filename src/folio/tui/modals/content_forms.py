"""The forms of collections and spaces; each sends itself and keeps what was typed when sending fails.

NewCollectionModal    a title (1..50 checked as you type), at the root or inside a collection -> Collection
EditCollectionModal   title, description (at most 100) and the default role of members -> Collection
EditSpaceModal        title, emoji, default role, language, and merge rules: inherit the organization's, or
                      specific reviewers picked from the members -> Space

A form opens with the exact values the service gave, and sends only the fields that changed (nothing changed:
nothing is sent, and it says so).
"""

from __future__ import annotations

from collections.abc import Collection as Many
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual import work
from textual.content import Content
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from folio.models.space import KNOWN_LANGUAGES
from folio.services.content.collections import DEFAULT_LEVELS, check_collection
from folio.services.content.space_admin import REVIEWER_RULE, check_space, merge_mode, space_changes
from folio.services.errors import ServiceError
from folio.services.people.people_plan import member_name
from folio.tui.errors import error_message
from folio.tui.modals.form import Field, FormModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.space import Collection, Space
    from folio.services.content.collections import CollectionsService
    from folio.services.content.space_admin import SpaceAdminService

__all__ = ["EditCollectionModal", "EditSpaceModal", "NewCollectionModal", "Unchanged"]

TITLE_FIELD = Field("title", "Title", placeholder="1 to 50 characters")
LEVEL = Field("default_level", "Default role", kind="select", choices=DEFAULT_LEVELS,
              hint="The role members have here unless they are given another")  # fmt: skip


class Unchanged:
    """What a form that sent nothing closes with: nothing differed from what the service holds."""

    def __init__(self, what: str) -> None:
        self.what = what


class NewCollectionModal(FormModal["Collection"]):
    """A new collection of ``org_id``, inside ``parent`` (None: at the root). ``known``: the ids of the
    collections there were when it opened, so a create whose answer was lost is found, not sent twice."""

    TITLE = "New collection"
    FIELDS = (TITLE_FIELD,)
    SEND_LABEL = "Create"
    FAILED = "Not created"

    def __init__(
        self, service: CollectionsService, org_id: str, parent: Collection | None, known: Many[str] = ()
    ) -> None:
        where = f"inside “{parent.title or parent.id}”" if parent else "at the root of the organization"
        super().__init__(
            draft=f"collection-new:{org_id}:{parent.id if parent else ''}",
            where="a new collection's title",
            title=Content(f"New collection {where}"),
        )
        self.service = service
        self.org_id = org_id
        self.holder = parent
        self.known = set(known)

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        return check_collection(values)

    async def submit(self, values: Mapping[str, Any]) -> Collection:
        parent = self.holder.id if self.holder else None
        return await self.service.create(self.org_id, str(values["title"]), parent=parent)

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        parent = self.holder.id if self.holder else None
        return await self.service.find(self.org_id, str(values["title"]), parent=parent, known=self.known)


class EditCollectionModal(FormModal["Collection | Unchanged"]):
    """A collection's title, description and default role, opened with the service's values."""

    TITLE = "Edit the collection"
    FIELDS = (TITLE_FIELD, Field("description", "Description", placeholder="at most 100 characters (optional)"), LEVEL)
    FAILED = "Not saved"

    def __init__(self, service: CollectionsService, collection: Collection) -> None:
        super().__init__(
            values={
                "title": collection.title,
                "description": collection.description or "",
                "default_level": collection.default_level,
            },
            draft=f"collection-edit:{collection.id}",
            where="a collection's fields",
            title=Content("Edit the collection “") + safe(collection.title or collection.id, limit=60) + "”",
        )
        self.service = service
        self.collection = collection

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        return check_collection(values)

    def changes(self, values: Mapping[str, Any], collection: Collection) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if values["title"] != collection.title:
            out["title"] = values["title"]
        if (values.get("description") or "") != (collection.description or ""):
            out["description"] = values.get("description") or ""
        if values.get("default_level") and values["default_level"] != collection.default_level:
            out["default_level"] = values["default_level"]
        return out

    async def submit(self, values: Mapping[str, Any]) -> Collection | Unchanged:
        changes = self.changes(values, self.collection)
        if not changes:
            return Unchanged(f"collection “{self.collection.title}”")
        return await self.service.update(self.collection, changes)

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        now = await self.service.get(self.collection.id)
        return None if self.changes(values, now) else now


REVIEWERS_LABEL = "Reviewers (space picks; used with specific reviewers)"


class EditSpaceModal(FormModal["Space | Unchanged"]):
    """A space's title, emoji, default role, language and merge rules; the reviewers are picked from the
    organization's members (loaded when the form opens)."""

    TITLE = "Edit the space"
    FIELDS = (
        TITLE_FIELD,
        Field("emoji", "Emoji", placeholder="one emoji, or empty for none"),
        LEVEL,
        Field("language", "Language", kind="select", choices=tuple((code, code) for code in KNOWN_LANGUAGES)),
        Field(
            "merge",
            "Merge rules",
            kind="choice",
            choices=(("inherit the organization's", "inherit"), ("specific reviewers, picked below", "rules")),
        ),
    )
    FAILED = "Not saved"
    DEFAULT_CSS = """
    EditSpaceModal .space-form--pick-label { color: $text-muted; margin-top: 1; height: 1; }
    EditSpaceModal SelectionList { height: auto; max-height: 8; }
    """

    def __init__(self, admin: SpaceAdminService, space: Space) -> None:
        mode, reviewers = merge_mode(space)
        super().__init__(
            values={
                "title": space.title,
                "emoji": space.emoji or "",
                "default_level": space.default_level,
                "language": space.language if space.language in KNOWN_LANGUAGES else None,
                "merge": "inherit" if mode == "inherit" else "rules",
            },
            draft=f"space-edit:{space.id}",
            where="a space's fields",
            title=Content("Edit the space “") + safe(space.title or space.id, limit=60) + "”",
        )
        self.admin = admin
        self.space = space
        self.reviewers = reviewers
        self.picker: SelectionList[str] = SelectionList[str](id="field-reviewers", compact=True)

    def on_mount(self) -> None:
        self.query_one(".form--fields").mount(
            Static(Content(REVIEWERS_LABEL), classes="space-form--pick-label"),
            self.picker,
            Static(classes="form--field-problem", id="problem-reviewers"),
        )
        super().on_mount()
        self.load_members()

    @work(exclusive=True, group="space-form-members", exit_on_error=False)
    async def load_members(self) -> None:
        if not self.space.organization:
            return
        self.picker.loading = True
        try:
            members = await self.admin.members(self.space.organization)
        except ServiceError as exc:
            self.say(error_message(exc, doing="Could not load the members to pick reviewers from"))
            return
        finally:
            self.picker.loading = False
        members.sort(key=lambda m: member_name(m).lower())
        chosen = set(self.reviewers)
        self.picker.add_options(
            [Selection(safe(member_name(m), limit=80), m.id, m.id in chosen) for m in members if not m.disabled]
        )

    def values(self) -> dict[str, Any]:
        out = super().values()
        out["reviewers"] = list(self.picker.selected)
        return out

    def show_problems(self, problems: Mapping[str, str]) -> None:
        super().show_problems(problems)
        line = self.query_one("#problem-reviewers", Static)
        problem = problems.get("reviewers")
        line.update(safe(problem, limit=300) if problem else Content(""))
        line.display = bool(problem)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self.touched = True
        self.live_check()

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        kept = (values.get("emoji") or None) == (self.space.emoji or None)  # as the service holds it: not checked
        problems = check_space({k: v for k, v in values.items() if not (kept and k == "emoji")})
        rules = self.space.merge_rules.rules if self.space.merge_rules else []
        if any(rule.rule != REVIEWER_RULE for rule in rules):  # its other rules stay: no reviewer is fine
            problems.pop("reviewers", None)
        return problems

    async def submit(self, values: Mapping[str, Any]) -> Space | Unchanged:
        changes = space_changes(self.space, values)
        if not changes:
            return Unchanged(f"space “{self.space.title}”")
        return await self.admin.update(self.space, changes)

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        now = await self.admin.space(self.space.id)
        return None if space_changes(now, values) else now
