"""updateChangeRequestContent against the seeded sandbox over HTTP (``httpx`` through the sandbox's ASGI
transport): each operation, a batch as one revision, a bad change refusing the whole batch with its index named,
the 50-change limit, slugs, link resolution, revert, files and their size limit; page reads as markdown. The
requests sent and the answers read are checked against the public description's schemas."""

from __future__ import annotations

import base64
import struct
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.domain.change_requests import base_revision_id
from folio.sandbox.domain.content_changes import MAX_CHANGES, MAX_CONTENT_BODY_BYTES, MAX_FILE_BYTES
from folio.sandbox.revisions import find_page, walk
from tests.conftest import SANDBOX_URL, TOKEN
from tests.contract.openapi import Description, load, pointer

CR_SUBJECT = "Clarify Linux install steps"  # adds Windows under Installation


@pytest.fixture
async def http(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=SandboxTransport(app), base_url=SANDBOX_URL + "/v1", headers={"Authorization": f"Bearer {TOKEN}"}
    ) as c:
        yield c


@pytest.fixture
def cr(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == CR_SUBJECT)


@pytest.fixture(scope="module")
def description() -> Description:
    return load()


def problems(description: Description, at: str, value: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
        for e in description.validator(at).iter_errors(value)
    ]


OP = pointer("paths", "/spaces/{spaceId}/change-requests/{changeRequestId}/content", "post")


async def post(
    http: httpx.AsyncClient,
    cr: dict[str, Any],
    changes: list[dict[str, Any]],
    description: Description | None = None,
    compat: bool = False,
) -> httpx.Response:
    """Send a batch; with ``description``, check the request against the description's request schema."""
    body = {"changes": changes}
    if description is not None:
        assert problems(description, OP + "/requestBody/content/application~1json/schema", body) == []
    params = {} if compat else {"compat": "false"}
    return await http.post(f"/spaces/{cr['space']}/change-requests/{cr['id']}/content", json=body, params=params)


def pages_of(state: SandboxState, cr: dict[str, Any]) -> list[dict[str, Any]]:
    pages: list[dict[str, Any]] = state.revisions[cr["revision"]]["pages"]
    return pages


def pid(state: SandboxState, cr: dict[str, Any], title: str) -> str:
    return str(next(p["id"] for p, _, _ in walk(pages_of(state, cr)) if p["title"] == title))


def at_path(state: SandboxState, cr: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {path: p for p, _, path in walk(pages_of(state, cr)) if p.get("type") != "link"}


def error_of(answer: httpx.Response) -> str:
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == answer.status_code
    return str(body["error"]["message"])


# --- each operation, one revision ----------------------------------------------------------------------------


async def test_a_batch_is_one_revision(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any], description: Description
) -> None:
    before = cr["revision"]
    installation, linux = pid(state, cr, "Installation"), pid(state, cr, "Linux")
    trouble = pid(state, cr, "Troubleshooting")
    changes = [
        {"operation": "insert_page", "into": installation, "at": 0, "ref": "bsd", "document": {"markdown": "# BSD\n"}},
        {"operation": "update_page", "page": linux, "title": "Linux and WSL"},
        {"operation": "delete_page", "page": trouble},
        {"operation": "update_page", "page": linux, "document": {"markdown": "# Linux\n\nNew steps.\n"}},
    ]
    answer = await post(http, cr, changes, description)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    schema = OP + "/responses/200/content/application~1json/schema"
    assert problems(description, schema, body) == []
    assert problems(description, pointer("components", "schemas", "ChangeRequestContentUpdate"), body) == []
    revision = state.revisions[cr["revision"]]
    assert (
        cr["revision"] != before
        and revision["parents"] == [before]
        and body["changeRequest"]["revision"] == cr["revision"]
    )
    new = at_path(state, cr)["installation/bsd"]
    assert new["title"] == "BSD" and pages_of(state, cr)[1]["pages"][0] is new
    assert [(c["object"], c.get("ref")) for c in body["changes"]] == [
        ("created_page", "bsd"),
        ("updated_page", None),
        ("deleted_page", None),
    ]
    assert body["changes"][0]["page"]["id"] == new["id"] and body["changes"][2]["page"] == trouble
    assert body["changes"][1]["page"]["urls"]["location"].endswith(f"/change-requests/{cr['id']}/content/page/{linux}")
    moved = find_page(pages_of(state, cr), linux)
    assert moved is not None
    # A title alone keeps the slug (the page's URL); the document came from the later change.
    assert moved[0]["title"] == "Linux and WSL" and moved[2] == "installation/linux"
    assert moved[0]["markdown"] == "# Linux\n\nNew steps.\n"
    assert find_page(pages_of(state, cr), trouble) is None
    assert find_page(state.revisions[before]["pages"], trouble) is not None  # the old revision is untouched


