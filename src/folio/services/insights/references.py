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
import re
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
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
    "Comparison",
    "FileChange",
    "FileNode",
    "OperationChanges",
    "ProcessingWatch",
    "ReferenceService",
    "SpecFile",
    "Usage",
    "Usages",
    "compare_files",
    "compare_operations",
    "display_state",
    "file_tree",
    "files_of",
    "info_version",
    "next_delay",
    "operations",
    "processing_report",
    "slug_problem",
    "url_problem",
]

LABELS_MOST = 50
"""Versions whose own version string (``info.version``) is read for the versions list, newest first."""
LABELS_AT_ONCE = 4
"""Contents read at once for those labels."""
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


# --- what a description holds: its own version, its operations -------------------------------------------------

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")
_KEY = re.compile(r"^(\s+)(['\"]?)(.+?)\2\s*:\s*(.*?)\s*$")


def _scalar(raw: str) -> str:
    """A YAML scalar as written on its line: without a comment and its quotes."""
    value = re.sub(r"\s+#.*$", "", raw).strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return value


def _json_document(text: str) -> dict[str, Any] | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _yaml_block(text: str, key: str) -> list[str]:
    """The lines under a top-level ``key:`` of a YAML text (indented, blank and comment lines left out)."""
    lines: list[str] = []
    inside = False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            match = _TOP_KEY.match(line)
            inside = match is not None and match.group(1) == key and not match.group(2)
            continue
        if inside:
            lines.append(line)
    return lines


def info_version(text: str) -> str | None:
    """The description's own version (``info.version``) in the text of its entry file (JSON, or YAML read for
    this one key), or None where it gives none."""
    document = _json_document(text)
    if document is not None:
        info = document.get("info")
        version = info.get("version") if isinstance(info, dict) else None
        return str(version) if isinstance(version, str | int | float) and str(version).strip() else None
    block = _yaml_block(text, "info")
    if not block:
        return None
    depth = len(block[0]) - len(block[0].lstrip())
    for line in block:
        match = _KEY.match(line)
        if match and len(match.group(1)) == depth and match.group(3) == "version":
            return _scalar(match.group(4)) or None
    return None


def operations(text: str) -> dict[str, str] | None:
    """The operations of a description as ``{"GET /pets": its text}`` (JSON, or the ``paths`` of a YAML text read
    by indentation), or None when the text is neither."""
    document = _json_document(text)
    if document is not None:
        paths = document.get("paths")
        out: dict[str, str] = {}
        if isinstance(paths, dict):
            for where, item in paths.items():
                if isinstance(item, dict):
                    for method in HTTP_METHODS:
                        if method in item:
                            out[f"{method.upper()} {where}"] = json.dumps(item[method], sort_keys=True)
        return out
    if not re.search(r"^(openapi|swagger)\s*:", text, re.MULTILINE):
        return None
    lines: dict[str, list[str]] = {}
    path_depth: int | None = None
    method_depth: int | None = None
    where = ""
    current: str | None = None
    for line in _yaml_block(text, "paths"):
        depth = len(line) - len(line.lstrip())
        path_depth = depth if path_depth is None else path_depth
        match = _KEY.match(line)
        if depth <= path_depth:
            where, current, method_depth = (match.group(3) if match else line.strip()), None, None
            continue
        method_depth = depth if method_depth is None else method_depth
        if depth == method_depth:
            key = match.group(3).lower() if match else ""
            current = f"{key.upper()} {where}" if key in HTTP_METHODS else None
            if current is not None:
                lines[current] = [match.group(4)] if match and match.group(4) else []
            continue
        if current is not None:
            lines[current].append(line.strip())
    return {operation: "\n".join(text) for operation, text in lines.items()}


def _sort_key(operation: str) -> tuple[str, int]:
    method, _, where = operation.partition(" ")
    order = HTTP_METHODS.index(method.lower()) if method.lower() in HTTP_METHODS else len(HTTP_METHODS)
    return where, order


@dataclass(frozen=True)
class OperationChanges:
    """The operations (method and path) added, removed and changed from one version's description to another."""

    added: list[str]
    removed: list[str]
    changed: list[str]

    def summary(self, *, most: int = 3) -> str:
        """``Operations: 1 added (GET /pets) · 1 changed (DELETE /pet/{petId})``, or that none changed."""
        parts = []
        for name, found in (("added", self.added), ("removed", self.removed), ("changed", self.changed)):
            if found:
                shown = ", ".join(found[:most]) + (f", and {len(found) - most} more" if len(found) > most else "")
                parts.append(f"{len(found)} {name} ({shown})")
        return "Operations: " + (" · ".join(parts) if parts else "none added, removed or changed") + "."


def _entry(files: Sequence[SpecFile]) -> SpecFile | None:
    entry = next((f for f in files if f.entry), None)
    return entry if entry is not None or len(files) != 1 else files[0]


def compare_operations(before: Sequence[SpecFile], after: Sequence[SpecFile]) -> OperationChanges | None:
    """The operations of the two versions' entry files compared, or None when either cannot be read as a
    description (no entry file, or neither JSON nor YAML naming ``openapi:``)."""
    old_entry, new_entry = _entry(before), _entry(after)
    if old_entry is None or new_entry is None:
        return None
    old, new = operations(old_entry.text), operations(new_entry.text)
    if old is None or new is None:
        return None
    return OperationChanges(
        added=sorted(new.keys() - old.keys(), key=_sort_key),
        removed=sorted(old.keys() - new.keys(), key=_sort_key),
        changed=sorted((k for k in old.keys() & new.keys() if old[k] != new[k]), key=_sort_key),
    )


@dataclass(frozen=True)
class Comparison:
    """Two versions compared: each file, and the operations of their entry files (None: not readable)."""

    files: list[FileChange]
    operations: OperationChanges | None


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
        return (await self.comparison(org_id, slug, older, newer)).files

    async def comparison(self, org_id: str, slug: str, older: str, newer: str) -> Comparison:
        """``older`` -> ``newer``: their files, and the operations added, removed and changed (method and path)."""
        (_, before), (_, after) = await asyncio.gather(
            self.version_files(org_id, slug, older), self.version_files(org_id, slug, newer)
        )
        return Comparison(compare_files(before, after), await asyncio.to_thread(compare_operations, before, after))

    async def version_labels(
        self, org_id: str, slug: str, version_ids: Sequence[str], *, most: int = LABELS_MOST
    ) -> dict[str, str]:
        """The description's own version (``info.version``) of each of the first ``most`` versions, read from
        their content a few at a time; a version whose content cannot be read or gives none is left out."""
        gate = asyncio.Semaphore(LABELS_AT_ONCE)

        async def one(version_id: str) -> tuple[str, str | None]:
            async with gate:
                try:
                    _, files = await self.version_files(org_id, slug, version_id)
                except ApiError:
                    return version_id, None
            entry = _entry(files)
            return version_id, (info_version(entry.text) if entry is not None else None)

        found = await asyncio.gather(*(one(v) for v in version_ids[:most]))
        return {version_id: label for version_id, label in found if label}

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
