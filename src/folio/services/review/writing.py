"""Writing the docs: a page's markdown edited into a change request, and a batch of page tree edits sent as one
revision (the public description's ``updateChangeRequestContent``).

    writing = services.writing
    page = await writing.open(space_id, page_id, change_request=cr_id)   # its markdown, at a known revision
    writing.keep(page, text)                                             # a draft until the service has it
    sent = await writing.send(page, text, into=cr_id)                    # or subject="Fix typos": a new CR

    plan = await writing.plan(space_id, cr_id)                           # the change request's tree, now
    plan.add_page("Troubleshooting", under=page_id); plan.delete(other_id)
    sent = await writing.send_plan(plan)                                 # one revision, all or nothing

The rules it keeps:

- **Nothing silent.** An unchanged text sends nothing (:class:`NothingChanged`). When the change request moved on
  since the page was read (a colleague's revision), :class:`MovedOn` is raised before sending, with their text of
  the page; the caller shows it and sends again with ``force=True`` (send anyway) or opens the page again (rebase).
  Sending into another change request than the one read compares the page there with the text read, the same way.
- **A draft until the service has it.** :meth:`keep` saves the edited text in the local state (as the comment
  drafts are), :meth:`draft` gives it back, a send that succeeds drops it; a failed or lost send keeps it.
- **A lost answer is looked for, never sent again blindly.** After an answer that may have been lost, the change
  request is read: the page holding the sent text (compared without trailing spaces) means it was done; otherwise
  :class:`folio.services.reconcile.NotDone`. A batch is looked for change by change (a new page with its title
  under its parent, a rename, a move, a deletion, a file by name). A new change request whose answer was lost is
  looked for by subject (``AuthoringService.find_change_request``).
- **Limits before sending.** At most 50 changes a batch, a file at most 1 MiB, a title not empty, a slug of at most
  100 characters without ``/`` or spaces and unique among its siblings, no page moved under itself.

No Textual here.
"""

from __future__ import annotations

import base64
import json
import mimetypes
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from folio.api.errors import ApiError, NotOffered
from folio.api.resources.change_requests import CONTENT_CHANGES_MAX
from folio.models.content_changes import (
    ContentChange,
    DeletePage,
    FileUpload,
    InsertFiles,
    InsertPage,
    MarkdownDocument,
    RevertPage,
    UpdatePage,
)
from folio.services.content.space import PageEntry, flatten_pages
from folio.services.errors import Invalid, Refusal
from folio.services.reconcile import NotDone
from folio.services.review.authoring import check_subject
from folio.services.review.diff import MarkdownDiff, diff_markdown
from folio.services.writes import may_have_reached

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.cache.state import LocalState
    from folio.models.change_request import ChangeRequest
    from folio.models.common import Page
    from folio.services import Services
    from folio.services.review.authoring import AuthoringService

__all__ = [
    "MAX_FILE_BYTES",
    "SLUG_MAX",
    "ChangeRequestClosed",
    "EditPlan",
    "EditedPage",
    "MovedOn",
    "NotEditable",
    "NothingChanged",
    "PageDraft",
    "Sent",
    "Step",
    "WritingNotOffered",
    "WritingService",
    "file_upload",
    "same_text",
    "slug_problem",
    "suggest_slug",
]

MAX_FILE_BYTES = 1_048_576
"""The largest file sent in a batch: the description's "max 1MB", read as 1 MiB."""
FILE_NAME_MAX = 256
SLUG_MAX = 100
KEY = "page-edit:{space}/{where}/{page}"
WRITING_NOT_OFFERED = (
    "This service does not offer writing pages through the API (updateChangeRequestContent): edit the page in the "
    "web app."
)


# --- what is refused ---------------------------------------------------------------------------------------------


class NothingChanged(Refusal):
    def describe(self) -> str:
        return "The text is as it was: nothing was sent."


class ChangeRequestClosed(Refusal):
    def __init__(self, cr: ChangeRequest) -> None:
        self.cr = cr
        super().__init__(self.describe())

    def describe(self) -> str:
        return f"Change request #{self.cr.number} is {self.cr.status}: its pages cannot change. Send into another one."


