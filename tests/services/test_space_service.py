"""The space service against the seeded sandbox, and its pure helpers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.models.common import Dimensions, File, Page
from folio.models.space import Space
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.seed.content import MISSING_PAGE
from folio.services.content.space import (
    CR_STATUSES,
    FileEntry,
    SpaceService,
    flatten_pages,
    human_size,
    next_cr_status,
    space_facts,
    space_label,
)
from tests.conftest import EXCHANGES, SANDBOX_URL, TOKEN


def space_id(state: SandboxState, title: str) -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title and s["organization"] == state.demo_org)


@pytest.fixture
def spaces(client: GitBookClient) -> SpaceService:
    return SpaceService(client)


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
async def bare_client(state: SandboxState) -> AsyncIterator[GitBookClient]:
    """A client over a service without the optional operations (no links list)."""
    c = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, offer_optional=False)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield c
    await c.aclose()


# -- against the sandbox -------------------------------------------------------------------------------------


async def test_the_page_tree_is_flattened_with_depths(spaces: SpaceService, state: SandboxState) -> None:
    entries = await spaces.pages(space_id(state, "Getting Started"))
    shape = [(e.page.title, e.depth, e.kind) for e in entries]
    assert shape == [
        ("Welcome", 0, "document"),
        ("Installation", 0, "document"),
        ("Linux", 1, "document"),
        ("macOS", 1, "document"),
        ("Your first robot", 0, "document"),
        ("Troubleshooting", 0, "document"),
        ("Status page", 0, "link"),
    ]
    link = entries[-1]
    assert link.url == "https://status.northwind.dev"  # a link page's url is its target
    assert entries[0].url is not None and entries[0].url.startswith("https://app.gitbook.com/")


async def test_markdown_comes_from_the_tree_or_is_read(spaces: SpaceService, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    welcome = (await spaces.pages(sid))[0].page
    before = len(EXCHANGES)
    assert "Welcome to Northwind" in await spaces.page_markdown(sid, welcome)
    assert len(EXCHANGES) == before  # it came with the tree
    # Without markdown in the tree, the page is read on its own (format=markdown).
    bare = welcome.model_copy(update={"markdown": None})
    assert "Welcome to Northwind" in await spaces.page_markdown(sid, bare)
    assert [(e["path"], e["query"]) for e in EXCHANGES[before:]] == [
        (f"/spaces/{sid}/content/page/{welcome.id}", [("format", "markdown")])
    ]


async def test_files_in_words(spaces: SpaceService, state: SandboxState) -> None:
    files = await spaces.files(space_id(state, "Getting Started"))
    assert [f.cells for f in files] == [
        ("getting-started-diagram.png", "image/png", "48.2 kB", "1280 x 720"),
        ("getting-started.pdf", "application/pdf", "183.0 kB", "—"),
    ]
    assert files[0].url == "https://files.example.com/getting-started-diagram.png"


async def test_links_are_named_and_broken_ones_counted(spaces: SpaceService, state: SandboxState) -> None:
    report = await spaces.links(space_id(state, "Getting Started"))
    assert report.offered
    assert report.summary == "1 broken of 7"
    broken = [link for link in report.links if link.broken]
    assert len(broken) == 1
    assert broken[0].target == MISSING_PAGE
    assert broken[0].label == f"Missing page {MISSING_PAGE}"
    assert broken[0].used_on == ("Troubleshooting",)
    assert broken[0].cells[0] == "✗ broken"
    labels = {link.label for link in report.links}
    assert {"Installation", "getting-started-diagram.png", "https://status.northwind.dev"} <= labels
    diagram = next(link for link in report.links if link.kind == "file")
    assert diagram.url == "https://files.example.com/getting-started-diagram.png"


async def test_links_reuse_the_pages_and_files_given(spaces: SpaceService, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    pages, files = await spaces.pages(sid), await spaces.files(sid)
    before = len(EXCHANGES)
    report = await spaces.links(sid, pages=pages, files=files)
    assert [e["path"] for e in EXCHANGES[before:]] == [f"/spaces/{sid}/links"]  # only the links list was read
    assert report.total == 7


async def test_links_not_offered_is_said_not_raised(bare_client: GitBookClient, state: SandboxState) -> None:
    report = await SpaceService(bare_client).links(space_id(state, "Getting Started"))
    assert not report.offered
    assert report.links == []


async def test_change_requests_by_status_and_all(spaces: SpaceService, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    assert [cr.subject for cr in await spaces.change_requests(sid, "open")] == ["Clarify Linux install steps"]
    assert [cr.subject for cr in await spaces.change_requests(sid, "draft")] == ["Reorganise troubleshooting"]
    everything = await spaces.change_requests(sid, "all")
    assert sorted(cr.number for cr in everything) == [1, 2, 3]
    stamps = [cr.updated_at for cr in everything if cr.updated_at]
    assert stamps == sorted(stamps, reverse=True)


async def test_the_space(spaces: SpaceService, state: SandboxState) -> None:
    space = await spaces.space(space_id(state, "Getting Started"))
    assert space_label(space) == "🚀 Getting Started"
    assert space_facts(space) == ("Public · Live editing · Language en · 1 open change request · 1 open comment")


# -- pure helpers ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "words"),
    [(None, "—"), (0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (48213, "48.2 kB"), (1_300_000, "1.3 MB"),
     (999_990, "1.0 MB"), (5e12, "5.0 TB")],
)  # fmt: skip
def test_human_size(size: float | None, words: str) -> None:
    assert human_size(size) == words


def test_status_cycle_goes_round() -> None:
    seen = ["open"]
    for _ in CR_STATUSES:
        seen.append(next_cr_status(seen[-1]))
    assert seen == ["open", "draft", "archived", "merged", "all", "open"]
    assert next_cr_status("unknown") == "open"


def test_facts_say_locked_plainly() -> None:
    space = Space(id="s1", title="T", visibility="private", edit_mode="locked", comments=2, change_requests_open=0)
    assert space_facts(space) == (
        "Private · Locked: no edits · Language not set · 0 open change requests · 2 open comments"
    )
    assert space_label(Space(id="s1")) == "s1"


def test_flatten_and_file_entry() -> None:
    tree = [
        Page(id="a", type="group", pages=[Page(id="b", pages=[Page(id="c"), Page(id="e")]), Page(id="f")]),
        Page(id="d"),
    ]
    assert [(e.page.id, e.depth, e.kind, e.guide) for e in flatten_pages(tree)] == [
        ("a", 0, "group", ""),
        ("b", 1, "document", "├ "),
        ("c", 2, "document", "│ ├ "),
        ("e", 2, "document", "│ └ "),
        ("f", 1, "document", "└ "),
        ("d", 0, "document", ""),
    ]
    entry = FileEntry.of(File(id="f", size=12, dimensions=Dimensions(width=3, height=4)))
    assert entry.cells == ("f", "—", "12 B", "3 x 4")
