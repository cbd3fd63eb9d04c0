"""Imported OpenAPI descriptions of an organization (spec sections 2.9 and 4.1), as the specs screen and a spec's
screens use them: the list, adding one by slug and URL, a new source, visibility, deleting; the processing state in
words and the polite pace of following it; a version's files and the comparison of two versions; where a spec is
used, from cached pages only.

    refs = services.references
    async for page in refs.specs_pages(org_id): ...
    spec = await refs.create(org_id, "petstore", "https://example.com/openapi.yaml")
    files = await refs.version_files(org_id, "petstore", version_id)       # SpecFile: path, text, entry
    changes = await refs.compare(org_id, "petstore", older_id, newer_id)    # FileChange: added/removed/changed/same

The pure parts (``slug_problem``, ``display_state``, ``next_delay``, ``files_of``, ``file_tree``,
``compare_files``) are plain functions a unit test can call.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from folio.api import limits
from folio.api.errors import ApiError, InvalidRequest, NotFound
from folio.api.resources.openapi import check_slug, check_source_url
from folio.models.openapi import OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion, OpenAPIVisibility

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.space import SpaceSummary
    from folio.services import Services

__all__ = [
    "POLL_FIRST",
    "POLL_MAX",
    "FileChange",
    "FileNode",
    "ProcessingWatch",
    "ReferenceService",
    "SpecFile",
    "Usage",
    "Usages",
    "compare_files",
    "display_state",
    "file_tree",
    "files_of",
    "next_delay",
    "processing_report",
    "slug_problem",
    "url_problem",
]

PAGE_SIZE = 100
"""Specs a request; also the page size the organization screen reads spaces with (its cached pages)."""
POLL_FIRST = 2.0
"""Seconds before the first look at a spec being processed."""
POLL_MAX = 30.0
"""The longest wait between two looks: each look that finds it still processing doubles the wait up to here."""

State = Literal["pending", "progress", "complete", "failed"]


# --- checks as the user types -------------------------------------------------------------------------------


def _words(exc: InvalidRequest, label: str) -> str:
    return f"{label} {exc.problem}; the limit is {exc.limit}."


def slug_problem(slug: str) -> str | None:
    """What is wrong with a spec slug (None: fine to send): 1..100 letters and digits in dash-separated groups."""
    try:
        check_slug(slug)
    except InvalidRequest as exc:
        if "pattern" in exc.limit:
            return "Slug: letters and digits in groups joined by single dashes (petstore, billing-v2)."
        return _words(exc, "Slug")
    return None


def url_problem(url: str) -> str | None:
    """What is wrong with a source URL (None: fine): an http(s) URI of at most 2,048 characters, without spaces."""
    if not url.strip():
        return "Write the URL of the OpenAPI description (http:// or https://)."
    try:
        check_source_url("sourceURL", url)
    except InvalidRequest as exc:
        return _words(exc, "Source URL")
    if not url.lower().startswith(("http://", "https://")):
        return "Source URL must start with http:// or https://."
    return None


# --- the processing state -----------------------------------------------------------------------------------


def display_state(spec: OpenAPISpec) -> State:
    """``pending`` / ``progress`` while processing; ``failed`` when the last run left an error code; else
    ``complete`` (the service has no ``failed`` state: a failed run completes with ``lastProcessErrorCode``)."""
    if spec.processing_state == "progress":
        return "progress"
    if spec.is_processing:
        return "pending"
    return "failed" if spec.last_process_error_code else "complete"


def processing_report(spec: OpenAPISpec, *, most: int = 5, heading: bool = True) -> str:
    """What the last run said, for a notification: the error code (``heading``), then each error on its own line."""
    lines = [f"{spec.last_process_error_code or 'Errors'}:"] if spec.has_errors and heading else []
    for error in spec.last_processed_errors[:most]:
        code = f"{error.code}: " if error.code and error.code != spec.last_process_error_code else ""
        lines.append(f"• {code}{error.message}")
    hidden = spec.error_count - min(most, len(spec.last_processed_errors))
    if hidden > 0:
        lines.append(f"… and {hidden} more")
    return "\n".join(lines)


def next_delay(delay: float) -> float:
    """The wait after a look that found a spec still processing: double, up to :data:`POLL_MAX`."""
    return min(max(delay, POLL_FIRST) * 2, POLL_MAX)


class ProcessingWatch:
    """Which specs are followed while the service processes them, and how long to wait before the next look
    (pure: the screen owns the timer). A spec is followed once seen processing (or once a write answered it so);
    :meth:`ended` hands back each one whose processing ended, once."""

    def __init__(self) -> None:
        self.slugs: set[str] = set()
        self.delay = POLL_FIRST

    def follow(self, spec: OpenAPISpec) -> bool:
        """A write answered ``spec``: follow it from the first wait (True: it is being processed)."""
        if not spec.is_processing:
            return False
        self.slugs.add(spec.slug)
        self.delay = POLL_FIRST
        return True

    def ended(self, specs: Iterable[OpenAPISpec]) -> list[OpenAPISpec]:
        """The followed specs of ``specs`` (the whole list as read now) no longer processing; the ones
        processing now are followed from here on, the ones gone are forgotten."""
        by_slug = {s.slug: s for s in specs}
        done = [by_slug[slug] for slug in sorted(self.slugs) if slug in by_slug and not by_slug[slug].is_processing]
        self.slugs = {slug for slug in self.slugs if slug in by_slug} - {s.slug for s in done}
        self.slugs.update(s.slug for s in by_slug.values() if s.is_processing)
        return done

    def looked(self) -> None:
        """A look found specs still processing: wait longer before the next one."""
        self.delay = next_delay(self.delay)

    def reset(self) -> None:
        self.delay = POLL_FIRST

    def forget(self, slug: str) -> None:
        self.slugs.discard(slug)


# --- a version's files --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpecFile:
    """One file of a version's filesystem: its path, its text (JSON shown indented), whether it is the entry."""

    path: str
    text: str
    entry: bool = False

    @property
    def lines(self) -> int:
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)