async def test_compat_answers_the_change_request(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any], description: Description
) -> None:
    answer = await post(http, cr, [{"operation": "insert_page", "document": {}}], description, compat=True)
    assert answer.status_code == 200
    assert problems(description, pointer("components", "schemas", "ChangeRequest"), answer.json()) == []
    assert answer.json()["revision"] == cr["revision"] and at_path(state, cr)["untitled"]["markdown"] == ""


async def test_update_moves_renames_and_reads_frontmatter(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any]
) -> None:
    installation, windows = pid(state, cr, "Installation"), pid(state, cr, "Windows")
    markdown = "---\ntitle: Windows 11\ndescription: 'On Windows'\nhidden: true\n---\n# Windows\n\nRun the installer.\n"
    changes = [
        {"operation": "update_page", "page": windows, "into": None, "at": 0, "slug": "windows-11"},
        {"operation": "update_page", "page": windows, "title": "ignored", "document": {"markdown": markdown}},
        {"operation": "insert_page", "title": "Given", "document": {"markdown": "# From the heading\n\nText.\n"}},
        {
            "operation": "insert_page",
            "title": "Kept",
            "slug": "kept-here",
            "emoji": "🎉",
            "document": {"markdown": "No heading.\n"},
        },
    ]
    answer = await post(http, cr, changes)
    assert answer.status_code == 200, answer.text
    top = pages_of(state, cr)
    assert top[0]["id"] == windows and top[0]["slug"] == "windows-11" and top[0]["title"] == "Windows 11"
    assert top[0]["description"] == "On Windows" and top[0]["hidden"] is True
    assert top[0]["markdown"] == "# Windows\n\nRun the installer.\n"  # the frontmatter is read, not kept
    assert windows not in [p["id"] for p in top[2]["pages"]] and top[2]["id"] == installation
    paths = at_path(state, cr)
    assert paths["from-the-heading"]["title"] == "From the heading"  # the heading wins over title
    assert paths["kept-here"]["title"] == "Kept" and paths["kept-here"]["emoji"] == "🎉"
    # Back under Installation: appended when at is left out.
    assert (
        await post(http, cr, [{"operation": "update_page", "page": windows, "into": installation}])
    ).status_code == 200
    found = find_page(pages_of(state, cr), installation)
    assert found is not None and found[0]["pages"][-1]["title"] == "Windows 11"
    refused = await post(http, cr, [{"operation": "update_page", "page": installation, "into": windows}])
    assert refused.status_code == 400 and "changes[0].into" in error_of(refused) and "itself" in error_of(refused)


# --- refusals ------------------------------------------------------------------------------------------------