class NotEditable(Refusal):
    """The page is not where the text is sent (deleted in that change request)."""


class WritingNotOffered(Refusal):
    def describe(self) -> str:
        return WRITING_NOT_OFFERED


class MovedOn(Refusal):
    """The change request moved on since the page was read: ``theirs`` is the page's markdown now (None: the page
    is gone there), ``base`` the text the edit started from, ``revision`` the change request's revision now."""

    def __init__(
        self, number: int | float | str, revision: str | None, base: str, theirs: str | None, *, tree: bool = False
    ) -> None:
        self.number, self.revision, self.base, self.theirs, self.tree = number, revision, base, theirs, tree
        super().__init__(self.describe())

    @property
    def page_changed(self) -> bool:
        return self.theirs is None or not same_text(self.theirs, self.base)

    def describe(self) -> str:
        if self.number == "main":
            return (
                "The main content moved on since you opened the page: a merged change touched this page. Compare, "
                "then open it again on the new text, or send yours anyway."
            )
        if self.tree:
            return (
                f"Change request #{self.number} has a newer revision than the tree you planned on (someone changed "
                "it): read it again, or send the plan anyway."
            )
        if self.theirs is None:
            return f"Change request #{self.number} moved on since you opened the page: the page was deleted there."
        return (
            f"Change request #{self.number} moved on since you opened the page: someone changed this page. "
            "Compare, then open it again on their text, or send yours anyway."
        )

    def diff(self, mine: str) -> MarkdownDiff:
        """Their page against yours (theirs on the left)."""
        return diff_markdown(self.theirs, mine)


# --- a page opened for editing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EditedPage:
    """A page read for editing: its markdown as read, and where from (a change request, or the space's main
    content) at which revision."""

    space_id: str
    page_id: str
    title: str
    path: str | None
    markdown: str
    revision: str | None
    change_request: str | None = None
    """The change request's id when read from one; None: read from the space's main content."""
    number: int | float | str | None = None

    @property
    def key(self) -> str:
        return KEY.format(space=self.space_id, where=self.change_request or "main", page=self.page_id)

    @property
    def where(self) -> str:
        return f"change request #{self.number}" if self.change_request else "the main content"


@dataclass(frozen=True)
class PageDraft:
    """An edited text kept until the service has it, with the text it was edited from."""

    text: str
    base: str
    revision: str | None
    saved_at: float


@dataclass(frozen=True)
class Sent:
    """The change request that holds the edit now; ``found``: the answer was lost and the edit found done;
    ``created``: the change request was made for this edit."""

    change_request: ChangeRequest
    found: bool = False
    created: bool = False
    pages: tuple[str, ...] = ()
    """The ids of the pages the service says it created or updated (empty with the older answer)."""

    def words(self) -> str:
        cr = self.change_request
        verb = "Made change request" if self.created else "Sent into change request"
        note = " (the answer was lost; read again, it was done)" if self.found else ""
        return f"{verb} #{cr.number} “{cr.subject or 'Untitled'}”{note}."

    @property
    def url(self) -> str | None:
        return self.change_request.urls.app if self.change_request.urls else None


