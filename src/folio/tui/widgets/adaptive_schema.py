"""A site's visitor (adaptive content) schema, edited as JSON with its problems said as you type, and the
template conditions derived from it (the structure editor's condition field offers them to pick; here they
can be copied).

    AdaptiveSchemaEditor(services, org_id, site_id)
        ctrl+s / f2   save (refused, with the reasons, while the schema has problems)
        ctrl+r        put back the saved schema
        y / enter     on a template condition: copy it
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static, TextArea

from folio.services.errors import ServiceError
from folio.services.sites.sites import STARTER_SCHEMA, claim_counts, parse_schema, schema_text
from folio.services.writes import may_have_reached
from folio.tui.clipboard import copy
from folio.tui.errors import error_message, notify_error
from folio.tui.fresh import cache_first
from folio.tui.safe import safe
from folio.tui.widgets.plain import PlainTextArea
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.models.site_structure import SiteAdaptiveSchema, TemplateCondition
    from folio.services import Services

__all__ = ["AdaptiveSchemaEditor"]


def claims_words(signed: int, unsigned: int) -> str:
    """``2 claims, 1 unsigned``."""
    return f"{signed} claim{'' if signed == 1 else 's'}, {unsigned} unsigned"


CONDITION_COLUMNS = (Column("condition", "Condition"), Column("description", "What it means"))


class AdaptiveSchemaEditor(Vertical):
    """The visitor schema as JSON (validated as typed) and its template conditions."""

    DEFAULT_CSS = """
    AdaptiveSchemaEditor { height: 1fr; }
    AdaptiveSchemaEditor > .adaptive--status { height: 1; color: $text-muted; }
    AdaptiveSchemaEditor > TextArea { height: 1fr; min-height: 5; }
    AdaptiveSchemaEditor > .adaptive--problems { height: auto; max-height: 4; color: $text-success; }
    AdaptiveSchemaEditor > .adaptive--problems.-error { color: $text-error; }
    AdaptiveSchemaEditor > .adaptive--conditions-title { height: 1; text-style: bold; color: $text-muted; }
    AdaptiveSchemaEditor > ResourceBrowser { height: 6; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s,f2",
            "save",
            "Save schema",
            id="adaptive.save",
            tooltip="Save the visitor schema (ctrl+s, or f2 where ctrl+s is taken)",
            priority=True,
        ),
        Binding("ctrl+r", "revert", "Revert", id="adaptive.revert", tooltip="Put back the saved schema"),
        Binding(
            "y",
            "copy_condition",
            "Copy condition",
            id="adaptive.copy-condition",
            tooltip="Copy the template condition under the cursor",
        ),
    ]

    def __init__(self, services: Services, org_id: str, site_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.org_id = org_id
        self.site_id = site_id
        self.schema: SiteAdaptiveSchema | None = None
        self.saved_text: str | None = None
        self.problems: list[str] = []
        self.saving = False

    def compose(self) -> ComposeResult:
        yield Static(Content("Loading the visitor schema…"), classes="adaptive--status")
        yield PlainTextArea("", id="adaptive-json", soft_wrap=True, tab_behavior="focus", show_line_numbers=True)
        yield Static(classes="adaptive--problems")
        yield Static(
            Content("Template conditions · offered in the structure's condition fields · y or enter copies one"),
            classes="adaptive--conditions-title",
        )
        yield ResourceBrowser(CONDITION_COLUMNS, empty="No conditions: the schema has no claims yet.")

    @property
    def text_area(self) -> TextArea:
        return self.query_one("#adaptive-json", TextArea)

    @property
    def conditions(self) -> ResourceBrowser:
        return self.query_one(ResourceBrowser)

    @property
    def dirty(self) -> bool:
        return self.saved_text is not None and self.text_area.text != self.saved_text

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        """Read the schema again (text being edited is kept) and its template conditions."""
        self.load()

    # -- loading ---------------------------------------------------------------------------------------------------

    @work(exclusive=True, group="adaptive-load", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        sites = self.services.sites
        self.conditions.set_loading(True)
        try:
            schema = await sites.adaptive_schema(self.org_id, self.site_id)
        except ServiceError as exc:
            self._status(error_message(exc, doing="Could not load the visitor schema", hint="Press r to retry."))
            self.conditions.set_loading(False)
            return
        keep = self.dirty
        self._loaded(schema, replace_text=not keep)
        if keep:
            self._status(Content("Your edits are kept (not saved yet) · ctrl+r puts back the saved schema"))
        await self._load_conditions()

    async def _load_conditions(self) -> None:
        browser = self.conditions
        try:
            conditions = await self.services.sites.template_conditions(self.org_id, self.site_id)
        except ServiceError as exc:
            browser.set_error(error_message(exc, doing="Could not load the template conditions"))
            return
        browser.set_error(None)
        browser.set_rows(self._row(n, c) for n, c in enumerate(conditions))

    @staticmethod
    def _row(n: int, condition: TemplateCondition) -> Row:
        return Row(
            key=str(n),
            cells=[safe(condition.condition, limit=300), safe(condition.description, limit=300)],
            data=condition,
        )

    def _loaded(self, schema: SiteAdaptiveSchema | None, *, replace_text: bool = True) -> None:
        self.schema = schema
        self.saved_text = schema_text(schema.json_schema if schema else STARTER_SCHEMA)
        if replace_text:
            self.text_area.load_text(self.saved_text)
            self._validate()
        if schema is None:
            self._status(Content("No visitor schema yet: write one (boolean claims) and press ctrl+s to save."))
        else:
            signed, unsigned = claim_counts(schema.json_schema)
            when = f" · saved {schema.updated_at:%Y-%m-%d %H:%M}" if schema.updated_at else ""
            self._status(Content(f"Visitor schema: {claims_words(signed, unsigned)}{when} · ctrl+s saves"))

    def _status(self, text: Content) -> None:
        self.query_one(".adaptive--status", Static).update(text)

    # -- validation as you type --------------------------------------------------------------------------------------

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._validate()

    def _validate(self) -> list[str]:
        value, problems = parse_schema(self.text_area.text)
        self.problems = problems
        widget = self.query_one(".adaptive--problems", Static)
        widget.set_class(bool(problems), "-error")
        if problems:
            widget.update(safe(" ".join(problems), limit=600))
        else:
            signed, unsigned = claim_counts(value)
            state = "unsaved changes" if self.dirty else "saved"
            widget.update(Content(f"✓ Valid: {claims_words(signed, unsigned)} ({state})."))
        return problems

    # -- actions -----------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_condition":
            return self.conditions.list.has_focus and self.conditions.list.highlighted is not None
        if action == "revert":
            return True if self.dirty else None
        return True

    def on_descendant_focus(self) -> None:
        self.screen.refresh_bindings()

    def action_save(self) -> None:
        if self.saving:
            return
        problems = self._validate()
        if problems:
            self.notify("Not saved: " + " ".join(problems), severity="error", markup=False)
            return
        self._save(self.text_area.text)

    @work(exclusive=True, group="adaptive-save", exit_on_error=False)
    async def _save(self, text: str) -> None:
        self.saving = True
        try:
            schema = await self.services.sites.save_adaptive_schema(self.org_id, self.site_id, text)
        except ServiceError as exc:
            widget = self.query_one(".adaptive--problems", Static)
            widget.add_class("-error")
            if may_have_reached(exc):  # a PUT: sending the same schema again sets it again, no more
                widget.update(
                    error_message(
                        exc,
                        doing="Not sure it was saved",
                        hint="The answer was lost: the schema may have been saved all the same. ctrl+s again "
                        "sets the same schema (safe). Your text is kept.",
                        brief=True,
                    )
                )
                self.notify("The answer was lost: the schema may have been saved.", severity="warning", markup=False)
                return
            widget.update(error_message(exc, doing="Not saved", hint="Your text is kept.", brief=True))
            notify_error(self, exc, doing="The visitor schema was not saved")
            return
        finally:
            self.saving = False
        self._loaded(schema)
        self.notify("Visitor schema saved.", markup=False)
        self.conditions.set_loading(True)
        await self._load_conditions()

    def action_revert(self) -> None:
        if self.saved_text is not None:
            self.text_area.load_text(self.saved_text)
            self._validate()
            self.notify("The saved schema is back; your edits are gone.", markup=False)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self._copy(event.row)

    def action_copy_condition(self) -> None:
        self._copy(self.conditions.list.highlighted)

    def _copy(self, row: Row | None) -> None:
        condition: TemplateCondition | None = row.data if row is not None else None  # type: ignore[assignment]
        copy(self.app, condition.condition if condition else None, what="condition")
