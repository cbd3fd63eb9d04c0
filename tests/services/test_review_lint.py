"""The review lint against the seeded sandbox: the broken links a change request introduces (and not those main
already has), asserted on change requests made in the sandbox."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient
from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.seed.change_requests import Edit, commit, create, delete, edit, move
from folio.sandbox.state import Record
from folio.services import Services
from folio.services.review.review_lint import BrokenLink, LintItem, ReviewLint, is_empty


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def make_cr(state: SandboxState, space: str, edits: list[Edit], subject: str = "Lint me") -> Record:
    record = open_change_request(state, space, state.default_user, subject=subject, at=state.now())
    commit(state, record, edits, state.now())
    return record


@pytest.fixture
def lint(client: GitBookClient) -> ReviewLint:
    return Services(client).review_lint


async def test_broken_links_introduced_by_a_deletion_and_an_edit(lint: ReviewLint, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(
        state,
        space,
        [delete("Installation"), edit("Troubleshooting", "", "\nRead [the FAQ](/pages/no-such-faq) too.\n")],
    )
    found = await lint.introduced_broken_links(space, cr["id"])
    assert set(found) == {
        BrokenLink(_id(state, space, "Welcome"), "Welcome", "page “Installation” (removed)"),
        BrokenLink(_id(state, space, "Troubleshooting"), "Troubleshooting", "a missing page (no-such-faq)"),
    }
    # Troubleshooting's link to "Network setup" was already broken on main: not this change request's doing.
    assert all("Network" not in b.target for b in found)


async def test_an_unrelated_edit_breaks_nothing(lint: ReviewLint, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(state, space, [edit("Troubleshooting", "", "\nRestart the robot first.\n")])
    assert await lint.introduced_broken_links(space, cr["id"]) == []


async def test_a_removed_file_still_linked_is_named(lint: ReviewLint, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(state, space, [])
    revision = state.revisions[cr["revision"]]
    [diagram, *rest] = revision["files"]
    revision["files"] = rest
    found = await lint.introduced_broken_links(space, cr["id"])
    assert found == [BrokenLink(_id(state, space, "Welcome"), "Welcome", f"file “{diagram['name']}” (removed)")]


async def test_without_the_space_links_read_every_page_is_asked(
    lint: ReviewLint, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service without ``/spaces/{id}/links``: each page's links are read on main and in the change request."""
    real = lint._client.spaces.links

    def missing(*args: object, **kwargs: object) -> object:
        paginator = real(*args, **kwargs)  # type: ignore[arg-type]
        paginator.path += "-not-offered"
        return paginator

    monkeypatch.setattr(lint._client.spaces, "links", missing)
    space = space_id(state, "Getting Started")
    cr = make_cr(state, space, [delete("Troubleshooting")])
    found = await lint.introduced_broken_links(space, cr["id"])
    assert found == [
        BrokenLink(_id(state, space, "Your first robot"), "Your first robot", "page “Troubleshooting” (removed)")
    ]


async def test_lint_flags_empty_pages_removals_large_deletions_and_missing_descriptions(
    lint: ReviewLint, state: SandboxState
) -> None:
    space = space_id(state, "Getting Started")

    def described(title: str) -> Edit:
        def apply(state: SandboxState, pages: list[Record], at: str) -> None:
            from folio.sandbox.revisions import walk

            next(p for p, _, _ in walk(pages) if p["title"] == title)["description"] = "What to do first."

        return apply

    welcome = state.revisions[state.spaces[space]["revision"]]["pages"][0]
    assert welcome["title"] == "Welcome"
    cr = make_cr(
        state,
        space,
        [
            create("Glossary", "# Glossary\n\n"),
            delete("Troubleshooting"),
            edit("Welcome", welcome["markdown"], "# Welcome\n\nShort now.\n"),
            described("Welcome"),
        ],
    )
    record = await lint._client.change_requests.get(space, cr["id"])
    report = await lint.lint(space, record)
    found = {(i.kind, i.page_title) for i in report.items}
    assert ("empty", "Glossary") in found and ("no-description", "Glossary") in found
    assert ("large-deletion", "Welcome") in found and ("no-description", "Welcome") not in found
    linked = next(i for i in report.items if i.kind == "linked")
    assert linked == LintItem(
        "linked", _id(state, space, "Troubleshooting"), "Troubleshooting", "Deleted; linked from “Your first robot”."
    )
    broken = [i for i in report.items if i.kind == "broken-link"]
    assert [(i.page_title, i.text) for i in broken] == [
        ("Your first robot", "Links to page “Troubleshooting” (removed).")
    ]
    assert report.items[0].kind == "broken-link" and report.unchecked == []
    welcome_cut = next(i for i in report.items if i.kind == "large-deletion")
    assert welcome_cut.text.startswith("Removes ") and "%" in welcome_cut.text


async def test_lint_names_a_removed_file_a_page_uses(lint: ReviewLint, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(state, space, [])
    revision = state.revisions[cr["revision"]]
    diagram = revision["files"].pop(0)
    report = await lint.lint(space, await lint._client.change_requests.get(space, cr["id"]))
    texts = [i.text for i in report.items if i.kind == "linked"]
    assert texts == [f"Removes the file “{diagram['name']}”, used on “Welcome”."]


async def test_a_moved_page_other_pages_link_to_is_said(lint: ReviewLint, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(state, space, [move("Troubleshooting", under="Installation")])
    report = await lint.lint(space, await lint._client.change_requests.get(space, cr["id"]))
    linked = [(i.page_title, i.text) for i in report.items if i.kind == "linked"]
    assert linked == [("Troubleshooting", "Moved (its address changes); linked from “Your first robot”.")]
    assert not [i for i in report.items if i.kind == "broken-link"]  # a link by page follows the page


def test_a_page_of_headings_only_is_empty() -> None:
    assert is_empty("# Title\n\n## Later\n") and is_empty(None) and is_empty("  \n")
    assert not is_empty("# Title\n\nOne line.\n")


def _id(state: SandboxState, space: str, title: str) -> str:
    from folio.sandbox.revisions import walk

    pages = state.revisions[state.spaces[space]["revision"]]["pages"]
    return str(next(p["id"] for p, _, _ in walk(pages) if p["title"] == title))
