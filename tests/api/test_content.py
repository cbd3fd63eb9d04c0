"""Content reads through the client against the sandbox: a space's content (spec 4.8), a change request's
content (4.9, by id and by number) and revisions by id; links, backlinks and templates."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient, errors
from folio.models.common import ContentRefFile, File, Page, PagesList, Revision
from folio.models.content import BacklinkRecord
from folio.sandbox import SandboxState
from folio.sandbox.revisions import clone_pages, make_page, new_revision, walk
from folio.sandbox.seed.content import MISSING_FILE, MISSING_PAGE
from tests.api.test_spaces import space_id


def page_id(state: SandboxState, sid: str, title: str) -> str:
    pages = state.revisions[state.spaces[sid]["revision"]]["pages"]
    return next(p["id"] for p, _, _ in walk(pages) if p["title"] == title)


def add_change_request(state: SandboxState, sid: str, number: int = 901) -> dict:  # type: ignore[type-arg]
    """A change request of the space whose revision adds one page."""
    base = state.revisions[state.spaces[sid]["revision"]]
    draft = make_page(state, "Draft page", "# Draft page\n\nSee [it](/pages/nope).\n")
    pages = [*clone_pages(base["pages"]), draft]
    rid = new_revision(state, sid, pages, parents=[base["id"]], files=[dict(f) for f in base["files"]])
    cr = {
        "id": f"cr-{number}",
        "space": sid,
        "number": number,
        "status": "open",
        "subject": "Draft",
        "revision": rid,
        "revisionInitial": base["id"],
        "createdAt": state.now(),
        "updatedAt": state.now(),
    }
    state.change_requests[cr["id"]] = cr
    return cr


# --- revisions and pages -----------------------------------------------------------------------------------


async def test_space_revision(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    rev = await client.content.revision(sid)
    assert isinstance(rev, Revision) and rev.id == state.spaces[sid]["revision"] and rev.type == "edits"
    titles = [p["title"] for p in state.revisions[rev.id]["pages"]]
    assert [p.title for p in rev.pages] == titles and titles[0] == "Welcome" and "Status page" in titles
    assert len(rev.files) == 2 and rev.urls is not None and rev.urls.app
    assert rev.pages[0].markdown and rev.pages[0].markdown.startswith("# Welcome")


async def test_metadata_flag_leaves_git_out(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "REST API Reference")
    first = next(r["id"] for r in state.revisions.values() if r["space"] == sid and not r["parents"])
    full = await client.content.revision(sid, revision=first)
    bare = await client.content.revision(sid, revision=first, metadata=False, computed=False)
    assert full.git is not None and full.git.oid and full.pages[0].git is not None
    assert bare.git is None and bare.pages[0].git is None and bare.files[0].git is None
    with pytest.raises(errors.BadRequest, match="metadata"):
        await client.request_json("GET", f"/spaces/{sid}/content", params={"metadata": "maybe"})


async def test_revision_by_id(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    rid = state.spaces[sid]["revision"]
    rev = await client.content.revision(sid, revision=rid)
    assert rev.id == rid
    pages = await client.content.pages(sid, revision=rid)
    assert [p.title for p in pages.pages][:2] == ["Welcome", "Installation"]
    other_rev = state.spaces[space_id(state, "User Guide")]["revision"]
    with pytest.raises(errors.NotFound):
        await client.content.revision(sid, revision=other_rev)
    with pytest.raises(errors.InvalidRequest):
        await client.content.revision(sid, revision=rid, change_request=1)


async def test_pages_tree_and_variants(client: GitBookClient, state: SandboxState) -> None:
    start = await client.content.pages(space_id(state, "Getting Started"))
    assert isinstance(start, PagesList)
    current = state.revisions[state.spaces[space_id(state, "Getting Started")]["revision"]]["pages"]
    assert [p.title for p in start.walk()] == [p["title"] for p, _, _ in walk(current)]
    install = next(p for p in start.pages if p.title == "Installation")
    assert [c.path for c in install.pages] == ["installation/linux", "installation/macos"]
    link = start.pages[-1]
    assert link.type == "link" and link.href == "https://status.northwind.dev"
    sdk = await client.content.pages(space_id(state, "SDK Reference"))
    group = sdk.pages[-1]
    assert group.type == "group" and group.kind == "group" and [p.title for p in group.pages] == ["Code samples"]
    with pytest.raises(errors.NotFound):
        await client.content.pages("missing")


async def test_files(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    files = await client.content.files(sid, limit=1).collect()
    assert [f.name for f in files] == ["getting-started-diagram.png", "getting-started.pdf"]
    assert files[0].dimensions is not None and files[0].dimensions.width == 1280
    one = await client.content.file(sid, files[1].id)
    assert isinstance(one, File) and one.content_type == "application/pdf" and one.size == 183004
    with pytest.raises(errors.NotFound):
        await client.content.file(sid, MISSING_FILE)
    with pytest.raises(errors.InvalidRequest):
        client.content.files(sid, limit=1001)


async def test_file_backlinks(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    diagram = state.revisions[state.spaces[sid]["revision"]]["files"][0]["id"]
    records = await client.content.file_backlinks(sid, diagram).collect()
    assert len(records) == 1
    record = records[0]
    assert isinstance(record, BacklinkRecord) and record.kind == "file"
    assert record.file is not None and record.file.id == diagram
    assert record.space is not None and record.space.id == sid
    assert record.page is not None and record.page.title == "Welcome"
    assert record.version_context is not None
    assert record.version_context.revision_id == state.spaces[sid]["revision"]
    pdf = state.revisions[state.spaces[sid]["revision"]]["files"][1]["id"]
    assert await client.content.file_backlinks(sid, pdf).collect() == []
    with pytest.raises(errors.NotFound):
        await client.content.file_backlinks(sid, MISSING_FILE).collect()


async def test_page_as_document_and_markdown(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    pid = page_id(state, sid, "Installation")
    page = await client.content.page(sid, pid)
    assert isinstance(page, Page) and page.markdown is None and page.path == "installation"
    blocks = page.document["nodes"]  # type: ignore[index]
    assert [b["type"] for b in blocks] == ["heading-1", "paragraph", "code", "paragraph", "code"]
    assert blocks[2]["data"] == {"syntax": "bash"}
    assert blocks[2]["nodes"][0]["nodes"][0]["leaves"][0]["text"] == "pip install northwind"
    assert [c.title for c in page.pages] == ["Linux", "macOS"]
    md = await client.content.page(sid, pid, format="markdown", evaluated="deterministic-only", dereferenced=True)
    assert md.document is None and md.markdown == state.revisions[state.spaces[sid]["revision"]]["pages"][1]["markdown"]
    welcome = await client.content.page(
        sid, page_id(state, sid, "Welcome"), evaluated=True, dereferenced="reusable-contents"
    )
    assert "list-unordered" in [b["type"] for b in welcome.document["nodes"]]  # type: ignore[index]


async def test_page_read_errors(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    pid = page_id(state, sid, "Welcome")
    with pytest.raises(errors.InvalidRequest):
        await client.content.page(sid, pid, format="html")  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidRequest):
        await client.content.page(sid, pid, evaluated="sometimes")  # type: ignore[arg-type]
    for name, value in (("format", "html"), ("evaluated", "sometimes"), ("dereferenced", "all")):
        with pytest.raises(errors.BadRequest, match=name):
            await client.request_json("GET", f"/spaces/{sid}/content/page/{pid}", params={name: value})
    with pytest.raises(errors.NotFound):
        await client.content.page(sid, MISSING_PAGE)


async def test_page_in_revision_and_variants(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "SDK Reference")
    rid = state.spaces[sid]["revision"]
    group = await client.content.page(sid, page_id(state, sid, "More"), revision=rid)
    assert group.type == "group" and group.pages[0].markdown
    start = space_id(state, "Getting Started")
    link = await client.content.page(start, page_id(state, start, "Status page"))
    assert link.type == "link" and link.target == {"kind": "url", "url": "https://status.northwind.dev"}


async def test_page_links(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    pid = page_id(state, sid, "Troubleshooting")
    first = await client.content.page_links(sid, pid).fetch()
    assert first.stats is not None and first.stats.total == 2 and first.stats.broken.total == 1
    assert {link.status for link in first.items} == {"ok", "broken"}
    assert all(link.location_references == [] for link in first.items)
    ok_only = await client.content.page_links(sid, pid, status="ok").collect()
    assert len(ok_only) == 1 and ok_only[0].status == "ok"
    assert ok_only[0].target_reference is not None and ok_only[0].target_reference.kind == "url"
    with pytest.raises(errors.NotFound):
        await client.content.page_links(sid, MISSING_PAGE).collect()


async def test_deleted_space_has_no_content(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(errors.NotFound):
        await client.content.revision(space_id(state, "Legacy Docs (v1)"))


# --- change request content --------------------------------------------------------------------------------


async def test_change_request_content_by_id_and_number(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    cr = add_change_request(state, sid)
    by_id = await client.content.revision(sid, change_request=cr["id"])
    by_number = await client.content.revision(sid, change_request=cr["number"])
    assert by_id.id == by_number.id == cr["revision"] != state.spaces[sid]["revision"]
    pages = await client.content.pages(sid, change_request=cr["number"])
    assert pages.pages[-1].title == "Draft page"
    assert pages.pages[-1].urls is not None and f"/~/changes/{cr['number']}/" in (pages.pages[-1].urls.app or "")
    files = await client.content.files(sid, change_request=cr["id"]).collect()
    assert len(files) == 2
    one = await client.content.file(sid, files[0].id, change_request=cr["number"])
    assert one.id == files[0].id
    back = await client.content.file_backlinks(sid, files[0].id, change_request=cr["id"]).collect()
    assert back and back[0].version_context is not None
    assert back[0].version_context.revision_id == cr["revision"]
    draft = next(p for p in pages.pages if p.title == "Draft page")
    page = await client.content.page(sid, draft.id, change_request=cr["id"], format="markdown")
    assert page.markdown is not None and page.markdown.startswith("# Draft page")
    links = await client.content.page_links(sid, draft.id, change_request=cr["number"]).fetch()
    assert links.stats is not None and links.stats.broken.change_request == 1
    assert [link.status for link in links.items] == ["broken"]
    # The draft page is not in the space's own content.
    with pytest.raises(errors.NotFound):
        await client.content.page(sid, draft.id)


async def test_change_request_content_errors(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    with pytest.raises(errors.NotFound, match="change request"):
        await client.content.revision(sid, change_request=999_999)
    cr = add_change_request(state, space_id(state, "User Guide"), number=902)
    with pytest.raises(errors.NotFound):
        await client.content.pages(sid, change_request=cr["id"])


# --- templates ---------------------------------------------------------------------------------------------


async def test_apply_template_to_space(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Scratchpad")
    before = state.spaces[sid]["revision"]
    await client.content.apply_template(sid, "faq")
    after = state.spaces[sid]["revision"]
    assert after != before and state.revisions[after]["parents"] == [before]
    assert [p["title"] for p in state.revisions[after]["pages"]] == ["Notes", "FAQ"]


async def test_apply_template_to_change_request(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    cr = add_change_request(state, sid)
    space_rev, cr_rev = state.spaces[sid]["revision"], cr["revision"]
    diagram = state.revisions[space_rev]["files"][0]["id"]
    await client.content.apply_template(
        sid, "changelog", change_request_id=cr["id"], content_refs={"cover": ContentRefFile(file=diagram)}
    )
    assert state.spaces[sid]["revision"] == space_rev and cr["revision"] != cr_rev
    added = state.revisions[cr["revision"]]["pages"][-1]
    assert added["title"] == "Changelog" and added["cover"]["ref"] == {"kind": "file", "file": diagram}


async def test_apply_template_errors(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Scratchpad")
    before = state.spaces[sid]["revision"]
    with pytest.raises(errors.InvalidRequest):
        await client.content.apply_template(sid, "faq", content_refs={"cover": {"kind": "page", "page": "x"}})
    with pytest.raises(errors.BadRequest, match="Unknown template"):
        await client.content.apply_template(sid, "no-such-template")
    with pytest.raises(errors.BadRequest, match="id is required"):
        await client.request_json("POST", f"/spaces/{sid}/content/template", json={})
    with pytest.raises(errors.BadRequest, match="contentRefs"):
        await client.request_json(
            "POST",
            f"/spaces/{sid}/content/template",
            json={"id": "faq", "params": {"contentRefs": {"a": {"kind": "url"}}}},
        )
    with pytest.raises(errors.NotFound):
        await client.content.apply_template(sid, "faq", change_request_id="no-such-cr")
    state.spaces[sid]["editMode"] = "locked"
    with pytest.raises(errors.Conflict, match="locked"):
        await client.content.apply_template(sid, "faq")
    assert state.spaces[sid]["revision"] == before