async def test_a_bad_change_refuses_the_whole_batch(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any]
) -> None:
    before, revisions = cr["revision"], len(state.revisions)
    linux = pid(state, cr, "Linux")
    good = [
        {"operation": "insert_page", "title": "Fine", "document": {"markdown": "Fine.\n"}},
        {"operation": "update_page", "page": linux, "document": {"markdown": "Changed.\n"}},
        {"operation": "insert_files", "files": [{"name": "a.txt", "contentType": "text/plain", "base64": "aGk="}]},
    ]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"operation": "delete_page", "page": "nope"}, "changes[3].page: no page 'nope'"),
        ({"operation": "rename_page", "page": linux}, "changes[3].operation must be one of"),
        ({"operation": "update_page", "page": linux, "title": ""}, "changes[3].title"),
        ({"operation": "update_page", "page": linux, "at": -1}, "changes[3].at"),
        ({"operation": "insert_page", "title": "No document"}, "changes[3].document is required"),
        ({"operation": "insert_page", "document": {"document": {"object": "document"}}}, "changes[3].document"),
        ({"operation": "update_page", "page": linux, "slug": "Not A Slug"}, "changes[3].slug"),
        ({"operation": "update_page", "page": linux, "emoji": "x" * 51}, "changes[3].emoji"),
        ({"operation": "insert_page", "ref": "installation", "document": {}}, "changes[3].ref"),
        ({"operation": "revert_page", "page": linux, "block": ["abc"]}, "changes[3].block"),
        ({"operation": "revert_page", "page": linux, "revision": "nope"}, "changes[3].revision"),
        ({"operation": "insert_files", "files": []}, "changes[3].files"),
    ]
    for bad, named in cases:
        answer = await post(http, cr, [*good, bad])
        assert answer.status_code == 400 and named in error_of(answer), (bad, answer.text)
    assert cr["revision"] == before and len(state.revisions) == revisions
    assert (
        find_page(pages_of(state, cr), linux) is not None and "Fine" not in at_path(state, cr).get("fine", {}).values()
    )


async def test_at_most_fifty_changes(http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any]) -> None:
    def many(n: int) -> list[dict[str, Any]]:
        return [{"operation": "insert_page", "title": f"Page {i}", "document": {}} for i in range(n)]

    for count in (MAX_CHANGES + 1, 0):
        answer = await post(http, cr, many(count))
        assert answer.status_code == 400 and "1 to 50 changes" in error_of(answer)
    assert (await http.post(f"/spaces/{cr['space']}/change-requests/{cr['id']}/content", json={})).status_code == 400
    before = cr["revision"]
    answer = await post(http, cr, many(MAX_CHANGES))
    assert answer.status_code == 200 and len(answer.json()["changes"]) == MAX_CHANGES
    assert state.revisions[cr["revision"]]["parents"] == [before]  # fifty changes, one revision
    assert {f"page-{i}" for i in range(50)} <= set(at_path(state, cr))


async def test_a_slug_is_unique_among_siblings(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any]
) -> None:
    installation, windows, macos = (pid(state, cr, t) for t in ("Installation", "Windows", "macOS"))
    clash = [
        ({"operation": "insert_page", "into": installation, "title": "Linux", "document": {}}, "'linux' is already"),
        ({"operation": "update_page", "page": windows, "slug": "macos"}, "'macos' is already the slug of 'macOS'"),
        ({"operation": "insert_page", "slug": "welcome", "title": "Other", "document": {}}, "'welcome' is already"),
    ]
    for change, why in clash:
        answer = await post(http, cr, [change])
        assert answer.status_code == 400 and "changes[0].slug" in error_of(answer) and why in error_of(answer)
    # In order: macOS leaves the slug, then Windows takes it; the same slug under another parent is fine.
    swap = [
        {"operation": "update_page", "page": macos, "slug": "mac"},
        {"operation": "update_page", "page": windows, "slug": "macos"},
        {"operation": "insert_page", "title": "Linux", "document": {}},
    ]
    answer = await post(http, cr, swap)
    assert answer.status_code == 200, answer.text
    paths = at_path(state, cr)
    assert paths["installation/macos"]["id"] == windows and paths["installation/mac"]["id"] == macos
    assert paths["linux"]["title"] == "Linux"


# --- links ---------------------------------------------------------------------------------------------------