@dataclass(frozen=True)
class FileNode:
    """A row of the files tree: a folder (``file`` None) or a file, at ``depth``."""

    path: str
    name: str
    depth: int
    file: SpecFile | None = None


def _text_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False)


def files_of(filesystem: Mapping[str, Any]) -> list[SpecFile]:
    """The files of a version's ``filesystem``, by path. The description leaves its shape open: ``files`` as a
    map of path to content (or a list of ``{path, content}``) with an ``entrypoint``, or else the map itself."""
    files = filesystem.get("files")
    entry = filesystem.get("entrypoint")
    pairs: list[tuple[str, Any]] = []
    if isinstance(files, Mapping):
        pairs = [(str(path), content) for path, content in files.items()]
    elif isinstance(files, list):
        for item in files:
            if isinstance(item, Mapping):
                path = item.get("path") or item.get("name")
                if path:
                    pairs.append((str(path), item.get("content", item.get("text", ""))))
    else:
        pairs = [(str(path), content) for path, content in filesystem.items()]
    return sorted(
        (SpecFile(path.strip("/"), _text_of(content), entry=path == entry) for path, content in pairs),
        key=lambda f: f.path,
    )


def file_tree(paths: Iterable[str]) -> list[tuple[str, str, int, bool]]:
    """``(path, name, depth, is_folder)`` rows of the folders and files of ``paths``, folders before their files."""
    rows: list[tuple[str, str, int, bool]] = []
    seen: set[str] = set()
    for path in sorted(paths, key=lambda p: p.split("/")):
        parts = path.split("/")
        for depth in range(len(parts) - 1):
            folder = "/".join(parts[: depth + 1])
            if folder not in seen:
                seen.add(folder)
                rows.append((folder, parts[depth] + "/", depth, True))
        rows.append((path, parts[-1], len(parts) - 1, False))
    return rows


Change = Literal["added", "removed", "changed", "same"]


@dataclass(frozen=True)
class FileChange:
    """A file of either version: what happened to it from ``before`` (the older) to ``after``."""

    path: str
    status: Change
    before: str | None
    after: str | None


def compare_files(before: Iterable[SpecFile], after: Iterable[SpecFile]) -> list[FileChange]:
    """Every file of either version, by path, with whether it was added, removed, changed or kept the same."""
    old = {f.path: f.text for f in before}
    new = {f.path: f.text for f in after}
    out: list[FileChange] = []
    for path in sorted(old.keys() | new.keys(), key=lambda p: p.split("/")):
        a, b = old.get(path), new.get(path)
        status: Change = "added" if a is None else "removed" if b is None else "same" if a == b else "changed"
        out.append(FileChange(path, status, a, b))
    return out


# --- where a spec is used -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Usage:
    space_id: str
    space_title: str
    page_id: str
    page_title: str


@dataclass(frozen=True)
class Usages:
    """Pages (of type ``builtin:openapi``) that name the spec, found in the cached pages of ``spaces_read`` of
    the ``spaces_total`` spaces (None: the organization's spaces are not in the cache)."""

    pages: list[Usage]
    spaces_read: int
    spaces_total: int | None


def _names_spec(dependencies: Mapping[str, Any], slug: str) -> bool:
    for value in dependencies.values():
        ref = value.get("ref") if isinstance(value, Mapping) else None
        if isinstance(ref, Mapping) and ref.get("kind") == "openapi" and ref.get("spec") == slug:
            return True
    return False