def same_text(a: str | None, b: str | None) -> bool:
    """Two markdown texts that differ at most in trailing spaces and final blank lines (the service normalises
    what it stores)."""
    if a is None or b is None:
        return a is b

    def norm(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n")).strip("\n")

    return norm(a) == norm(b)


# --- checks before sending ---------------------------------------------------------------------------------------

_SLUG_WORD = re.compile(r"[^a-z0-9]+")


def suggest_slug(title: str) -> str:
    """``Getting started!`` → ``getting-started``."""
    return _SLUG_WORD.sub("-", title.lower()).strip("-")[:SLUG_MAX] or "page"


def slug_problem(slug: str) -> str | None:
    """Why ``slug`` cannot be a page's slug, in words (None: it can)."""
    if not slug:
        return "The slug is empty: give one, or leave it as it is."
    if len(slug) > SLUG_MAX:
        return f"The slug is {len(slug)} characters long: at most {SLUG_MAX}."
    if "/" in slug or any(c.isspace() for c in slug):
        return "A slug is one part of the page's URL: no '/' and no spaces."
    if any(ord(c) < 32 for c in slug):
        return "The slug holds control characters."
    return None


def _title_problem(title: str) -> str | None:
    if not title.strip():
        return "A page needs a title."
    if any(ord(c) < 32 for c in title):
        return "The title holds control characters."
    return None


def file_upload(path: str | Path, *, ref: str | None = None) -> FileUpload:
    """A local file made ready for ``insert_files`` (its bytes as base64); Invalid when it cannot be read, is
    empty of a name, or is larger than :data:`MAX_FILE_BYTES`. Its ``ref`` (default: its name) is how a page of
    the batch links it: ``![alt](./<ref>)``."""
    source = Path(path).expanduser()
    try:
        size = source.stat().st_size
    except OSError as exc:
        raise Invalid(f"Cannot read {source}: {exc.strerror or exc}.") from None
    if not source.is_file():
        raise Invalid(f"{source} is not a file.")
    if size > MAX_FILE_BYTES:
        raise Invalid(f"{source.name} is {size:,} bytes: a file sent this way is at most {MAX_FILE_BYTES:,} (1 MiB).")
    name = source.name[:FILE_NAME_MAX]
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise Invalid(f"Cannot read {source}: {exc.strerror or exc}.") from None
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return FileUpload(
        name=name,
        ref=ref or re.sub(r"[^A-Za-z0-9._-]+", "-", name),
        content_type=content_type,
        base64=base64.b64encode(data).decode("ascii"),
    )


# --- a batch of tree edits -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One change of a batch, with what it does in words."""

    change: ContentChange
    words: str


@dataclass
class EditPlan:
    """Page tree edits gathered for one change request, sent as one revision. Each ``add_…`` checks the edit
    against the tree as read (and the edits before it) and raises Invalid in words; :meth:`lines` says the plan."""

    space_id: str
    change_request: ChangeRequest
    revision: str | None
    pages: list[PageEntry]
    steps: list[Step] = field(default_factory=list)

    # -- reading the tree ----------------------------------------------------------------------------------------

    def _page(self, page_id: str) -> Page:
        for entry in self.pages:
            if entry.page.id == page_id:
                return entry.page
        raise Invalid("That page is not in the change request's tree (read it again: r).")

    def _title(self, page_id: str | None) -> str:
        if page_id is None:
            return "the top level"
        return f"“{self._page(page_id).title or 'Untitled'}”"

    def _children(self, parent: str | None) -> list[Page]:
        if parent is None:
            return [e.page for e in self.pages if e.depth == 0]
        return list(self._page(parent).pages)

    def _under(self, page_id: str, ancestor: str) -> bool:
        return any(p.id == page_id for p in _descendants(self._page(ancestor)))

    def parent_of(self, page_id: str) -> str | None:
        for entry in self.pages:
            if any(child.id == page_id for child in entry.page.pages):
                return entry.page.id
        return None

    def _deleted(self, page_id: str) -> bool:
        gone = {s.change.page for s in self.steps if isinstance(s.change, DeletePage)}
        return page_id in gone or any(self._under(page_id, d) for d in gone if d != page_id)

    def _check(self, page_id: str) -> None:
        self._page(page_id)
        if self._deleted(page_id):
            raise Invalid(f"{self._title(page_id)} is deleted by this plan already.")

    def _add(self, change: ContentChange, words: str) -> Step:
        if len(self.steps) >= CONTENT_CHANGES_MAX:
            raise Invalid(f"A batch holds at most {CONTENT_CHANGES_MAX} changes: send this one first.")
        step = Step(change, words)
        self.steps.append(step)
        return step

    # -- the edits ---------------------------------------------------------------------------------------------

    def add_page(self, title: str, *, under: str | None = None, markdown: str = "") -> Step:
        problem = _title_problem(title)
        if problem:
            raise Invalid(problem)
        if under is not None:
            self._check(under)
        slug = suggest_slug(title)
        taken = {p.slug for p in self._children(under)} | {
            s.change.slug for s in self.steps if isinstance(s.change, InsertPage) and s.change.into == under
        }
        if slug in taken:
            raise Invalid(f"A page with the slug {slug!r} is already under {self._title(under)}: choose another title.")
        document = MarkdownDocument(markdown=markdown) if markdown else MarkdownDocument()
        change = InsertPage(title=title.strip(), slug=slug, document=document)
        if under is not None:
            change.into = under
        return self._add(change, f"New page “{title.strip()}” under {self._title(under)}")

    def rename(self, page_id: str, *, title: str | None = None, slug: str | None = None) -> Step:
        self._check(page_id)
        page = self._page(page_id)
        if slug is not None and page.type == "link":
            raise Invalid("A link page has no slug: it points elsewhere.")
        if title is None and slug is None:
            raise Invalid("Give a new title or a new slug.")
        change = UpdatePage(page=page_id)
        said: list[str] = []
        if title is not None:
            problem = _title_problem(title)
            if problem:
                raise Invalid(problem)
            change.title = title.strip()
            said.append(f"title “{title.strip()}”")
        if slug is not None:
            problem = slug_problem(slug)
            if problem:
                raise Invalid(problem)
            siblings = self._children(self.parent_of(page_id))
            if any(p.slug == slug and p.id != page_id for p in siblings):
                raise Invalid(f"A page beside it already has the slug {slug!r}: a slug is unique among siblings.")
            change.slug = slug
            said.append(f"slug {slug!r} (its URL changes)")
        if title is None and slug is None:  # pragma: no cover - refused above
            raise Invalid("Give a new title or a new slug.")
        return self._add(change, f"Rename “{page.title or 'Untitled'}”: {', '.join(said)}")

    def move(self, page_id: str, *, into: str | None, at: int | None = None) -> Step:
        self._check(page_id)
        if into is not None:
            self._check(into)
            if into == page_id or self._under(into, page_id):
                raise Invalid("A page cannot move under itself or one of its subpages.")
        change = UpdatePage(page=page_id, into=into)  # into given (None too): sent, null moves to the top level
        if at is not None:
            change.at = max(0, at)
        where = f"under {self._title(into)}" if into is not None else "to the top level"
        place = f", position {at + 1}" if at is not None else ""
        return self._add(change, f"Move {self._title(page_id)} {where}{place}")

    def delete(self, page_id: str) -> Step:
        self._check(page_id)
        below = len(_descendants(self._page(page_id)))
        more = f" and its {below} subpage{'s' if below != 1 else ''}" if below else ""
        return self._add(DeletePage(page=page_id), f"Delete {self._title(page_id)}{more}")

    def revert(self, page_id: str) -> Step:
        self._check(page_id)
        return self._add(RevertPage(page=page_id), f"Revert {self._title(page_id)} to main")

    def add_file(self, path: str | Path) -> tuple[Step, str]:
        """A local file inserted by the batch; also the markdown that shows or links it (``![name](./ref)``)."""
        upload = file_upload(path)
        refs = {f.ref for s in self.steps if isinstance(s.change, InsertFiles) for f in s.change.files}
        if upload.ref in refs:
            raise Invalid(f"{upload.name} is in this plan already.")
        image = (upload.content_type or "").startswith("image/")
        link = f"{'!' if image else ''}[{upload.name}](./{upload.ref})"
        size = len(base64.b64decode(upload.base64 or ""))
        return self._add(InsertFiles(files=[upload]), f"Add the file {upload.name} ({size:,} bytes)"), link

    def drop(self, index: int) -> Step:
        """Take a step out of the plan (the one at ``index``)."""
        return self.steps.pop(index)

    def lines(self) -> list[str]:
        return [f"{n}. {step.words}" for n, step in enumerate(self.steps, 1)]

    @property
    def changes(self) -> list[ContentChange]:
        return [step.change for step in self.steps]


def _descendants(page: Page) -> list[Page]:
    out: list[Page] = []
    for child in page.pages:
        out.append(child)
        out.extend(_descendants(child))
    return out


# --- the service ---------------------------------------------------------------------------------------------


class WritingService:
    """Pages edited into change requests, over the client."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services
        self._memory: dict[str, str] = {}
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    # -- drafts ----------------------------------------------------------------------------------------------

    @property
    def _state(self) -> LocalState | None:
        local = self._services.local if self._services is not None else None
        return local.state if local is not None else None

    def keep(self, page: EditedPage, text: str) -> None:
        """Keep ``text`` as the page's draft until the service has it."""
        data = json.dumps({"text": text, "base": page.markdown, "revision": page.revision, "at": time.time()})
        state = self._state
        if state is None:
            self._memory[page.key] = data
        else:
            state.save_draft(page.key, data, where=f"your edit of the page “{page.title}” ({page.where})")

    def draft(self, page: EditedPage) -> PageDraft | None:
        """The text kept for the page by an earlier edit that did not reach the service."""
        state = self._state
        if state is None:
            raw = self._memory.get(page.key)
        else:
            saved = state.draft(page.key)
            raw = saved.text if saved is not None else None
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            return None
        base = data.get("base")
        revision = data.get("revision")
        at = data.get("at")
        return PageDraft(
            data["text"],
            base if isinstance(base, str) else "",
            revision if isinstance(revision, str) else None,
            float(at) if isinstance(at, int | float) else 0.0,
        )

    def drop(self, page: EditedPage) -> None:
        state = self._state
        self._memory.pop(page.key, None)
        if state is not None:
            state.drop_draft(page.key)

    # -- reading ---------------------------------------------------------------------------------------------

    async def open(self, space_id: str, page_id: str, *, change_request: str | int | None = None) -> EditedPage:
        """The page's markdown at the change request's revision now (or the space's main content's)."""
        number: int | float | str | None = None
        cr_id: str | None = None
        if change_request is not None:
            cr = await self._client.change_requests.get(space_id, change_request)
            revision, cr_id, number = cr.revision, cr.id, cr.number
        else:
            revision = (await self._client.spaces.get(space_id)).revision
        page = await self._read(space_id, page_id, revision, cr_id)
        if page.type == "link":
            raise NotEditable("This page is a link to elsewhere: it has no text to edit.")
        return EditedPage(
            space_id,
            page_id,
            page.title or "Untitled",
            page.path,
            page.markdown or "",
            revision,
            cr_id,
            number,
        )

    async def _read(self, space_id: str, page_id: str, revision: str | None, cr_id: str | None) -> Page:
        if revision is not None:  # exactly the text of that revision, whatever happens meanwhile
            return await self._client.content.page(space_id, page_id, revision=revision, format="markdown")
        return await self._client.content.page(space_id, page_id, change_request=cr_id, format="markdown")

    async def _theirs(self, space_id: str, cr: ChangeRequest, page_id: str) -> str | None:
        """The page's markdown in the change request now (None: not there)."""
        from folio.api.errors import NotFound

        try:
            page = await self._client.content.page(space_id, page_id, change_request=cr.id, format="markdown")
        except NotFound:
            return None
        return page.markdown or ""

    def diff(self, page: EditedPage, text: str) -> MarkdownDiff:
        return diff_markdown(page.markdown, text)

    async def open_change_requests(self, space_id: str) -> list[ChangeRequest]:
        """The user's change requests of the space that can take an edit (draft or open), newest first."""
        me = await self._me()
        found: list[ChangeRequest] = []
        for status in ("draft", "open"):
            found += await self._client.change_requests.list(space_id, status=status, creator=me, limit=100).collect()
        found.sort(key=lambda cr: cr.created_at.timestamp() if cr.created_at else 0.0, reverse=True)
        return found

    async def _me(self) -> str:
        if self._services is not None:
            return (await self._services.me()).id
        return (await self._client.users.me()).id

    # -- sending one page ------------------------------------------------------------------------------------

    async def send(
        self,
        page: EditedPage,
        text: str,
        *,
        into: str | None = None,
        subject: str | None = None,
        force: bool = False,
    ) -> Sent:
        """Send the edited ``text`` of ``page``: into the change request ``into`` (its id or number; default: the
        one the page was read from), or into a new change request titled ``subject``. Raises NothingChanged,
        MovedOn (unless ``force``), ChangeRequestClosed, NotDone after a lost answer that did nothing; the draft
        is kept until it succeeds."""
        if same_text(text, page.markdown):
            raise NothingChanged()
        self.keep(page, text)
        created = False
        target = into if into is not None else (None if subject is not None else page.change_request)
        if target is None:
            if not force:
                await self._check_main_moved_on(page)
            cr = await self._new_change_request(page.space_id, subject or page.title)
            created = True
        else:
            cr = await self._client.change_requests.get(page.space_id, target)
            if cr.status not in ("draft", "open"):
                raise ChangeRequestClosed(cr)
            if not force:
                await self._check_moved_on(page, cr)
        change = UpdatePage(page=page.page_id, document=MarkdownDocument(markdown=text))
        try:
            sent = await self._apply(page.space_id, cr, [change])
        except ApiError as exc:
            if not may_have_reached(exc):
                raise
            found = await self._found_text(page, cr, text)
            if found is None:
                raise NotDone(f"the page “{page.title}” in change request #{cr.number}") from None
            sent = Sent(found, found=True)
        self.drop(page)
        return Sent(sent.change_request, found=sent.found, created=created, pages=sent.pages)

    async def moved_on(self, page: EditedPage, into: str | None = None) -> MovedOn | None:
        """What changed in the change request since the page was read (None: nothing that touches the page)."""
        target = into or page.change_request
        if target is None:
            return None
        cr = await self._client.change_requests.get(page.space_id, target)
        try:
            await self._check_moved_on(page, cr)
        except MovedOn as moved:
            return moved
        return None

    async def _check_moved_on(self, page: EditedPage, cr: ChangeRequest) -> None:
        if cr.id == page.change_request and cr.revision == page.revision and page.revision is not None:
            return
        theirs = await self._theirs(page.space_id, cr, page.page_id)
        if theirs is None or not same_text(theirs, page.markdown):
            raise MovedOn(cr.number, cr.revision, page.markdown, theirs)

    async def _check_main_moved_on(self, page: EditedPage) -> None:
        """A new change request starts from main as it is now: when main's page is no longer the text edited,
        sending would undo someone's merged change."""
        space = await self._client.spaces.get(page.space_id)
        if page.revision is not None and space.revision == page.revision:
            return
        from folio.api.errors import NotFound

        try:
            now = await self._client.content.page(page.space_id, page.page_id, format="markdown")
            theirs: str | None = now.markdown or ""
        except NotFound:
            theirs = None
        if theirs is None or not same_text(theirs, page.markdown):
            raise MovedOn("main", space.revision, page.markdown, theirs)

    async def _new_change_request(self, space_id: str, subject: str) -> ChangeRequest:
        problem = check_subject(subject)
        if problem is not None:
            raise Invalid(problem)
        authoring = self._authoring()
        began = self.clock()
        try:
            made = await authoring.create_change_request(space_id, subject)
        except ApiError as exc:
            if not may_have_reached(exc):
                raise
            found = await authoring.find_change_request(space_id, subject, since=began)
            if found is None:
                raise NotDone(f"the new change request “{subject}”") from None
            return found.change_request
        return made.change_request

    def _authoring(self) -> AuthoringService:
        from folio.services.review.authoring import AuthoringService

        if self._services is not None:
            return self._services.authoring
        authoring = AuthoringService(self._client)
        authoring.clock = self.clock
        return authoring

    async def _apply(self, space_id: str, cr: ChangeRequest, changes: list[ContentChange]) -> Sent:
        try:
            update = await self._client.change_requests.update_content(space_id, cr.id, changes)
        except NotOffered:
            raise WritingNotOffered() from None
        if self._services is not None:
            self._services.changes.bump(("change-requests", space_id), ("content", space_id))
        pages = tuple(p for p in (c.page_id for c in update.changes if c.object != "deleted_page") if p)
        return Sent(update.change_request, pages=pages)

    async def _found_text(self, page: EditedPage, cr: ChangeRequest, text: str) -> ChangeRequest | None:
        now = await self._client.change_requests.get(page.space_id, cr.id)
        theirs = await self._theirs(page.space_id, now, page.page_id)
        return now if same_text(theirs, text) else None

    # -- a batch of tree edits -------------------------------------------------------------------------------

    async def plan(self, space_id: str, change_request: str | int) -> EditPlan:
        """An empty plan over the change request's page tree as it is now."""
        cr = await self._client.change_requests.get(space_id, change_request)
        if cr.revision is not None:
            listing = await self._client.content.pages(space_id, revision=cr.revision)
        else:
            listing = await self._client.content.pages(space_id, change_request=cr.id)
        return EditPlan(space_id, cr, cr.revision, flatten_pages(listing.pages))

    async def send_plan(self, plan: EditPlan, *, force: bool = False) -> Sent:
        """Send the plan's steps as one revision. Raises Invalid (nothing planned), ChangeRequestClosed, MovedOn
        (the change request has a newer revision than the tree the plan was made on; unless ``force``), NotDone
        after a lost answer that did nothing."""
        if not plan.steps:
            raise Invalid("Nothing is planned: nothing was sent.")
        cr = await self._client.change_requests.get(plan.space_id, plan.change_request.id)
        if cr.status not in ("draft", "open"):
            raise ChangeRequestClosed(cr)
        if not force and plan.revision is not None and cr.revision != plan.revision:
            raise MovedOn(cr.number, cr.revision, "", None, tree=True)
        try:
            sent = await self._apply(plan.space_id, cr, plan.changes)
        except ApiError as exc:
            if not may_have_reached(exc):
                raise
            found = await self._found_plan(plan)
            if found is None:
                raise NotDone(f"change request #{cr.number}'s pages") from None
            return Sent(found, found=True)
        return sent

    async def _found_plan(self, plan: EditPlan) -> ChangeRequest | None:
        """After a lost answer: the change request when every step of the plan shows in its tree now."""
        now = await self._client.change_requests.get(plan.space_id, plan.change_request.id)
        if now.revision == plan.revision:
            return None  # no new revision: nothing was applied (the batch is all or nothing)
        listing = await self._client.content.pages(plan.space_id, change_request=now.id)
        after = {e.page.id: e for e in flatten_pages(listing.pages)}
        before = {e.page.id for e in plan.pages}
        files: set[str] | None = None
        for step in plan.steps:
            change = step.change
            if isinstance(change, InsertFiles):
                if files is None:
                    listed = self._client.content.files(plan.space_id, change_request=now.id, limit=1000)
                    files = {f.name for f in await listed.collect()}
                if any(f.name not in files for f in change.files):
                    return None
            elif not _shows(change, after, before):
                return None
        return now


def _shows(change: ContentChange, after: dict[str, PageEntry], before: Iterable[str]) -> bool:
    """Whether the tree ``after`` shows the change done (a revert shows only as the new revision)."""
    if isinstance(change, DeletePage):
        return change.page not in after
    if isinstance(change, InsertPage):
        known = set(before)
        return any(
            pid not in known and e.page.title == change.title and _parent(after, pid) == change.into
            for pid, e in after.items()
        )
    if isinstance(change, UpdatePage):
        entry = after.get(change.page)
        if entry is None:
            return False
        given = change.model_fields_set
        if "title" in given and entry.page.title != change.title:
            return False
        if "slug" in given and entry.page.slug != change.slug:
            return False
        return not ("into" in given and _parent(after, change.page) != change.into)
    return True


def _parent(tree: dict[str, PageEntry], page_id: str) -> str | None:
    for pid, entry in tree.items():
        if any(child.id == page_id for child in entry.page.pages):
            return pid
    return None