async def test_links_are_resolved_against_the_change_request(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any], description: Description
) -> None:
    installation, linux, macos, windows, welcome = (
        pid(state, cr, t) for t in ("Installation", "Linux", "macOS", "Windows", "Welcome")
    )
    markdown = (
        "# Notes\n\n"
        f"By id [a](/pages/{linux}#apt), by slug path [b](/pages/installation/macos), "
        "by Git path [c](/pages/installation/windows.md) and [c2](/pages/installation/README.md), "
        "the root page [r](/pages/README.md).\n\n"
        "Relative: [d](./linux.md), [e](../welcome.md), [f](../README.md), [g](./macos), [h](./later.md).\n\n"
        "Kept: [x](https://example.com/a.md), [y](#here). Not found: [gone](/pages/nowhere) and [lost](../nope.md).\n\n"
        "```\n[code](./linux.md)\n```\n"
    )
    changes = [
        {"operation": "insert_page", "into": installation, "ref": "notes", "document": {"markdown": markdown}},
        {
            "operation": "insert_page",
            "ref": "later",
            "title": "Later",
            "document": {"markdown": "[back](./notes.md)\n"},
        },
        {
            "operation": "update_page",
            "page": installation,
            "document": {"markdown": "# Installation\n\n[l](./linux.md)\n"},
        },
    ]
    answer = await post(http, cr, changes, description)
    assert answer.status_code == 200, answer.text
    paths = at_path(state, cr)
    notes, later = paths["installation/notes"], paths["later"]
    stored = notes["markdown"]
    for expected in (
        f"[a](/pages/{linux}#apt)",
        f"[b](/pages/{macos})",
        f"[c](/pages/{windows})",
        f"[c2](/pages/{installation})",
        f"[r](/pages/{welcome})",
        f"[d](/pages/{linux})",
        f"[e](/pages/{welcome})",
        f"[f](/pages/{welcome})",
        f"[g](/pages/{macos})",
        f"[h](/pages/{later['id']})",
        "[x](https://example.com/a.md)",
        "[y](#here)",
        "Not found: gone and lost.",
        "```\n[code](./linux.md)\n```",
    ):
        assert expected in stored, expected
    assert later["markdown"] == f"[back](/pages/{notes['id']})\n"  # a ref made later in the batch
    # Installation has subpages: its Git file is installation/README.md, so ./linux.md is its subpage.
    assert paths["installation"]["markdown"] == f"# Installation\n\n[l](/pages/{linux})\n"
    base = f"/spaces/{cr['space']}/change-requests/{cr['id']}/content/page/{notes['id']}"
    links = (await http.get(base + "/links")).json()
    assert links["count"] > 0 and all(
        item["status"] != "broken" for item in links["items"] if item["targetReference"]["kind"] == "page"
    )


# --- revert --------------------------------------------------------------------------------------------------


async def test_revert_puts_a_page_back_as_main_has_it(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any]
) -> None:
    main = state.revisions[base_revision_id(cr)]["pages"]
    installation, linux, macos, windows = (pid(state, cr, t) for t in ("Installation", "Linux", "macOS", "Windows"))
    welcome = pid(state, cr, "Welcome")
    edits = [
        {"operation": "update_page", "page": welcome, "title": "Hello", "slug": "hello", "into": installation},
        {"operation": "update_page", "page": welcome, "document": {"markdown": "Changed.\n"}, "emoji": "🎉"},
        {"operation": "delete_page", "page": macos},
    ]
    assert (await post(http, cr, edits)).status_code == 200
    assert find_page(pages_of(state, cr), welcome) is not None and find_page(pages_of(state, cr), macos) is None
    reverts = [
        {"operation": "revert_page", "page": welcome},
        {"operation": "revert_page", "page": linux},
        {"operation": "revert_page", "page": windows},
        {"operation": "revert_page", "page": macos},
    ]
    answer = await post(http, cr, reverts)
    assert answer.status_code == 200, answer.text
    assert [
        (c["object"], c["page"] if isinstance(c["page"], str) else c["page"]["id"]) for c in answer.json()["changes"]
    ] == [
        ("updated_page", welcome),
        ("updated_page", linux),
        ("deleted_page", windows),  # the change request added it: reverting removes it
        ("created_page", macos),  # the change request deleted it: reverting brings it back
    ]
    now = pages_of(state, cr)
    for page_id in (welcome, linux, macos):
        got, was = find_page(now, page_id), find_page(main, page_id)
        assert got is not None and was is not None
        keys = ("title", "slug", "markdown", "description")
        assert {k: got[0].get(k) for k in keys} == {k: was[0].get(k) for k in keys} and "emoji" not in got[0]
        assert got[2] == was[2] and got[1].index(got[0]) == was[1].index(was[0])  # path and place
    assert find_page(now, windows) is None
    assert [p["id"] for p in now[1]["pages"]] == [p["id"] for p in main[1]["pages"]]
    # To a given revision: Windows as this change request first had it.
    first = next(
        iter(r for r in state.revisions.values() if r["space"] == cr["space"] and find_page(r["pages"], windows))
    )
    back = await post(http, cr, [{"operation": "revert_page", "page": windows, "revision": first["id"]}])
    assert back.status_code == 200 and find_page(pages_of(state, cr), windows) is not None
    neither = await post(http, cr, [{"operation": "revert_page", "page": "nope"}])
    assert neither.status_code == 400 and "changes[0].page" in error_of(neither)


