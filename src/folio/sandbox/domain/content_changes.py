"""A batch of content changes applied to a change request (the public description's ``updateChangeRequestContent``:
``POST /spaces/{spaceId}/change-requests/{changeRequestId}/content``), as the sandbox does it.

api-spec.md does not list this operation; the sandbox follows the public description (``@gitbook/api`` 0.202.0):

- The batch (1 to :data:`MAX_CHANGES` changes) is applied in order to a copy of the change request's pages and
  files. Any invalid change refuses the whole batch and nothing is kept; the error (the service's
  ``{"error": {"code", "message"}}``) names the change: ``changes[<index>]`` and why. A valid batch makes one new
  revision of the change request (its parent: the revision it had).
- ``insert_page``: ``document`` required (``{markdown}`` or ``{}``); the title is the markdown's frontmatter
  ``title``, else its leading ``# heading``, else ``title``, else "Untitled"; ``into``/``at`` place it; ``ref``
  names it for links from the same batch (``./<ref>.md``).
- ``update_page``: ``document`` (markdown), metadata, ``into`` (a page id, or null for the root) / ``at`` to
  move. Changing ``title`` alone keeps the slug (the page's URL), as the description says.
- Metadata of both: ``title`` (1 or more characters), ``slug``, ``emoji`` and ``icon`` (at most 50 characters,
  empty removes), ``description``, ``hidden``, ``noIndex``, ``noRobotsIndex``, ``condition`` (empty removes).
  A markdown document's frontmatter (``---`` lines of ``key: value``) sets the same fields and takes precedence;
  it is not kept in the page's markdown.
- Slugs: the description gives 0 to 100 characters and "unique among the page's siblings"; the sandbox also
  wants 1 or more characters of lower-case letters, digits, ``-``, ``_`` and ``.`` (no ``/``, no spaces), not
  starting or ending with a separator. A slug left out is derived from the title. Two sibling pages with one
  slug: refused at the change that would make them.
- ``delete_page``: the page and its subpages.
- ``revert_page``: the page back to its state in ``revision`` (default: the change request's base, the main
  revision it was created from or last updated from): content, metadata, slug and place (parent, index); a page
  the revision lacks is removed (its subpages that the revision has take its place), one the change request
  deleted comes back with its subpages. ``block`` (reverting single blocks) is refused: the sandbox reverts
  whole pages.
- ``insert_files``: 1 to :data:`MAX_FILES` files, each ``name`` (1 to 256 characters) and exactly one of
  ``base64`` (with ``contentType``; the bytes at most :data:`MAX_FILE_BYTES`, else 413) or ``url`` (http(s), at
  most 2048 characters; a host that is a private, loopback or reserved address, or ``localhost``, is refused;
  the sandbox never fetches it: the file is recorded with the url as its ``downloadURL`` and size 0). Files are
  added to the revision; the bytes are kept with the file record (``data``, never rendered). ``ref`` names a file
  for ``./<ref>`` links in the batch.
- Links in the markdown of the pages the batch inserts or updates are resolved once every change is applied
  (so a ref works whatever the order), against the change request's new page tree, and recorded in the stored
  markdown as ``/pages/<pageId>`` (``#anchor`` kept) or ``/files/<fileId>``: page ids, slug paths
  (``/pages/guides/start``), Git paths (``/pages/guides/start.md``, ``/pages/guides/README.md``,
  ``/pages/README.md`` for the first page) and relative links (``./sibling.md``, ``../other.md``, ``./folder``)
  read against the page's Git path (``<path>.md``, or ``<path>/README.md`` when it has subpages). External urls
  are kept; a link that matches nothing is left as its plain text. Links in fenced code are not touched.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import mimetypes
import posixpath
import re
import struct
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from folio.sandbox.domain.change_requests import base_revision_id
from folio.sandbox.errors import SandboxError, bad_request
from folio.sandbox.revisions import clone_pages, find_page, flat, make_page, new_revision, slugify, walk
from folio.sandbox.state import Record, SandboxState

__all__ = [
    "MAX_CHANGES",
    "MAX_CONTENT_BODY_BYTES",
    "MAX_FILES",
    "MAX_FILE_BYTES",
    "Applied",
    "apply_content_changes",
]

MAX_CHANGES = 50
"""Changes in one batch (the description's ``maxItems``)."""

MAX_FILES = 20
"""Files in one ``insert_files`` change (the description's ``maxItems``)."""

MAX_FILE_BYTES = 1_048_576
"""The largest file sent as ``base64`` once decoded: the description's "max 1MB", read as 1 MiB."""

MAX_CONTENT_BODY_BYTES = 8 * 1_048_576
"""The largest body of this operation (8 MiB): enough for a few files at their largest (base64 adds a third);
the sandbox's usual 1 MiB cap would refuse a single full-size file. Over it: 413."""

OPERATIONS = ("insert_page", "update_page", "delete_page", "revert_page", "insert_files")
_STRINGS = {"title": None, "slug": 100, "emoji": 50, "icon": 50, "description": None, "condition": None}
_FLAGS = ("hidden", "noIndex", "noRobotsIndex")
_REMOVABLE = ("emoji", "icon", "condition")
_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$")
_FRONTMATTER = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.S)
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$")
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(\s*([^)\s]+)((?:\s+\"[^\"]*\")?)\s*\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass
class Applied:
    """What a batch did: ``changes`` (the description's ChangeRequestContentUpdateChange entries, without urls:
    ``{object: created_page|updated_page|deleted_page, page: id, ref?}``), the files it inserted, in order."""

    changes: list[Record] = field(default_factory=list)
    inserted_files: list[Record] = field(default_factory=list)


@dataclass
class _Batch:
    state: SandboxState
    cr: Record
    pages: list[Record]
    files: list[Record]
    when: str
    existing_paths: set[str]
    page_refs: dict[str, str] = field(default_factory=dict)  # ref -> page id
    file_refs: dict[str, str] = field(default_factory=dict)  # ref -> file id
    created_refs: dict[str, str] = field(default_factory=dict)  # page id -> ref
    order: list[str] = field(default_factory=list)  # page ids, first touch order
    to_resolve: list[str] = field(default_factory=list)  # page ids whose new markdown has links to resolve
    inserted_files: list[Record] = field(default_factory=list)

    def touch(self, page_id: str) -> None:
        if page_id not in self.order:
            self.order.append(page_id)


class _Refused(Exception):
    """A change is invalid: ``field`` (after ``changes[n]``) and why, and the status (400, or 413 for size)."""

    def __init__(self, where: str, why: str, status: int = 400) -> None:
        super().__init__(why)
        self.where = where
        self.why = why
        self.status = status


# --- fields ----------------------------------------------------------------------------------------------


def _frontmatter(markdown: str) -> tuple[Record, str]:
    """The frontmatter's ``key: value`` pairs (booleans read as such, quotes taken off) and the markdown after."""
    match = _FRONTMATTER.match(markdown)
    if match is None:
        return {}, markdown
    meta: Record = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if not sep or line[:1].isspace() or not key.strip():
            continue
        text = value.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            meta[key.strip()] = text[1:-1]
        elif text in ("true", "false"):
            meta[key.strip()] = text == "true"
        elif text:
            meta[key.strip()] = text
    return meta, markdown[match.end() :]


def _document(change: Record) -> tuple[str | None, Record]:
    """The change's markdown (None when it has no document) and its frontmatter."""
    if "document" not in change:
        return None, {}
    document = change["document"]
    if not isinstance(document, dict):
        raise _Refused("document", "must be an object: {markdown: string}, or {} for an empty page")
    if not document:
        return "", {}
    markdown = document.get("markdown")
    if "document" in document and markdown is None:
        raise _Refused("document", "the sandbox takes markdown documents ({markdown: string}), not JSON documents")
    if not isinstance(markdown, str):
        raise _Refused("document.markdown", "must be a string")
    meta, body = _frontmatter(markdown)
    return body, meta


def _check_meta(values: Record, where: str) -> Record:
    out: Record = {}
    for name, limit in _STRINGS.items():
        if name not in values:
            continue
        value = values[name]
        if not isinstance(value, str):
            raise _Refused(f"{where}{name}", "must be a string")
        if name == "title" and not value.strip():
            raise _Refused(f"{where}title", "must have 1 or more characters")
        if limit is not None and len(value) > limit:
            raise _Refused(f"{where}{name}", f"must have at most {limit} characters")
        if name == "slug" and not _SLUG.match(value):
            raise _Refused(
                f"{where}slug",
                f"{value!r} is not a slug: 1 to 100 lower-case letters, digits, '-', '_' or '.', "
                "starting and ending with a letter or digit",
            )
        out[name] = value
    for name in _FLAGS:
        if name in values:
            if not isinstance(values[name], bool):
                raise _Refused(f"{where}{name}", "must be a boolean")
            out[name] = values[name]
    return out


def _metadata(change: Record, front: Record) -> Record:
    """The metadata the change sets: its fields, then the frontmatter's over them."""
    fields = _check_meta(change, "")
    fields.update(_check_meta({k: v for k, v in front.items() if k in _STRINGS or k in _FLAGS}, "document (front) "))
    return fields


def _set_meta(page: Record, fields: Record) -> None:
    for name, value in fields.items():
        if name in _REMOVABLE and value == "":
            page.pop(name, None)
        else:
            page[name] = value


# --- places ----------------------------------------------------------------------------------------------


def _siblings(batch: _Batch, into: Any, moving: Record | None = None) -> list[Record]:
    if into is None:
        return batch.pages
    if not isinstance(into, str):
        raise _Refused("into", "must be a page id" + (" or null" if moving is not None else ""))
    found = find_page(batch.pages, into)
    if found is None:
        raise _Refused("into", f"no page {into!r} in the change request")
    if moving is not None and find_page([moving], into) is not None:
        raise _Refused("into", "a page cannot move under itself or one of its own subpages")
    if found[0].get("type") == "link":
        raise _Refused("into", f"page {into!r} is a link: it cannot hold pages")
    children: list[Record] = found[0].setdefault("pages", [])
    return children


def _index(at: Any) -> int | None:
    if at is None:
        return None
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise _Refused("at", "must be a whole number, 0 or more")
    return at


def _place(siblings: list[Record], page: Record, at: int | None) -> None:
    if at is None:
        siblings.append(page)
    else:
        siblings.insert(min(at, len(siblings)), page)


def _unique_slug(batch: _Batch, page: Record) -> None:
    """Refuse when another page beside ``page`` has its slug."""
    found = find_page(batch.pages, page["id"])
    if found is None or page.get("type") == "link":
        return
    for other in found[1]:
        if other is not page and other.get("type") != "link" and other.get("slug") == page.get("slug"):
            raise _Refused(
                "slug",
                f"{page.get('slug')!r} is already the slug of {other.get('title')!r} ({other['id']}) "
                "under the same parent: a slug must be unique among its siblings",
            )


def _page_of(batch: _Batch, change: Record) -> tuple[Record, list[Record]]:
    page_id = change.get("page")
    if not isinstance(page_id, str) or not page_id:
        raise _Refused("page", "is required: the id of a page")
    found = find_page(batch.pages, page_id)
    if found is None:
        raise _Refused("page", f"no page {page_id!r} in the change request")
    return found[0], found[1]


def _ref(batch: _Batch, value: Any, where: str, *, page: bool) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _Refused(where, "must be a non-empty string")
    name = value.removeprefix("./")
    if name in batch.page_refs or name in batch.file_refs:
        raise _Refused(where, f"{value!r} is already a ref in this batch: refs must be unique")
    path = name.removesuffix(".md") if page else name
    if path in batch.existing_paths or name in batch.existing_paths:
        raise _Refused(where, f"{value!r} is the path of a page of the change request: a ref must not be one")
    return name


# --- operations ------------------------------------------------------------------------------------------


def _insert_page(batch: _Batch, change: Record) -> None:
    if "document" not in change:
        raise _Refused("document", "is required to insert a page")
    markdown, front = _document(change)
    assert markdown is not None
    fields = _metadata(change, front)
    if not isinstance(front.get("title"), str):
        first = next((line for line in markdown.splitlines() if line.strip()), "")
        heading = _HEADING.match(first)
        if heading is not None:
            fields["title"] = heading.group(1)
    title = fields.get("title") or "Untitled"
    ref = _ref(batch, change.get("ref"), "ref", page=True)
    page = make_page(batch.state, title, markdown, at=batch.when)
    if "slug" not in fields:
        fields["slug"] = slugify(title)
    _set_meta(page, fields)
    siblings = _siblings(batch, change.get("into"))
    _place(siblings, page, _index(change.get("at")))
    _unique_slug(batch, page)
    if ref is not None:
        batch.page_refs[ref] = page["id"]
        batch.created_refs[page["id"]] = change["ref"]
    batch.touch(page["id"])
    batch.to_resolve.append(page["id"])


def _update_page(batch: _Batch, change: Record) -> None:
    page, holder = _page_of(batch, change)
    markdown, front = _document(change)
    fields = _metadata(change, front)
    if page.get("type") == "link" and (markdown is not None or "slug" in fields):
        raise _Refused("page", f"page {page['id']!r} is a link: it has no document and no slug")
    if markdown is not None:
        page["markdown"] = markdown
        batch.to_resolve.append(page["id"])
    _set_meta(page, fields)
    if "into" in change or "at" in change:
        target = _siblings(batch, change["into"], page) if "into" in change else holder
        at = _index(change.get("at"))
        index = holder.index(page)
        holder.remove(page)
        if at is None and target is holder:
            at = index
        _place(target, page, at)
    _unique_slug(batch, page)
    page["updatedAt"] = batch.when
    batch.touch(page["id"])


def _delete_page(batch: _Batch, change: Record) -> None:
    page, holder = _page_of(batch, change)
    holder.remove(page)
    batch.touch(page["id"])


def _revert_page(batch: _Batch, change: Record) -> None:
    page_id = change.get("page")
    if not isinstance(page_id, str) or not page_id:
        raise _Refused("page", "is required: the id of a page")
    if "block" in change:
        raise _Refused("block", "the sandbox reverts whole pages only: leave block out")
    rid = change.get("revision")
    if rid is None:
        rid = base_revision_id(batch.cr)
    elif not isinstance(rid, str):
        raise _Refused("revision", "must be a revision id")
    revision = batch.state.revisions.get(rid)
    if revision is None or revision.get("space") != batch.cr["space"]:
        raise _Refused("revision", f"no revision {rid!r} in the space")
    then = flat(revision.get("pages") or [])
    found = find_page(batch.pages, page_id)
    if page_id not in then:
        if found is None:
            raise _Refused("page", f"no page {page_id!r} in the change request or in revision {rid!r}")
        page, holder, _ = found
        index = holder.index(page)
        holder.remove(page)
        kept = [kid for kid in page.get("pages") or [] if kid["id"] in then]
        holder[index:index] = kept
        batch.touch(page_id)
        return
    old, parent_id, _, index = then[page_id]
    if found is None:
        present = set(flat(batch.pages))
        page = clone_pages([old])[0]

        def prune(node: Record) -> None:
            node["pages"] = [kid for kid in node.get("pages") or [] if kid["id"] not in present]
            for kid in node["pages"]:
                prune(kid)

        prune(page)
    else:
        page, holder, _ = found
        holder.remove(page)
        kids = page.get("pages") or []
        page.clear()
        page.update(clone_pages([{k: v for k, v in old.items() if k != "pages"}])[0])
        page["pages"] = kids
    holder_of_parent = find_page(batch.pages, parent_id) if parent_id else None
    if holder_of_parent is not None and find_page([page], holder_of_parent[0]["id"]) is None:
        siblings: list[Record] = holder_of_parent[0].setdefault("pages", [])
    else:
        siblings = batch.pages
    _place(siblings, page, index)
    _unique_slug(batch, page)
    batch.touch(page_id)


def _private_host(host: str) -> bool:
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return not address.is_global


def _dimensions(data: bytes) -> Record | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return {"width": width, "height": height}
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return {"width": width, "height": height}
    return None


def _insert_files(batch: _Batch, change: Record) -> None:
    files = change.get("files")
    if not isinstance(files, list) or not 1 <= len(files) <= MAX_FILES:
        raise _Refused("files", f"must be an array of 1 to {MAX_FILES} files")
    refs: list[tuple[str, str]] = []
    for m, item in enumerate(files):
        where = f"files[{m}]"
        if not isinstance(item, dict):
            raise _Refused(where, "must be an object: {name, base64 and contentType, or url}")
        name = item.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 256:
            raise _Refused(f"{where}.name", "is required: 1 to 256 characters, the file name with its extension")
        content_type = item.get("contentType")
        if content_type is not None and (not isinstance(content_type, str) or "/" not in content_type):
            raise _Refused(f"{where}.contentType", "must be a MIME type (type/subtype)")
        sources = [key for key in ("base64", "url") if key in item]
        if len(sources) != 1:
            raise _Refused(where, "must set exactly one source: base64 or url")
        fid = batch.state.new_id()
        record: Record = {"id": fid, "name": name}
        if sources == ["base64"]:
            raw = item["base64"]
            if content_type is None:
                raise _Refused(f"{where}.contentType", "is required with base64")
            if not isinstance(raw, str):
                raise _Refused(f"{where}.base64", "must be a string of base64")
            if len(raw) > (MAX_FILE_BYTES + 2) // 3 * 4 + 4:
                raise _Refused(f"{where}.base64", f"the file is over {MAX_FILE_BYTES} bytes", 413)
            try:
                data = base64.b64decode(raw, validate=True)
            except (binascii.Error, ValueError):
                raise _Refused(f"{where}.base64", "is not valid base64") from None
            if len(data) > MAX_FILE_BYTES:
                raise _Refused(f"{where}.base64", f"the file is {len(data)} bytes, over {MAX_FILE_BYTES}", 413)
            record.update(
                contentType=content_type,
                size=len(data),
                downloadURL=f"https://files.example.com/{batch.cr['space']}/{fid}/{name}",
                data=raw,
            )
            dimensions = _dimensions(data) if content_type.startswith("image/") else None
            if dimensions:
                record["dimensions"] = dimensions
        else:
            url = item["url"]
            if not isinstance(url, str) or len(url) > 2048:
                raise _Refused(f"{where}.url", "must be an http(s) url of at most 2048 characters")
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise _Refused(f"{where}.url", "must be an http(s) url")
            if _private_host(parts.hostname):
                raise _Refused(f"{where}.url", "resolves to a private or reserved address: send the bytes as base64")
            guessed = mimetypes.guess_type(name)[0]
            record.update(contentType=content_type or guessed or "application/octet-stream", size=0, downloadURL=url)
        ref = _ref(batch, item.get("ref"), f"{where}.ref", page=False)
        if ref is not None:
            if ref in {r for r, _ in refs}:
                raise _Refused(f"{where}.ref", f"{ref!r} is already a ref in this batch: refs must be unique")
            refs.append((ref, fid))
        batch.files.append(record)
        batch.inserted_files.append(record)
    batch.file_refs.update(refs)


_APPLY = {
    "insert_page": _insert_page,
    "update_page": _update_page,
    "delete_page": _delete_page,
    "revert_page": _revert_page,
    "insert_files": _insert_files,
}


# --- links -----------------------------------------------------------------------------------------------


def _git_dir(path: str, page: Record) -> str:
    """The folder a page's relative links are read from: its Git file is ``<path>/README.md`` when it has
    subpages, else ``<path>.md``."""
    return path if page.get("pages") else posixpath.dirname(path)


def _by_path(paths: dict[str, str], pages: list[Record], path: str) -> str | None:
    """The page at a Git or slug path (``a/b``, ``a/b.md``, ``a/b/README.md``, ``README.md``)."""
    path = path.strip("/")
    if path.endswith(".md"):
        path = path[:-3]
        if path == "README" or path.endswith("/README"):
            path = path[: -len("README")].rstrip("/")
            if not path:
                first = next((p for p in pages if p.get("type") != "link"), None)
                return first["id"] if first else None
    return paths.get(path)


def _resolve(batch: _Batch, url: str, here: str, ids: set[str], paths: dict[str, str]) -> str | bool | None:
    """The link's stored form, None when it matches nothing, True to keep it as it is."""
    target, hashmark, anchor = url.partition("#")
    suffix = hashmark + anchor
    if not target or _SCHEME.match(target) or target.startswith("//"):
        return True
    if target.startswith("/files/"):
        fid = target.removeprefix("/files/")
        return True if any(f["id"] == fid for f in batch.files) else None
    if target.startswith("/pages/"):
        rest = target.removeprefix("/pages/").strip("/")
        if rest in ids:
            return f"/pages/{rest}{suffix}"
        pid = _by_path(paths, batch.pages, rest)
        return f"/pages/{pid}{suffix}" if pid else None
    if target.startswith("/"):
        return True
    name = target.removeprefix("./")
    if name in batch.file_refs:
        return f"/files/{batch.file_refs[name]}"
    for ref in (name, name.removesuffix(".md")):
        if ref in batch.page_refs:
            return f"/pages/{batch.page_refs[ref]}{suffix}"
    joined = posixpath.normpath(posixpath.join(here or ".", target))
    if joined.startswith(".."):
        return None
    pid = _by_path(paths, batch.pages, "" if joined == "." else joined)
    if pid is None and joined in (".", ""):
        pid = _by_path(paths, batch.pages, "README.md")
    return f"/pages/{pid}{suffix}" if pid else None


def _resolve_links(batch: _Batch, page: Record, path: str) -> None:
    ids = {p["id"] for p, _, _ in walk(batch.pages)}
    paths = {p: q["id"] for q, _, p in walk(batch.pages) if q.get("type") != "link"}
    here = _git_dir(path, page)

    def replace(match: re.Match[str]) -> str:
        bang, text, url, title = match.groups()
        resolved = _resolve(batch, url, here, ids, paths)
        if resolved is True:
            return match.group(0)
        if not resolved:
            return text
        return f"{bang}[{text}]({resolved}{title})"

    out, fenced = [], False
    for line in (page.get("markdown") or "").split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        out.append(line if fenced else _LINK.sub(replace, line))
    page["markdown"] = "\n".join(out)


# --- the batch -------------------------------------------------------------------------------------------


def apply_content_changes(state: SandboxState, cr: Record, changes: Any, user: str) -> Applied:
    """Apply the batch to ``cr`` as one new revision; returns what it did. 400 (413 for a file over its size),
    nothing kept, when the batch or any change in it is invalid; the message names the change."""
    if not isinstance(changes, list) or not 1 <= len(changes) <= MAX_CHANGES:
        count = f"; {len(changes)} were sent" if isinstance(changes, list) else ""
        raise bad_request(f"changes must be an array of 1 to {MAX_CHANGES} changes{count}")
    base = state.revisions[cr["revision"]]
    pages = clone_pages(base["pages"])
    batch = _Batch(
        state=state,
        cr=cr,
        pages=pages,
        files=[dict(f) for f in base.get("files") or []],
        when=state.now(),
        existing_paths={p for q, _, p in walk(pages) if q.get("type") != "link"},
    )
    for n, change in enumerate(changes):
        where = f"changes[{n}]"
        if not isinstance(change, dict):
            raise bad_request(f"{where} must be an object")
        operation = change.get("operation")
        if operation not in _APPLY:
            raise bad_request(f"{where}.operation must be one of {', '.join(OPERATIONS)}")
        try:
            _APPLY[operation](batch, change)
        except _Refused as refused:
            sep = " " if refused.why.startswith(("is ", "must ")) else ": "
            message = f"{where}.{refused.where}{sep}{refused.why} ({operation})"
            raise SandboxError(refused.status, message) from None
    placed = {p["id"]: (p, path) for p, _, path in walk(batch.pages)}
    for pid in dict.fromkeys(batch.to_resolve):
        if pid in placed:
            _resolve_links(batch, *placed[pid])
    rid = new_revision(
        state,
        cr["space"],
        batch.pages,
        parents=[base["id"]],
        at=batch.when,
        message="Update content",
        files=batch.files,
        variables=dict(base.get("variables") or {}),
    )
    contributors = cr.setdefault("contributors", [])
    if user not in contributors:
        contributors.append(user)
    cr.update(revision=rid, updatedAt=batch.when)
    before = set(flat(base["pages"]))
    applied = Applied(inserted_files=batch.inserted_files)
    for pid in batch.order:
        if pid in placed:
            entry: Record = {"object": "updated_page" if pid in before else "created_page", "page": pid}
            if entry["object"] == "created_page" and pid in batch.created_refs:
                entry["ref"] = batch.created_refs[pid]
        elif pid in before:
            entry = {"object": "deleted_page", "page": pid}
        else:
            continue
        applied.changes.append(entry)
    return applied
