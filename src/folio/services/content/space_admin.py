"""What is changed on a space (spec 2.5, 3, 4.7): its title, emoji, default role, language and merge rules, the
edit mode (live or locked), a duplicate, a transfer to another organization and/or collection, deletion; and the
content the space screen shows beside its tabs (4.8, 4.9): the current revision, a file's backlinks, the current
revision compared with a change request's, and one page's links.

    admin = SpaceAdminService(client, services)
    await admin.set_locked(space, True)
    uses = await admin.file_uses(space.id, file_id)         # uses.offered is False on a service without it
    facts = await admin.revision(space.id)
    changes = await admin.compare(space.id, cr)             # a review ChangeSet: current -> the change request

No Textual here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from folio.api.errors import Conflict, NotOffered
from folio.api.resources.spaces import EMOJI_MAX, SPACE_TITLE_MAX
from folio.models.common import ContentRefFile, ContentRefPage
from folio.models.emoji import EMOJI_FORMAT, is_emoji
from folio.models.space import KNOWN_LANGUAGES
from folio.services import format
from folio.services.content.collections import DEFAULT_LEVELS
from folio.services.content.space import FileEntry, LinkEntry, LinksReport, PageEntry, flatten_pages, space_facts
from folio.services.reconcile import send_or_read
from folio.services.review.review import ChangeSet, build_change_set

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest
    from folio.models.content import BacklinkRecord, ContentLink
    from folio.models.member import Member
    from folio.models.organization import Organization
    from folio.models.space import Collection, Space
    from folio.services import Services

__all__ = [
    "REVIEWER_RULE",
    "FileUse",
    "FileUses",
    "RevisionFacts",
    "SpaceAdminService",
    "check_space",
    "git_words",
    "merge_mode",
    "space_changes",
    "space_header",
]

REVIEWER_RULE = "require_specific_reviewers"
"""The merge rule that names reviewers (spec 2.5)."""


def merge_mode(space: Space) -> tuple[str, list[str]]:
    """``("inherit", [])`` or ``("rules", [user ids of the specific reviewers])`` (other rules: ``rules``)."""
    rules = space.merge_rules
    if rules is None or rules.type == "inherit":
        return "inherit", []
    users = [u for rule in rules.rules if rule.rule == REVIEWER_RULE for u in rule.users]
    return str(rules.type), users


def check_space(values: Mapping[str, Any]) -> dict[str, str]:
    """The spec's limits on a space's fields: ``{field: problem}``."""
    problems: dict[str, str] = {}
    if "title" in values:
        title = str(values.get("title") or "")
        if not title.strip():
            problems["title"] = f"A space needs a title (1 to {SPACE_TITLE_MAX} characters)."
        elif len(title) > SPACE_TITLE_MAX:
            problems["title"] = f"At most {SPACE_TITLE_MAX} characters: this title has {len(title)}."
    emoji = str(values.get("emoji") or "")
    if len(emoji) > EMOJI_MAX:
        problems["emoji"] = f"At most {EMOJI_MAX} characters."
    elif emoji and not is_emoji(emoji):
        problems["emoji"] = f"Not an emoji: type {EMOJI_FORMAT} (or nothing, for none)."
    language = values.get("language")
    if language and language not in KNOWN_LANGUAGES:
        problems["language"] = f"Not a language the service knows (such as {', '.join(KNOWN_LANGUAGES[:4])})."
    level = values.get("default_level")
    if level is not None and level not in {value for _, value in DEFAULT_LEVELS}:
        problems["default_level"] = "Pick one of the roles offered."
    if values.get("merge") == "rules" and not values.get("reviewers"):
        problems["reviewers"] = "Pick at least one reviewer, or let the space inherit the organization's rules."
    return problems


def space_changes(space: Space, values: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``values`` that differ from the space, as the update takes them (``emoji=None`` removes it;
    ``merge_rules`` is ``{type: inherit}`` or the rules naming the reviewers picked)."""
    out: dict[str, Any] = {}
    if "title" in values and values["title"] != space.title:
        out["title"] = values["title"]
    if "emoji" in values and (values["emoji"] or None) != (space.emoji or None):
        out["emoji"] = values["emoji"] or None
    if values.get("default_level") and values["default_level"] != space.default_level:
        out["default_level"] = values["default_level"]
    if values.get("language") and values["language"] != space.language:
        out["language"] = values["language"]
    if "merge" in values:
        mode, reviewers = merge_mode(space)
        wanted = values["merge"]
        picked = list(values.get("reviewers") or [])
        if wanted == "inherit" and mode != "inherit":
            out["merge_rules"] = {"type": "inherit"}
        elif wanted == "rules" and (mode != "rules" or sorted(picked) != sorted(reviewers)):
            # The space's other rules (bypass, custom...) stay as they are; only the reviewers are replaced.
            kept = [
                rule.model_dump(mode="json", by_alias=True, exclude_none=True)
                for rule in (space.merge_rules.rules if space.merge_rules and mode == "rules" else [])
                if rule.rule != REVIEWER_RULE
            ]
            out["merge_rules"] = {"type": "rules", "rules": [*kept, {"rule": REVIEWER_RULE, "users": picked}]}
    return out