# --- files ---------------------------------------------------------------------------------------------------


def png(width: int, height: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", width, height) + b"\x08\x02\x00\x00\x00"


async def test_files_are_stored_in_the_revision_and_linked(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any], description: Description
) -> None:
    image = base64.b64encode(png(640, 480)).decode()
    changes = [
        # The page comes first and still finds the file by its ref.
        {
            "operation": "insert_page",
            "title": "Diagram",
            "document": {"markdown": "![The diagram](./arch.png) [pdf](./spec)\n"},
        },
        {
            "operation": "insert_files",
            "files": [
                {"ref": "arch.png", "name": "arch.png", "contentType": "image/png", "base64": image},
                {"ref": "spec", "name": "spec.pdf", "url": "https://example.com/spec.pdf"},
            ],
        },
    ]
    answer = await post(http, cr, changes, description)
    assert answer.status_code == 200, answer.text
    inserted = answer.json()["insertedFiles"]
    for file in inserted:
        assert problems(description, pointer("components", "schemas", "RevisionFile"), file) == []
    arch, spec = inserted
    assert (
        arch["name"] == "arch.png"
        and arch["size"] == len(png(640, 480))
        and arch["dimensions"] == {"width": 640, "height": 480}
    )
    assert spec["contentType"] == "application/pdf" and spec["downloadURL"] == "https://example.com/spec.pdf"
    base = f"/spaces/{cr['space']}/change-requests/{cr['id']}/content"
    listed = (await http.get(base + "/files", params={"limit": 1000})).json()["items"]
    assert {arch["id"], spec["id"]} <= {f["id"] for f in listed}
    assert (await http.get(f"{base}/files/{arch['id']}")).json() == arch
    stored = next(f for f in state.revisions[cr["revision"]]["files"] if f["id"] == arch["id"])
    assert base64.b64decode(stored["data"]) == png(640, 480)
    assert (
        at_path(state, cr)["diagram"]["markdown"] == f"![The diagram](/files/{arch['id']}) [pdf](/files/{spec['id']})\n"
    )
    backlinks = (await http.get(f"{base}/files/{arch['id']}/backlinks")).json()
    assert [r["page"]["id"] for r in backlinks["items"]] == [at_path(state, cr)["diagram"]["id"]]
    # A file already in the change request is linked as /files/<id>.
    again = await post(
        http,
        cr,
        [{"operation": "insert_page", "title": "Again", "document": {"markdown": f"[s](/files/{spec['id']})\n"}}],
    )
    assert again.status_code == 200 and at_path(state, cr)["again"]["markdown"] == f"[s](/files/{spec['id']})\n"


