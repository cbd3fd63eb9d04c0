"""Since your last review, and detached comments, against the seeded sandbox: a change request is reviewed, then
another user changes it through the API (a batch of content changes, an update from main), and only what changed
since shows; a comment whose block was rewritten is detached, with its old text and the nearest block now."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from folio.api import GitBookClient
from folio.models.change_request import ChangeRequest
from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.domain.change_requests import merge_change_request, open_change_request
from folio.sandbox.revisions import find_page, walk
from folio.services import Services
from folio.services.review.detached import BlockMemory, blocks_of, most_similar
from tests.conftest import SANDBOX_URL, TOKEN

OTHER = "gb_api_other_user_token"


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


def page_id(state: SandboxState, revision: str, title: str) -> str:
    return str(next(p["id"] for p, _, _ in walk(state.revisions[revision]["pages"]) if p["title"] == title))


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client)


@pytest.fixture
def as_emeka(state: SandboxState, app: Any) -> httpx.AsyncClient:
    """A second caller of the same sandbox: Emeka (edit role), with his own token."""
    state.tokens = {TOKEN: state.default_user, OTHER: user(state, "emeka")}
    return httpx.AsyncClient(
        transport=SandboxTransport(app), base_url=SANDBOX_URL + "/v1", headers={"Authorization": f"Bearer {OTHER}"}
    )


async def edit_as(other: httpx.AsyncClient, record: dict[str, Any], changes: list[dict[str, Any]]) -> None:
    answer = await other.post(
        f"/spaces/{record['space']}/change-requests/{record['id']}/content", json={"changes": changes}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["revision"] == record["revision"]


async def current(services: Services, record: dict[str, Any]) -> ChangeRequest:
    return await services.review.change_request(record["space"], record["id"])


async def test_only_what_another_user_changed_since_my_review(
    services: Services, state: SandboxState, as_emeka: httpx.AsyncClient
) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    seen_revision = record["revision"]
    cr = await current(services, record)
    assert await services.since_review.since(record["space"], cr) is None  # never reviewed: nothing to compare
    linux, windows = page_id(state, seen_revision, "Linux"), page_id(state, seen_revision, "Windows")
    services.review.viewed.set_viewed(cr.id, seen_revision, linux)
    services.review.viewed.set_viewed(cr.id, seen_revision, windows)
    await services.review.submit(record["space"], cr.id, "approved", "Fine")
    assert await services.since_review.since(record["space"], await current(services, record)) is None

    markdown = state.revisions[seen_revision]["pages"]
    body = find_page(markdown, linux)
    assert body is not None
    await edit_as(
        as_emeka,
        record,
        [
            {
                "operation": "update_page",
                "page": linux,
                "document": {"markdown": body[0]["markdown"] + "\nArch too.\n"},
            },
            {"operation": "insert_page", "title": "macOS", "document": {"markdown": "# macOS\n\nbrew install it\n"}},
        ],
    )
    assert record["revision"] != seen_revision and user(state, "emeka") in record["contributors"]

    since = await services.since_review.since(record["space"], await current(services, record))
    assert since is not None and since.seen.revision == seen_revision and since.seen.how == "reviewed"
    assert {p.title: p.kinds for p in since.changed} == {"Linux": ("edited",), "macOS": ("created",)}
    edited = since.changes.find(linux)
    assert edited is not None and edited.after and edited.before and "Arch too." in edited.after
    assert "Arch too." not in edited.before  # the diff is from what I saw, not from the base
    assert since.summary == "2 pages changed since you reviewed on 2026-11-01 09:00 UTC."
    assert since.kept == {windows}  # Windows is untouched since: it keeps its viewed mark; Linux loses it
    assert services.review.viewed.viewed(cr.id, record["revision"]) == {windows}
    assert since.from_main == set()


async def test_a_marked_revision_counts_when_there_is_no_review(
    services: Services, state: SandboxState, as_emeka: httpx.AsyncClient
) -> None:
    record = cr_of(state, "Reorganise troubleshooting")
    seen_revision = record["revision"]
    trouble = page_id(state, seen_revision, "Troubleshooting")
    services.review.viewed.set_viewed(record["id"], seen_revision, trouble)
    await edit_as(as_emeka, record, [{"operation": "update_page", "page": trouble, "title": "When it breaks"}])
    since = await services.since_review.since(record["space"], await current(services, record))
    assert since is not None and since.seen.how == "viewed" and since.seen.at is not None
    [page] = since.changed
    assert (
        page.id == trouble
        and "edited" in page.kinds
        and page.attributes["title"] == ("Troubleshooting", "When it breaks")
    )
    assert since.summary.startswith("1 page changed since you last viewed it on ")


async def test_changes_that_came_from_main_are_said(
    services: Services, state: SandboxState, as_emeka: httpx.AsyncClient
) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    await services.review.submit(record["space"], record["id"], "approved")
    seen_revision = record["revision"]
    # Someone else's change request edits another page and is merged: main moves on.
    other = open_change_request(state, record["space"], user(state, "emeka"), subject="Robots")
    main_page = page_id(state, other["revision"], "Your first robot")
    await edit_as(
        as_emeka, other, [{"operation": "update_page", "page": main_page, "document": {"markdown": "New.\n"}}]
    )
    merge_change_request(state, other, user(state, "emeka"))
    # Emeka updates the reviewed change request from main, and edits its Linux page.
    answer = await as_emeka.post(f"/spaces/{record['space']}/change-requests/{record['id']}/update")
    assert answer.status_code == 200, answer.text
    linux = page_id(state, seen_revision, "Linux")
    await edit_as(as_emeka, record, [{"operation": "update_page", "page": linux, "document": {"markdown": "Short.\n"}}])

    since = await services.since_review.since(record["space"], await current(services, record))
    assert since is not None and since.seen.revision == seen_revision
    assert {p.id for p in since.changed} == {main_page, linux}
    assert since.from_main == {main_page}
    assert "(1 from main, by an update)" in since.summary


async def test_a_refused_batch_keeps_nothing(state: SandboxState, as_emeka: httpx.AsyncClient) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    before = record["revision"]
    changes = [
        {"operation": "insert_page", "document": {"markdown": "# Fine\n"}},
        {"operation": "delete_page", "page": "nope"},
    ]
    answer = await as_emeka.post(
        f"/spaces/{record['space']}/change-requests/{record['id']}/content", json={"changes": changes}
    )
    assert answer.status_code == 400 and "changes[1].page" in answer.json()["error"]["message"]
    assert record["revision"] == before
    state.tokens[OTHER] = user(state, "ivan")  # a reader
    answer = await as_emeka.post(
        f"/spaces/{record['space']}/change-requests/{record['id']}/content", json={"changes": changes[:1]}
    )
    assert answer.status_code == 403 and record["revision"] == before


# --- detached comments ------------------------------------------------------------------------------------------


async def test_a_comment_whose_block_was_rewritten_is_detached(
    services: Services, state: SandboxState, as_emeka: httpx.AsyncClient
) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    space, cr_id = record["space"], record["id"]
    linux = page_id(state, record["revision"], "Linux")
    page = await services.client.content.page(space, linux, change_request=cr_id, format="document")
    blocks = blocks_of(page.document)
    key, text = next((k, t) for k, t in blocks if "22.04" in t)
    other_key = next(k for k, t in blocks if k != key)
    on_block = await services.client.comments.create(space, "Which Debian?", change_request=cr_id, page=linux, node=key)
    on_other = await services.client.comments.create(space, "Fine", change_request=cr_id, page=linux, node=other_key)
    comments = await services.client.comments.list(space, change_request=cr_id, status="all").collect()
    assert await services.detached.check(space, comments, change_request=cr_id) == {}  # shown: its text is kept

    markdown = find_page(state.revisions[record["revision"]]["pages"], linux)
    assert markdown is not None
    rewritten = markdown[0]["markdown"].replace("22.04 or newer (Debian 12 works too)", "22.04 or newer, or Debian 12")
    await edit_as(as_emeka, record, [{"operation": "update_page", "page": linux, "document": {"markdown": rewritten}}])
    comments = await services.client.comments.list(space, change_request=cr_id, status="all").collect()
    found = await services.detached.check(space, comments, change_request=cr_id)
    assert set(found) == {on_block.id} and on_other.id not in found
    detached = found[on_block.id]
    assert detached.text == text and not detached.page_gone
    assert detached.suggestion is not None and "or Debian 12" in detached.suggestion
    assert detached.suggestion_key not in (None, key)


async def test_the_old_text_is_read_from_the_revision_when_it_was_never_kept(
    services: Services, state: SandboxState, as_emeka: httpx.AsyncClient
) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    space, cr_id = record["space"], record["id"]
    linux = page_id(state, record["revision"], "Linux")
    page = await services.client.content.page(space, linux, change_request=cr_id, format="document")
    key, text = next((k, t) for k, t in blocks_of(page.document) if "22.04" in t)
    await services.client.comments.create(space, "Which Debian?", change_request=cr_id, page=linux, node=key)
    await edit_as(as_emeka, record, [{"operation": "delete_page", "page": linux}])
    comments = await services.client.comments.list(space, change_request=cr_id, status="all").collect()
    [detached] = (await services.detached.check(space, comments, change_request=cr_id)).values()
    assert detached.page_gone and detached.text == text and detached.suggestion is None
    assert detached.line() == "Detached: its page is no longer in the content."


def test_most_similar_and_the_memory(tmp_path: Any) -> None:
    blocks = [("a", "Install with apt"), ("b", "The package needs Ubuntu 22.04 or newer, or Debian 12")]
    best = most_similar("The package needs Ubuntu 22.04 or newer (Debian 12 works too)", blocks)
    assert best is not None and best[:2] == ("b", blocks[1][1]) and 0.7 < best[2] < 1
    assert most_similar("Something else entirely", blocks) is None
    memory = BlockMemory(tmp_path, account="acct")
    memory.remember("space", {"c1": {"page": "p", "node": "n", "text": "old"}})
    assert BlockMemory(tmp_path, account="acct").recall("space") == {"c1": {"page": "p", "node": "n", "text": "old"}}
    assert BlockMemory(tmp_path, account="another").recall("space") == {}  # per account