def git_words(space: Space) -> str:
    """``Git: northwind/docs (github, synced 3 mo ago)``; empty for a space not synced with Git."""
    sync = space.git_sync
    if sync is None or not (sync.repo_name or sync.url):
        return ""
    provider = f"{sync.installation_provider}, " if sync.installation_provider else ""
    when = f"synced {format.ago(sync.updated_at)}" if sync.updated_at else "synced"
    return f"Git: {sync.repo_name or sync.url} ({provider}{when})"


def space_header(space: Space) -> str:
    """The line under the space screen's header: visibility, edit mode, Git sync (where synced), language, open
    change requests and comments (:func:`~folio.services.content.space.space_facts` with the Git sync put in)."""
    facts, git = space_facts(space), git_words(space)
    head, language, tail = facts.partition(" · Language ")
    return f"{head} · {git}{language}{tail}" if git and language else facts


# --- content beside the tabs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileUse:
    """A place that references a file: the space, and the page when the service says."""

    space: str
    page: str
    path: str = ""


@dataclass(frozen=True)
class FileUses:
    """A file's backlinks: ``offered`` is False when the service does not have the operation."""

    offered: bool = True
    uses: tuple[FileUse, ...] = ()

    @property
    def summary(self) -> str:
        """``Used on 2 pages in 1 space`` / ``Not used on any page``."""
        if not self.offered:
            return "This service does not say where files are used."
        if not self.uses:
            return "Not used on any page."
        pages = len({(u.space, u.page) for u in self.uses if u.page})
        spaces = len({u.space for u in self.uses})
        where = format.count(pages, "page") + " in " if pages else ""
        return f"Used on {where}{format.count(spaces, 'space')}"


def _use(record: BacklinkRecord) -> FileUse:
    space = (record.space.title or record.space.id) if record.space else "another space"
    page = record.page
    return FileUse(space, (page.title or page.id) if page else "", (page.path or "") if page else "")


