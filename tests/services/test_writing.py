"""Writing pages into change requests (``folio.services.review.writing``) against the sandbox: one page's markdown
into the change request it was read from, a new one or another; a colleague's revision met before sending; a
lost answer looked for, not sent twice; a batch of tree edits as one revision, checked before sending."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from folio.api import GitBookClient
from folio.sandbox import Faults, SandboxState
from folio.sandbox.revisions import walk
from folio.services import Services
from folio.services.errors import Invalid
from folio.services.reconcile import NotDone
from folio.services.review.writing import (
    MAX_FILE_BYTES,
    ChangeRequestClosed,
    MovedOn,
    NothingChanged,
    same_text,
    slug_problem,
)
from tests.conftest import Counting

CR_SUBJECT = "Clarify Linux install steps"


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def cr(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == CR_SUBJECT)


def tree(state: SandboxState, revision: str) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p, _, _ in walk(state.revisions[revision]["pages"])}


def titled(state: SandboxState, revision: str, title: str) -> dict[str, Any]:
    return next(p for p in tree(state, revision).values() if p["title"] == title)


def content_posts(counting: Counting) -> list[str]:
    return [w for w in counting.writes if w.endswith("/content")]


async def test_an_edit_goes_into_the_change_request_it_was_read_from(
    flaky: Services, state: SandboxState, cr: dict[str, Any], counting: Counting
) -> None:
    page = titled(state, cr["revision"], "Installation")
    opened = await flaky.writing.open(cr["space"], page["id"], change_request=cr["number"])
    assert opened.markdown == page["markdown"] and opened.revision == cr["revision"]
    text = opened.markdown + "\nA line added from the terminal.\n"
    diff = flaky.writing.diff(opened, text)
    assert diff.status == "changed" and any("from the terminal" in line.text for line in diff.unified)

    sent = await flaky.writing.send(opened, text)

    assert sent.change_request.number == cr["number"] and not sent.created
    assert page["id"] in sent.pages
    now = state.change_requests[cr["id"]]
    assert now["revision"] != opened.revision
    assert "A line added from the terminal." in titled(state, now["revision"], "Installation")["markdown"]
    assert len(content_posts(counting)) == 1
    assert flaky.writing.draft(opened) is None  # the service has it: the draft is gone


async def test_an_unchanged_text_sends_nothing(
    flaky: Services, state: SandboxState, cr: dict[str, Any], counting: Counting
) -> None:
    page = titled(state, cr["revision"], "Installation")
    opened = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    with pytest.raises(NothingChanged):
        await flaky.writing.send(opened, opened.markdown + "\n\n")
    assert counting.writes == []


async def test_an_edit_of_main_goes_into_a_new_change_request(
    flaky: Services, state: SandboxState, cr: dict[str, Any]
) -> None:
    space = state.spaces[cr["space"]]
    page = next(iter(tree(state, space["revision"]).values()))
    opened = await flaky.writing.open(cr["space"], page["id"])
    assert opened.change_request is None and opened.revision == space["revision"]
    before = len(state.change_requests)

    sent = await flaky.writing.send(opened, "# Fixed\n\nNew words.\n", subject=f"Edit {opened.title}")

    assert sent.created and len(state.change_requests) == before + 1
    made = state.change_requests[sent.change_request.id]
    assert made["subject"] == f"Edit {opened.title}"
    assert "New words." in tree(state, made["revision"])[page["id"]]["markdown"]
    assert state.spaces[cr["space"]]["revision"] == space["revision"]  # main is untouched


async def test_a_colleagues_revision_is_met_before_sending(
    flaky: Services, state: SandboxState, cr: dict[str, Any], counting: Counting
) -> None:
    page = titled(state, cr["revision"], "Installation")
    mine = await flaky.writing.open(cr["space"], page["id"], change_request=cr["number"])
    theirs = await flaky.writing.open(cr["space"], page["id"], change_request=cr["number"])
    await flaky.writing.send(theirs, theirs.markdown + "\nTheir line.\n")
    text = mine.markdown + "\nMy line.\n"

    with pytest.raises(MovedOn) as moved:
        await flaky.writing.send(mine, text)

    assert moved.value.page_changed and moved.value.theirs is not None and "Their line." in moved.value.theirs
    assert any("My line." in line.text for line in moved.value.diff(text).unified)
    assert len(content_posts(counting)) == 1  # mine was not sent
    assert flaky.writing.draft(mine) is not None and flaky.writing.draft(mine).text == text  # type: ignore[union-attr]

    rebased = await flaky.writing.open(cr["space"], page["id"], change_request=cr["number"])  # rebase
    sent = await flaky.writing.send(rebased, rebased.markdown + "\nMy line.\n")
    stored = titled(state, state.change_requests[cr["id"]]["revision"], "Installation")["markdown"]
    assert "Their line." in stored and "My line." in stored
    assert sent.change_request.number == cr["number"]


async def test_a_revision_elsewhere_in_the_change_request_does_not_stop_the_edit(
    flaky: Services, state: SandboxState, cr: dict[str, Any]
) -> None:
    pages = [p for p in tree(state, cr["revision"]).values() if p.get("type") != "link"]
    mine = await flaky.writing.open(cr["space"], pages[0]["id"], change_request=cr["id"])
    other = await flaky.writing.open(cr["space"], pages[-1]["id"], change_request=cr["id"])
    await flaky.writing.send(other, other.markdown + "\nElsewhere.\n")
    assert await flaky.writing.moved_on(mine) is None
    await flaky.writing.send(mine, mine.markdown + "\nHere.\n")


async def test_sending_anyway_overwrites_on_purpose(flaky: Services, state: SandboxState, cr: dict[str, Any]) -> None:
    page = titled(state, cr["revision"], "Installation")
    mine = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    theirs = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    await flaky.writing.send(theirs, "# Installation\n\nTheirs.\n")
    await flaky.writing.send(mine, "# Installation\n\nMine.\n", force=True)
    assert "Mine." in titled(state, state.change_requests[cr["id"]]["revision"], "Installation")["markdown"]


async def test_a_merged_change_request_takes_no_edit(flaky: Services, state: SandboxState, cr: dict[str, Any]) -> None:
    page = titled(state, cr["revision"], "Installation")
    opened = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    state.change_requests[cr["id"]]["status"] = "merged"
    with pytest.raises(ChangeRequestClosed, match="merged"):
        await flaky.writing.send(opened, opened.markdown + "\nx\n")


async def test_a_lost_answer_is_found_not_sent_again(
    flaky: Services, state: SandboxState, cr: dict[str, Any], faults: Faults, counting: Counting
) -> None:
    page = titled(state, cr["revision"], "Installation")
    opened = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    faults.drop_after_write = 1.0
    sent = await flaky.writing.send(opened, opened.markdown + "\nLost but done.\n")
    faults.drop_after_write = 0.0
    assert sent.found
    assert len(content_posts(counting)) == 1
    assert "Lost but done." in titled(state, state.change_requests[cr["id"]]["revision"], "Installation")["markdown"]
    assert flaky.writing.draft(opened) is None


async def test_a_send_that_never_arrived_keeps_the_draft(
    flaky: Services, state: SandboxState, cr: dict[str, Any], faults: Faults
) -> None:
    page = titled(state, cr["revision"], "Installation")
    opened = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    revision = cr["revision"]
    faults.drop_rate = 1.0  # every request cut before the service sees it
    with pytest.raises(Exception):  # noqa: B017 - the transport's error, whatever the client makes of it
        await flaky.writing.send(opened, opened.markdown + "\nKept.\n")
    faults.drop_rate = 0.0
    assert state.change_requests[cr["id"]]["revision"] == revision
    kept = flaky.writing.draft(opened)
    assert kept is not None and kept.text.endswith("Kept.\n") and kept.base == opened.markdown


async def test_a_lost_answer_that_did_nothing_says_so(
    flaky: Services, state: SandboxState, cr: dict[str, Any], faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = titled(state, cr["revision"], "Installation")
    opened = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    from folio.api import errors

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise errors.TransportError("connection reset")

    monkeypatch.setattr(type(flaky.client.change_requests), "update_content", lost)
    with pytest.raises(NotDone):
        await flaky.writing.send(opened, opened.markdown + "\nNever.\n")
    assert flaky.writing.draft(opened) is not None


# --- a batch of tree edits -------------------------------------------------------------------------------------


async def test_a_plan_of_every_edit_is_one_revision(
    flaky: Services, state: SandboxState, cr: dict[str, Any], tmp_path: Path, counting: Counting
) -> None:
    before = tree(state, cr["revision"])
    plan = await flaky.writing.plan(cr["space"], cr["id"])
    pages = [e.page for e in plan.pages]
    docs = [p for p in pages if p.type != "link"]
    top, second = docs[0], next(p for p in docs[1:] if p.id not in {c.id for c in docs[0].pages})
    leaf = next(e.page for e in plan.pages if e.depth > 0 and e.page.type != "link")
    image = tmp_path / "diagram.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)

    plan.add_page("Troubleshooting", under=top.id)
    plan.rename(second.id, title="Renamed page")
    plan.rename(second.id, slug="renamed")
    plan.move(leaf.id, into=None, at=0)
    plan.revert(top.id)
    _, link = plan.add_file(image)
    assert link == "![diagram.png](./diagram.png)"
    assert [line.split(". ", 1)[0] for line in plan.lines()] == ["1", "2", "3", "4", "5", "6"]
    assert plan.lines()[0] == f"1. New page “Troubleshooting” under “{top.title}”"

    sent = await flaky.writing.send_plan(plan)

    now = state.change_requests[cr["id"]]
    assert sent.change_request.revision == now["revision"] != cr.get("revision_before", plan.revision)
    after = tree(state, now["revision"])
    assert after[second.id]["title"] == "Renamed page" and after[second.id]["slug"] == "renamed"
    assert leaf.id in [p["id"] for p in state.revisions[now["revision"]]["pages"]]  # moved to the top level
    new = [p for pid, p in after.items() if pid not in before]
    assert [p["title"] for p in new] == ["Troubleshooting"]
    assert len(content_posts(counting)) == 1


async def test_a_plan_is_checked_before_it_is_sent(
    flaky: Services, state: SandboxState, cr: dict[str, Any], tmp_path: Path
) -> None:
    plan = await flaky.writing.plan(cr["space"], cr["id"])
    top = plan.pages[0].page
    child = next(e.page for e in plan.pages if e.depth == 1)
    with pytest.raises(Invalid, match="under itself"):
        plan.move(plan.parent_of(child.id) or top.id, into=child.id)
    with pytest.raises(Invalid, match="title"):
        plan.add_page("   ")
    with pytest.raises(Invalid, match="already has the slug"):
        sibling = next(e.page for e in plan.pages if e.depth == 0 and e.page.id != top.id)
        plan.rename(top.id, slug=sibling.slug)
    plan.delete(top.id)
    with pytest.raises(Invalid, match="deleted by this plan"):
        plan.rename(child.id if plan.parent_of(child.id) == top.id else top.id, title="x")
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * (MAX_FILE_BYTES + 1))
    with pytest.raises(Invalid, match="1 MiB"):
        plan.add_file(big)
    with pytest.raises(Invalid, match="Cannot read"):
        plan.add_file(tmp_path / "missing.png")
    for n in range(49):
        plan.add_page(f"Page {n}")
    with pytest.raises(Invalid, match="at most 50"):
        plan.add_page("One too many")
    assert slug_problem("a/b") and slug_problem("x" * 101) and slug_problem("") and slug_problem("ok-slug") is None


async def test_a_plan_on_an_old_tree_says_so(
    flaky: Services, state: SandboxState, cr: dict[str, Any], counting: Counting
) -> None:
    plan = await flaky.writing.plan(cr["space"], cr["id"])
    plan.add_page("Mine")
    colleague = await flaky.writing.plan(cr["space"], cr["id"])
    colleague.add_page("Theirs")
    await flaky.writing.send_plan(colleague)
    with pytest.raises(MovedOn, match="newer revision"):
        await flaky.writing.send_plan(plan)
    sent = await flaky.writing.send_plan(plan, force=True)
    titles = {p["title"] for p in tree(state, sent.change_request.revision or "").values()}
    assert {"Mine", "Theirs"} <= titles


async def test_a_plan_whose_answer_was_lost_is_found(
    flaky: Services, state: SandboxState, cr: dict[str, Any], faults: Faults, counting: Counting
) -> None:
    plan = await flaky.writing.plan(cr["space"], cr["id"])
    first = plan.pages[0].page
    plan.add_page("Found again")
    plan.rename(first.id, title="Renamed")
    faults.drop_after_write = 1.0
    sent = await flaky.writing.send_plan(plan)
    faults.drop_after_write = 0.0
    assert sent.found and len(content_posts(counting)) == 1


def test_same_text_ignores_trailing_spaces_only() -> None:
    assert same_text("a  \nb\n\n", "a\nb")
    assert not same_text("a\nb", "a\nc")
    assert not same_text(None, "")


async def test_the_client_reads_both_answers(client: GitBookClient, state: SandboxState, cr: dict[str, Any]) -> None:
    from folio.models.content_changes import InsertPage, MarkdownDocument

    old = await client.change_requests.update_content(
        cr["space"], cr["id"], [InsertPage(title="Old answer", document=MarkdownDocument())], compat=True
    )
    assert old.change_request.id == cr["id"] and old.changes == []
    new = await client.change_requests.update_content(
        cr["space"], cr["id"], [InsertPage(title="New answer", document=MarkdownDocument(markdown="# New answer\n"))]
    )
    assert [c.object for c in new.changes] == ["created_page"] and new.changes[0].page_id in tree(
        state, state.change_requests[cr["id"]]["revision"]
    )


async def test_a_merge_into_main_meanwhile_is_met_before_a_new_change_request(
    flaky: Services, state: SandboxState, cr: dict[str, Any]
) -> None:
    space = state.spaces[cr["space"]]
    page = next(p for p in tree(state, space["revision"]).values() if p.get("type") != "link")
    opened = await flaky.writing.open(cr["space"], page["id"])
    colleague = await flaky.writing.open(cr["space"], page["id"], change_request=cr["id"])
    await flaky.writing.send(colleague, colleague.markdown + "\nMerged meanwhile.\n")
    await flaky.client.change_requests.merge(cr["space"], cr["id"])
    before = len(state.change_requests)
    with pytest.raises(MovedOn, match="main content moved on"):
        await flaky.writing.send(opened, opened.markdown + "\nMine.\n", subject="Mine")
    assert len(state.change_requests) == before  # no change request made for an edit that was not sent