async def test_files_are_refused_over_their_size_or_without_a_source(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any]
) -> None:
    before = cr["revision"]
    fine = {"name": "ok.txt", "contentType": "text/plain", "base64": base64.b64encode(b"ok").decode()}
    big = base64.b64encode(b"\0" * (MAX_FILE_BYTES + 1)).decode()
    answer = await post(
        http,
        cr,
        [
            {"operation": "insert_page", "title": "P", "document": {}},
            {
                "operation": "insert_files",
                "files": [fine, {"name": "big.bin", "contentType": "application/octet-stream", "base64": big}],
            },
        ],
    )
    assert answer.status_code == 413 and "changes[1].files[1].base64" in error_of(answer)
    exactly = base64.b64encode(b"\0" * MAX_FILE_BYTES).decode()
    cases = [
        ({"name": "a.bin", "base64": "aGk="}, "files[0].contentType is required"),
        ({"name": "a.bin", "contentType": "text/plain", "base64": "not base64!"}, "files[0].base64"),
        ({"name": "a.bin"}, "exactly one source"),
        (
            {"name": "a.bin", "contentType": "text/plain", "base64": "aGk=", "url": "https://example.com/a"},
            "exactly one",
        ),
        ({"name": "a.bin", "url": "http://127.0.0.1/a"}, "private or reserved"),
        ({"name": "a.bin", "url": "http://localhost:8080/a"}, "private or reserved"),
        ({"name": "a.bin", "url": "ftp://example.com/a"}, "http(s)"),
        ({"name": "", "url": "https://example.com/a"}, "files[0].name"),
    ]
    for file, why in cases:
        refused = await post(http, cr, [{"operation": "insert_files", "files": [file]}])
        assert refused.status_code == 400 and why in error_of(refused), (file, refused.text)
    too_many = await post(http, cr, [{"operation": "insert_files", "files": [fine] * 21}])
    assert too_many.status_code == 400 and "1 to 20 files" in error_of(too_many)
    assert cr["revision"] == before
    answer = await post(http, cr, [{"operation": "insert_files", "files": [{**fine, "base64": exactly}]}])
    assert answer.status_code == 200 and answer.json()["insertedFiles"][0]["size"] == MAX_FILE_BYTES
    # The body may pass the sandbox's usual 1 MiB (a file at its largest does), not MAX_CONTENT_BODY_BYTES.
    over = [{**fine, "name": f"f{i}.bin", "base64": exactly} for i in range(MAX_CONTENT_BODY_BYTES // len(exactly) + 1)]
    answer = await post(http, cr, [{"operation": "insert_files", "files": over}])
    assert answer.status_code == 413


async def test_refs_are_unique_and_not_page_paths(http: httpx.AsyncClient, cr: dict[str, Any]) -> None:
    file = {"ref": "x", "name": "x.txt", "contentType": "text/plain", "base64": "aGk="}
    cases = [
        [{"operation": "insert_page", "ref": "x", "document": {}}, {"operation": "insert_files", "files": [file]}],
        [{"operation": "insert_files", "files": [file, file]}],
        [{"operation": "insert_files", "files": [{**file, "ref": "installation/linux"}]}],
    ]
    for changes in cases:
        answer = await post(http, cr, changes)
        assert answer.status_code == 400 and "ref" in error_of(answer), answer.text


# --- reading pages as markdown -------------------------------------------------------------------------------


async def test_pages_read_as_markdown(
    http: httpx.AsyncClient, state: SandboxState, cr: dict[str, Any], description: Description
) -> None:
    answer = await post(
        http, cr, [{"operation": "insert_page", "title": "Read me", "document": {"markdown": "Body *here*.\n"}}]
    )
    page = answer.json()["changes"][0]["page"]
    got = await http.get(page["urls"]["location"].removeprefix(state.api_base), params={"format": "markdown"})
    assert got.status_code == 200
    assert got.json()["markdown"] == "Body *here*.\n" and "document" not in got.json()
    assert problems(description, pointer("components", "schemas", "RevisionPage"), got.json()) == []
    as_document = (await http.get(page["urls"]["location"].removeprefix(state.api_base))).json()
    assert "markdown" not in as_document and as_document["document"]["nodes"][0]["type"] == "paragraph"
    welcome = pid(state, cr, "Welcome")
    space = await http.get(f"/spaces/{cr['space']}/content/page/{welcome}", params={"format": "markdown"})
    assert space.json()["markdown"] == state.revisions[state.spaces[cr["space"]]["revision"]]["pages"][0]["markdown"]
    bad = await http.get(f"/spaces/{cr['space']}/content/page/{welcome}", params={"format": "html"})
    assert bad.status_code == 400


async def test_a_merged_change_request_is_not_edited(http: httpx.AsyncClient, state: SandboxState) -> None:
    merged = next(c for c in state.change_requests.values() if c["status"] == "merged")
    answer = await post(http, merged, [{"operation": "insert_page", "document": {}}])
    assert answer.status_code == 409