# --- the service --------------------------------------------------------------------------------------------


class ReferenceService:
    """The OpenAPI specs of an organization, their versions and content."""

    def __init__(self, client: GitBookClient, services: Services) -> None:
        self._client = client
        self._services = services

    async def specs_pages(self, org_id: str) -> AsyncIterator[list[OpenAPISpec]]:
        async for envelope in self._client.openapi.list(org_id, limit=PAGE_SIZE).pages():
            yield list(envelope.items)

    async def get(self, org_id: str, slug: str) -> OpenAPISpec:
        return await self._client.openapi.get(org_id, slug)

    async def find(self, org_id: str, slug: str) -> OpenAPISpec | None:
        """The spec with this slug, or None: how a create whose answer was lost is looked for."""
        try:
            return await self._client.openapi.get(org_id, slug)
        except NotFound:
            return None

    async def create(self, org_id: str, slug: str, url: str) -> OpenAPISpec:
        """Import a spec from ``url`` (it answers ``pending``: processing follows)."""
        return await self._client.openapi.create(org_id, slug=slug, url=url)

    async def update_source(self, org_id: str, slug: str, url: str) -> OpenAPISpec:
        """A new source URL (the PUT): a new version, processed again. Sent once: each PUT that arrives adds a
        version, so a lost answer is looked for (:meth:`find_source`) before the PUT is sent again."""
        return await self._client.openapi.put(org_id, slug, url=url)

    async def find_source(self, org_id: str, slug: str, url: str, *, before: str | None) -> OpenAPISpec | None:
        """The spec after a new source whose answer was lost, or None when it did not arrive: it arrived when the
        spec now reads from ``url`` and its latest version is not ``before`` (the latest version when the PUT was
        sent). The same URL sent again still counts only once it made a version."""
        found = await self.find(org_id, slug)
        if found is None or found.source_url != url or found.last_version is None:
            return None
        return found if found.last_version != before else None

    async def set_visibility(self, org_id: str, slug: str, visibility: OpenAPIVisibility) -> OpenAPISpec:
        return await self._client.openapi.update(org_id, slug, visibility=visibility)

    async def delete(self, org_id: str, slug: str) -> None:
        await self._client.openapi.delete(org_id, slug)

    async def versions(self, org_id: str, slug: str) -> list[OpenAPISpecVersion]:
        """Every version, newest first (the service's order, kept for versions without a date)."""
        versions = await self._client.openapi.versions(org_id, slug, limit=limits.LIST_LIMIT_MAX).collect()
        if all(v.created_at is not None for v in versions):
            versions.sort(key=lambda v: v.created_at, reverse=True)  # type: ignore[arg-type,return-value]
        return versions

    async def content(self, org_id: str, slug: str, version_id: str) -> OpenAPISpecContent:
        return await self._client.openapi.version_content(org_id, slug, version_id)

    async def version_files(self, org_id: str, slug: str, version_id: str) -> tuple[OpenAPISpecContent, list[SpecFile]]:
        """A version's content and its files (the JSON is laid out as text off the event loop)."""
        content = await self.content(org_id, slug, version_id)
        return content, await asyncio.to_thread(files_of, content.filesystem)

    async def compare(self, org_id: str, slug: str, older: str, newer: str) -> list[FileChange]:
        """The files of two versions side by side: added, removed, changed, the same (``older`` -> ``newer``)."""
        (_, before), (_, after) = await asyncio.gather(
            self.version_files(org_id, slug, older), self.version_files(org_id, slug, newer)
        )
        return compare_files(before, after)

    async def usages(self, org_id: str, slug: str) -> Usages:
        """The pages that show the spec, read from the local cache only: the organization's spaces as the
        organization screen cached them, and the page tree of each space opened before. No request is sent."""
        with self._services.connection.cache_only():
            spaces = await self._cached_spaces(org_id)
            if spaces is None:
                return Usages([], 0, None)
            found: list[Usage] = []
            read = 0
            for space in spaces:
                try:
                    listing = await self._client.content.pages(space.id)
                except ApiError:  # not cached: this space was never opened here
                    continue
                read += 1
                for page in listing.walk():
                    computed = page.computed
                    if computed and computed.type == "builtin:openapi" and _names_spec(computed.dependencies, slug):
                        found.append(Usage(space.id, space.title or space.id, page.id, page.title or page.id))
            return Usages(found, read, len(spaces))

    async def _cached_spaces(self, org_id: str) -> list[SpaceSummary] | None:
        for size in (PAGE_SIZE, limits.LIST_LIMIT_MAX):  # the spaces tab's reads, then the bulk ones
            try:
                spaces = await self._client.spaces.summaries(org_id, limit=size).collect()
            except ApiError:
                continue
            return [s for s in spaces if not s.deleted]
        return None
