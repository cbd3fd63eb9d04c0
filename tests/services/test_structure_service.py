"""StructureService against the sandbox: moves go through the right operation for the service (and the older
ones where it lacks the newer), a failing step stops the run and leaves the layout as the service holds it,
undo takes steps back, and edits, new items and removals reach the service."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient, Token
from folio.api.errors import NotFound, NotOffered, ServerError
from folio.models.site_structure import SiteSection
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.services.sites.structure import (
    EditFailed,
    Layout,
    Move,
    StepFailed,
    StructureService,
    StructureTree,
    Unsupported,
    build_plan,
)
from tests.api.sites_support import group, section, site_id, space_id
from tests.conftest import SANDBOX_URL, TOKEN

SORT = ("PATCH", "/orgs/{organizationId}/sites/{siteId}/structure/sort")
SECTION_UPDATE = ("PATCH", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}")
SECTION_MOVE = ("POST", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move")
ADD_TO_GROUP = ("POST", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections")
SITE_SPACE_MOVE = ("POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move")


def outline(state: SandboxState, title: str = "Northwind Docs") -> list[Any]:
    """The sandbox's own structure of a site: titles, a group's children in a list after it."""
    sid = site_id(state, title)
    levels: dict[str | None, list[tuple[int, str, str]]] = {}
    for store, kind in (("site_sections", "s"), ("section_groups", "g")):
        for rec in getattr(state, store).values():
            if rec["site"] == sid:
                levels.setdefault(rec["sectionGroup"], []).append((rec["order"], rec["id"], kind))

    def level(parent: str | None) -> list[Any]:
        out: list[Any] = []
        for _, rid, kind in sorted(levels.get(parent, [])):
            rec = (state.section_groups if kind == "g" else state.site_sections)[rid]
            out.append(rec["title"])
            if kind == "g":
                out.append(level(rid))
        return out

    return level(None)


def spaces_of(state: SandboxState, section_title: str) -> list[str]:
    sid = section(state, section_title)
    recs = sorted((r for r in state.site_spaces.values() if r["section"] == sid), key=lambda r: r["order"])
    return [r["path"] for r in recs]


async def load(client: GitBookClient, state: SandboxState, title: str = "Northwind Docs") -> tuple[Any, ...]:
    service = StructureService(client)
    tree = await service.load(state.demo_org, site_id(state, title))
    return service, tree, tree.layout.copy()


def move_to(tree: StructureTree, layout: Layout, item: str, parent: str | None, index: int) -> Move:
    return Move(item, *layout.position(item), parent, index)


# --- reading ----------------------------------------------------------------------------------------------------


async def test_the_tree_and_its_urls_match_what_the_service_says(client: GitBookClient, state: SandboxState) -> None:
    service, tree, _ = await load(client, state)
    assert [tree.nodes[k].title for k, d in tree.layout.rows() if d == 0] == ["Product", "Release Notes"]
    structure = await client.sites.structure(state.demo_org, site_id(state))
    said = {s.id: s.urls.published for s in structure.sections() if s.urls}
    said.update({ss.id: ss.urls.published for ss in structure.site_spaces() if ss.urls})
    assert tree.resolve()[1] == said
    assert tree.defaults() == {s.id for s in structure.sections() if s.default} | {
        ss.id for ss in structure.site_spaces() if ss.default
    }
    handbook = await service.load(state.demo_org, site_id(state, "Internal Handbook"))
    assert not handbook.sections and handbook.base_url is None
    assert [handbook.nodes[k].title for k, _ in handbook.layout.rows()] == [
        "Onboarding",
        "Platform Runbooks",
        "Architecture Decisions",
    ]
    titles = [t for _, t in await service.spaces(state.demo_org)]
    assert "Release Notes" in titles and titles == sorted(titles, key=str.lower)


# --- moves ------------------------------------------------------------------------------------------------------


async def test_a_section_into_a_group_is_its_update_then_the_sort(client: GitBookClient, state: SandboxState) -> None:
    service, tree, confirmed = await load(client, state)
    notes, sdks = section(state, "Release Notes"), section(state, "SDKs")
    move = move_to(tree, confirmed, notes, group(state, "Reference"), 1)
    state.hits.clear()
    progress: list[tuple[int, int, str]] = []
    assert await service.apply(tree, confirmed, [move], lambda *a: progress.append(a)) == 1
    assert outline(state) == [
        "Product",
        ["Getting Started", "User Guide", "Reference", ["REST API", "Release Notes", "SDKs"]],
    ]
    assert {SECTION_UPDATE, SORT} <= state.hits and SECTION_MOVE not in state.hits
    assert progress[0][:2] == (0, 1) and progress[-1] == (1, 1, "Done")
    expected = tree.layout.copy()
    expected.apply(move)
    assert confirmed.rows() == expected.rows()
    assert state.site_sections[notes]["order"] < state.site_sections[sdks]["order"]


async def test_groups_and_site_spaces_move_through_their_own_operations(
    client: GitBookClient, state: SandboxState
) -> None:
    service, tree, confirmed = await load(client, state)
    reference, notes = group(state, "Reference"), section(state, "Release Notes")
    onboarding = next(k for k, n in tree.nodes.items() if n.path == "onboarding")
    state.hits.clear()
    moves = [move_to(tree, confirmed, reference, None, 0)]
    await service.apply(tree, confirmed, moves)
    moves = [move_to(tree, confirmed, onboarding, notes, 0)]
    await service.apply(tree, confirmed, moves)
    assert outline(state) == [
        "Reference",
        ["REST API", "SDKs"],
        "Product",
        ["Getting Started", "User Guide"],
        "Release Notes",
    ]
    assert spaces_of(state, "Release Notes") == ["onboarding", "changelog", "brand"]
    assert SITE_SPACE_MOVE in state.hits and SORT in state.hits


async def test_without_the_sort_a_section_takes_the_deprecated_move(
    client: GitBookClient, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, tree, confirmed = await load(client, state)

    async def not_offered(*args: Any, **kwargs: Any) -> None:
        raise NotOffered(method="PATCH", path="/structure/sort", status=405)

    monkeypatch.setattr(client.sites, "sort_structure", not_offered)
    guide, started = section(state, "User Guide"), section(state, "Getting Started")
    state.hits.clear()
    await service.apply(tree, confirmed, [move_to(tree, confirmed, guide, group(state, "Product"), 0)])
    assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
    assert SECTION_MOVE in state.hits and not service.offered.sort
    assert state.site_sections[guide]["order"] < state.site_sections[started]["order"]
    # A group cannot be reordered without the sort: the step says so and nothing changes.
    with pytest.raises(StepFailed) as failed:
        await service.apply(
            tree, confirmed, [move_to(tree, confirmed, group(state, "Reference"), group(state, "Product"), 0)]
        )
    assert isinstance(failed.value.cause, Unsupported)
    assert outline(state)[1] == ["User Guide", "Getting Started", "Reference", ["REST API", "SDKs"]]


async def test_when_the_update_ignores_the_group_a_section_is_added_to_it(
    client: GitBookClient, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, tree, confirmed = await load(client, state)
    real_update = client.site_sections.update

    async def older_update(*args: Any, section_group: Any = None, **kwargs: Any) -> SiteSection:
        return await real_update(*args, **kwargs)  # an older service ignores siteSectionGroupId

    monkeypatch.setattr(client.site_sections, "update", older_update)
    notes = section(state, "Release Notes")
    state.hits.clear()
    await service.apply(tree, confirmed, [move_to(tree, confirmed, notes, group(state, "Product"), 3)])
    assert ADD_TO_GROUP in state.hits and not service.offered.section_group_update
    assert outline(state) == [
        "Product",
        ["Getting Started", "User Guide", "Reference", ["REST API", "SDKs"], "Release Notes"],
    ]


async def test_a_service_without_add_to_group_moves_sections_by_their_update(state: SandboxState) -> None:
    async with GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(create_app(state, offer_optional=False))
    ) as client:
        service, tree, confirmed = await load(client, state)
        state.hits.clear()
        # Before Release Notes: a place the section move reaches (that service lacks the structure sort too).
        await service.apply(tree, confirmed, [move_to(tree, confirmed, section(state, "SDKs"), None, 1)])
        assert outline(state)[2:] == ["SDKs", "Release Notes"] and ADD_TO_GROUP not in state.hits
        # And with the update ignored too, the move cannot be made: said in words, nothing left half done.
        service.offered.section_group_update = False
        with pytest.raises(StepFailed) as failed:
            await service.apply(
                tree, confirmed, [move_to(tree, confirmed, section(state, "SDKs"), group(state, "Reference"), 0)]
            )
        assert "no operation to put a section in group “Reference”" in failed.value.describe()
        assert outline(state)[2] == "SDKs"


async def test_a_service_without_the_sort_reorders_sections_with_the_section_move(state: SandboxState) -> None:
    async with GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(create_app(state, offer_optional=False))
    ) as client:
        service, tree, confirmed = await load(client, state)
        product, reference = group(state, "Product"), group(state, "Reference")
        # A group has no other way to be reordered: the step says so, and the service and the layout stay as they
        # were.
        before, rows = outline(state), confirmed.rows()
        with pytest.raises(StepFailed) as failed:
            await service.apply(tree, confirmed, [move_to(tree, confirmed, reference, product, 0)])
        assert isinstance(failed.value.cause, Unsupported) and not failed.value.stranded
        assert failed.value.describe() == (
            "This service offers no structure sort, the only operation that reorders a group: "
            "group “Reference” keeps its place."
        )
        assert not service.offered.sort and outline(state) == before and confirmed.rows() == rows
        # A section falls back on the deprecated section move.
        guide, started = section(state, "User Guide"), section(state, "Getting Started")
        state.hits.clear()
        await service.apply(tree, confirmed, [move_to(tree, confirmed, guide, product, 0)])
        assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
        assert state.hits == {SECTION_MOVE}
        assert confirmed.kids(product)[:2] == [guide, started]


async def test_an_unknown_item_on_a_service_with_the_sort_is_not_found_not_a_fallback(
    client: GitBookClient, state: SandboxState
) -> None:
    service, tree, confirmed = await load(client, state)
    guide = section(state, "User Guide")
    state.site_sections.pop(guide)  # removed on the service meanwhile
    state.hits.clear()
    with pytest.raises(StepFailed) as failed:
        await service.apply(tree, confirmed, [move_to(tree, confirmed, guide, group(state, "Product"), 0)])
    assert isinstance(failed.value.cause, NotFound) and not isinstance(failed.value.cause, NotOffered)
    assert failed.value.status == 404 and "No matching site section" in failed.value.describe()
    assert service.offered.sort and SORT in state.hits and SECTION_MOVE not in state.hits
    # The sort is still used for what is there.
    notes = section(state, "Release Notes")
    await service.apply(tree, confirmed, [move_to(tree, confirmed, notes, None, 0)])
    assert outline(state)[0] == "Release Notes" and SECTION_MOVE not in state.hits


# --- failures and undo ------------------------------------------------------------------------------------------


async def test_a_refusal_stops_the_run_and_undo_takes_back_the_applied_steps(
    client: GitBookClient, state: SandboxState
) -> None:
    service, tree, confirmed = await load(client, state)
    start = confirmed.copy()
    layout = confirmed.copy()
    moves = []
    for item, parent, index in (
        (section(state, "Release Notes"), None, 0),
        (group(state, "Reference"), None, 1),
        (section(state, "SDKs"), None, 3),
    ):
        moves.append(move_to(tree, layout, item, parent, index))
        layout.apply(moves[-1])
    plan = build_plan(tree, confirmed, moves, service.offered)
    state.site_sections.pop(section(state, "SDKs"))  # gone from the service meanwhile: step 3 fails
    with pytest.raises(StepFailed) as failed:
        await service.apply(tree, confirmed, plan.moves)
    assert failed.value.index == 2 and not failed.value.stranded
    assert "No matching site section" in failed.value.describe()
    assert outline(state)[:3] == ["Release Notes", "Reference", ["REST API"]]
    assert await service.undo(tree, confirmed, plan.moves[:2]) == 2
    assert outline(state) == ["Product", ["Getting Started", "User Guide", "Reference", ["REST API"]], "Release Notes"]
    assert confirmed.rows() == start.rows()


async def test_a_step_that_fails_half_way_is_taken_back(
    client: GitBookClient, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, tree, confirmed = await load(client, state)
    real_sort = client.sites.sort_structure
    calls: list[Any] = []

    async def failing_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise ServerError("boom", method="PATCH", path="/sort", status=503)
        return await real_sort(*args, **kwargs)

    monkeypatch.setattr(client.sites, "sort_structure", failing_once)
    before = outline(state)
    notes = section(state, "Release Notes")
    with pytest.raises(StepFailed) as failed:
        await service.apply(tree, confirmed, [move_to(tree, confirmed, notes, group(state, "Reference"), 0)])
    assert not failed.value.stranded and failed.value.status == 503
    assert outline(state) == before  # the update that went through was taken back
    assert confirmed.position(notes) == (None, 1)


async def test_a_read_only_member_is_refused(client: GitBookClient, state: SandboxState) -> None:
    service, tree, confirmed = await load(client, state)
    state.members[state.demo_org][state.default_user]["role"] = "read"
    with pytest.raises(StepFailed) as failed:
        await service.apply(tree, confirmed, [move_to(tree, confirmed, section(state, "Release Notes"), None, 0)])
    assert failed.value.status == 403 and "permission" in failed.value.describe()
    assert confirmed.rows() == tree.layout.rows()


# --- edits, new items, removals ---------------------------------------------------------------------------------


async def test_edits_reach_the_service(client: GitBookClient, state: SandboxState) -> None:
    service, tree, _ = await load(client, state)
    sdks, notes = section(state, "SDKs"), section(state, "Release Notes")
    await service.edit(tree, sdks, {"title": "Kits", "path": "kits", "condition": None, "icon": None})
    rec = state.site_sections[sdks]
    assert (rec["title"], rec["path"], rec["condition"], rec["icon"]) == ("Kits", "kits", None, None)
    await service.edit(tree, notes, {"default": True, "description": "What changed"})
    assert state.sites[site_id(state)]["defaultSiteSection"] == notes
    brand = next(k for k, n in tree.nodes.items() if n.path == "brand")
    await service.edit(tree, brand, {"hidden": False, "condition": "visitor.claims.isBeta == true", "default": True})
    assert state.site_spaces[brand]["hidden"] is False and state.site_spaces[brand]["condition"]
    assert state.site_sections[notes]["defaultSiteSpace"] == brand
    await service.edit(tree, group(state, "Reference"), {"title": "APIs", "icon": "code"})
    assert state.section_groups[group(state, "APIs")]["icon"] == "code"


async def test_an_edit_whose_default_is_refused_says_what_was_saved(client: GitBookClient, state: SandboxState) -> None:
    service, tree, _ = await load(client, state)
    state.members[state.demo_org][state.default_user]["role"] = "create"  # may change sections, not the site
    sdks = section(state, "SDKs")
    with pytest.raises(EditFailed) as failed:
        await service.edit(tree, sdks, {"path": "kits", "default": True})
    assert failed.value.applied == ("path",) and "saved: path" in failed.value.describe()
    assert state.site_sections[sdks]["path"] == "kits"


async def test_new_items_and_removals(client: GitBookClient, state: SandboxState) -> None:
    service, tree, _ = await load(client, state)
    made = await service.create_section(
        tree, space_id(state, "Onboarding"), title="Welcome", icon="hand", group=group(state, "Product")
    )
    assert state.site_sections[made]["sectionGroup"] == group(state, "Product")
    grouped = await service.create_group(
        tree, "Extras", icon=None, sections=[made, section(state, "Release Notes")], parent=None
    )
    assert outline(state)[-2:] == ["Extras", ["Welcome", "Release Notes"]]
    ss = await service.create_site_space(tree, space_id(state, "Platform Runbooks"), section=made)
    assert state.site_spaces[ss]["section"] == made
    tree = await service.load(state.demo_org, site_id(state))
    await service.delete(tree, grouped)
    assert outline(state)[-2:] == ["Welcome", "Release Notes"]
    await service.delete(tree, made)
    assert made not in state.site_sections and ss not in state.site_spaces