@dataclass(frozen=True)
class RevisionFacts:
    """The space's current revision: its id, kind, when it was made, its Git commit (where synced) and pages."""

    id: str
    type: str
    created: str
    parents: int
    message: str = ""
    commit: str = ""
    commit_url: str | None = None
    ref: str = ""
    url: str | None = None
    files: int = 0
    pages: list[PageEntry] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The facts as lines a person reads (the screen makes them safe)."""
        out = [
            f"Revision {self.id} · {self.type} · created {self.created}",
            f"{format.count(len(self.pages), 'page')} · {format.count(self.files, 'file')} · "
            f"{format.count(self.parents, 'parent')}",
        ]
        if self.commit:
            out.append(f"Git commit {self.commit[:12]}" + (f" on {self.ref}" if self.ref else "") + f": {self.message}")
        elif self.message:
            out.append(f"Git message: {self.message}")
        else:
            out.append("Not synced with Git: no commit.")
        return out


def _link_entry(link: ContentLink, pages: Mapping[str, str], files: Mapping[str, str]) -> LinkEntry:
    """One link of a page, its target named after the page or file it points to."""
    ref, status = link.target_reference, str(link.status)
    if isinstance(ref, ContentRefPage):
        name = pages.get(ref.page)
        return LinkEntry(status, "page", ref.page, name or f"Missing page {ref.page}")
    if isinstance(ref, ContentRefFile):
        name = files.get(ref.file)
        return LinkEntry(status, "file", ref.file, name or f"Missing file {ref.file}")
    if ref is None:
        return LinkEntry(status, "unknown", "", "(no target)")
    extra = ref.model_extra or {}
    url = extra["url"] if isinstance(extra.get("url"), str) else None
    kind = str(getattr(ref, "kind", "other"))
    target = url or next((v for v in extra.values() if isinstance(v, str)), "")
    return LinkEntry(status, kind, target, url or f"{kind} {target}".strip(), url)


class SpaceAdminService:
    """Changes to spaces, and the reads the space screen adds to its tabs."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services

    def _changed(self, *org_ids: str | None) -> None:
        if self._services is not None:
            for org_id in org_ids:
                self._services.changes.bump(("spaces",), ("spaces", org_id), ("trash", org_id))

    # -- changes ----------------------------------------------------------------------------------------------

    async def space(self, space_id: str) -> Space:
        return await self._client.spaces.get(space_id)

    async def update(self, space: Space, changes: Mapping[str, Any]) -> Space:
        """Send the fields that changed (:func:`space_changes`)."""
        sent = await self._client.spaces.update(space.id, **dict(changes))
        self._changed(space.organization)
        return sent

    async def set_locked(self, space: Space, locked: bool) -> Space:
        """Lock every edit (``editMode`` locked), or let members edit directly again (live)."""
        return await self.update(space, {"edit_mode": "locked" if locked else "live"})

    async def duplicate(self, space: Space) -> Space:
        """A copy of the space and its content, in the same collection."""
        copy = await self._client.spaces.duplicate(space.id)
        self._changed(space.organization)
        return copy

    async def find_duplicate(self, space: Space, known: Sequence[str]) -> Space | None:
        """After a lost answer: a space of the organization that was not there before (``known``: the ids there
        were) and whose title begins with this one's (a copy is named after it)."""
        if not space.organization:
            return None
        found = await self._client.spaces.list(space.organization, limit=1000).collect()
        stem = (space.title or "")[:20]
        return next((s for s in found if s.id not in known and (s.title or "").startswith(stem)), None)

    async def known_ids(self, org_id: str | None) -> list[str]:
        """The ids of the organization's spaces now (to find a duplicate whose answer was lost)."""
        if not org_id:
            return []
        return [s.id for s in await self._client.spaces.summaries(org_id, limit=1000).collect()]

    async def transfer(self, space: Space, org_id: str, collection: str | None = None) -> Space:
        """Move the space to organization ``org_id`` (its root, or ``collection`` there); after a lost answer (or
        a 409: it is there already) the space is read, and found there it is what is returned."""

        async def read() -> Space | None:
            now = await self._client.spaces.get(space.id)
            return now if now.organization == org_id and now.parent == collection else None

        moved = await send_or_read(
            lambda: self._client.spaces.transfer(space.id, organization=org_id, collection=collection),
            read,
            refused=(Conflict,),
            what="the space",
        )
        self._changed(space.organization, org_id)
        return moved

    async def delete(self, space: Space) -> bool:
        """Delete the space (restorable for 7 days). False when it was gone already."""
        if self._services is not None and space.organization:  # the trash finds it among the spaces it saw
            self._services.trash.saw(space.organization, [space])
        existed = await self._client.spaces.delete(space.id)
        self._changed(space.organization)
        return existed

    async def organizations(self) -> list[Organization]:
        return await self._client.organizations.list().collect()

    async def collections(self, org_id: str) -> list[Collection]:
        return await self._client.collections.list(org_id, limit=1000).collect()

    async def members(self, org_id: str) -> list[Member]:
        return await self._client.members.list(org_id, limit=1000).collect()

    # -- content ----------------------------------------------------------------------------------------------

    async def file_uses(self, space_id: str, file_id: str) -> FileUses:
        """Which pages (of which spaces) reference the file."""
        try:
            records = await self._client.content.file_backlinks(space_id, file_id, limit=1000).collect()
        except NotOffered:
            return FileUses(offered=False)
        return FileUses(True, tuple(_use(r) for r in records))

    async def revision(self, space_id: str) -> RevisionFacts:
        """The space's current revision, with its pages in reading order."""
        rev = await self._client.content.revision(space_id)
        git = rev.git
        return RevisionFacts(
            id=rev.id,
            type=str(rev.type),
            created=format.when(rev.created_at),
            parents=len(rev.parents),
            message=(git.message or "") if git else "",
            commit=(git.oid or "") if git else "",
            commit_url=git.url if git else None,
            ref=(git.ref or "").removeprefix("refs/heads/") if git else "",
            url=rev.urls.app if rev.urls else None,
            files=len(rev.files),
            pages=flatten_pages(rev.pages),
        )

    async def revision_markdown(self, space_id: str, revision_id: str, page: PageEntry) -> str:
        """A page of a revision, as markdown (from the revision when it came with it)."""
        if page.page.markdown is not None:
            return page.page.markdown
        full = await self._client.content.page(space_id, page.page.id, revision=revision_id, format="markdown")
        return full.markdown or ""

    async def compare(self, space_id: str, cr: ChangeRequest) -> ChangeSet:
        """The current revision's pages against the change request's: what merging it would change now."""
        current, proposed = await asyncio.gather(
            self._client.content.pages(space_id), self._client.content.pages(space_id, change_request=cr.id)
        )
        return build_change_set(cr, current.pages, proposed.pages, [])

    async def page_links(
        self,
        space_id: str,
        page_id: str,
        *,
        pages: Sequence[PageEntry] = (),
        files: Sequence[FileEntry] | None = None,
    ) -> LinksReport:
        """The links one page makes, broken ones marked; ``offered=False`` when the service lacks the list."""
        raw: list[ContentLink] = []
        total = broken = None
        try:
            async for envelope in self._client.content.page_links(space_id, page_id, limit=1000).pages():
                raw.extend(envelope.items)
                stats = getattr(envelope, "stats", None)
                if stats is not None and total is None:
                    total, broken = stats.total, stats.broken.total
        except NotOffered:
            return LinksReport(offered=False)
        if files is None and any(isinstance(link.target_reference, ContentRefFile) for link in raw):
            found = await self._client.content.files(space_id, limit=1000).collect()
            files = [FileEntry.of(f) for f in found]
        page_names = {e.page.id: e.page.title or e.page.id for e in pages}
        file_names = {f.id: f.name for f in files or ()}
        entries = [_link_entry(link, page_names, file_names) for link in raw]
        return LinksReport(
            offered=True,
            links=entries,
            total=total if total is not None else len(entries),
            broken=broken if broken is not None else sum(1 for e in entries if e.broken),
        )
