"""Translations through the real client against the sandbox: listing, creating from a source space, reading
(which finishes a queued or running run), updating the instructions, running again, deleting, the errors.

The spaces they translate are made here, in the sandbox state: the tests do not lean on the content seed."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, Forbidden, InvalidRequest, NotFound
from folio.models.common import Document
from folio.models.translation import Translation
from folio.sandbox import SandboxState
from folio.sandbox.routes.translations import new_translation
from folio.sandbox.seed import people
from folio.sandbox.seed import translations as translations_seed


def make_space(state: SandboxState, org: str, *, title: str = "Handbook", language: str = "en") -> str:
    sid = state.new_id()
    now = state.now()
    state.spaces[sid] = {
        "id": sid, "organization": org, "parent": None, "title": title, "emoji": None,
        "visibility": "private", "createdAt": now, "updatedAt": now, "deletedAt": None, "editMode": "live",
        "language": language, "revision": None, "defaultLevel": "read", "mergeRules": {"type": "inherit"},
        "order": 0,
    }  # fmt: skip
    return sid


def other_org(state: SandboxState) -> str:
    """The seeded organization where the demo user only edits."""
    return next(o for o in state.orgs if o != state.demo_org and state.default_user in state.members[o])


# --- list and read ------------------------------------------------------------------------------------------


async def test_list_gives_the_organizations_translations_newest_first(
    client: GitBookClient, state: SandboxState
) -> None:
    space = make_space(state, state.demo_org)
    older = new_translation(
        state, state.demo_org, space=space, source_language="en", language="fr", at="2026-10-01T00:00:00.000Z"
    )
    newer = new_translation(
        state, state.demo_org, space=space, source_language="en", language="de", at="2026-10-30T00:00:00.000Z"
    )
    elsewhere = new_translation(state, other_org(state), space=space, source_language="en", language="it")
    listed = await client.translations.list(state.demo_org).collect()
    ids = [t.id for t in listed]
    assert ids.index(newer["id"]) < ids.index(older["id"])
    assert elsewhere["id"] not in ids
    assert all(isinstance(t, Translation) and t.object == "translation" for t in listed)
    mine = {t.id: t for t in listed}[older["id"]]
    assert mine.source is not None and mine.source.space == space and mine.language == "fr"
    assert mine.status == "completed"  # a list is a read: the queued first run is done
    assert state.translations[older["id"]]["stats"]["runs"] == 1


async def test_get_unknown_translation_is_not_found(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(NotFound) as caught:
        await client.translations.get(state.demo_org, "nope")
    assert "No matching translation" in caught.value.message


async def test_translation_of_another_organization_is_not_found(client: GitBookClient, state: SandboxState) -> None:
    theirs = new_translation(state, other_org(state), space="s", source_language="en", language="fr")
    with pytest.raises(NotFound):
        await client.translations.get(state.demo_org, theirs["id"])


# --- create, run, update, delete ----------------------------------------------------------------------------


async def test_create_is_pending_then_the_next_read_completes_the_first_run(
    client: GitBookClient, state: SandboxState
) -> None:
    space = make_space(state, state.demo_org, title="Guides")
    created = await client.translations.create(
        state.demo_org,
        language="fr",
        source_space=space,
        source_language="en",
        instructions="Keep product names in English.",
    )
    assert created.status == "pending" and created.in_progress
    assert created.stats.runs == 0 and created.result is None
    assert created.instructions is not None and "product names" in created.instructions.plain_text()
    assert created.permissions is not None and created.permissions.edit is True
    record = state.translations[created.id]
    assert record["source"] == {"space": space, "language": "en"} and record["language"] == "fr"
    done = await client.translations.get(state.demo_org, created.id)
    assert done.status == "completed" and not done.in_progress
    assert done.stats.runs == 1 and done.stats.latest_pages > 0 and done.stats.latest_words > 0
    assert done.stats.total_words == done.stats.latest_words
    assert done.result is not None and done.result.language == "fr" and done.result.revision


async def test_create_answers_201(client: GitBookClient, state: SandboxState) -> None:
    space = make_space(state, state.demo_org)
    response = await client.request(
        "POST",
        f"/orgs/{state.demo_org}/translations",
        json={"language": "es", "source": {"space": space, "language": "en"}},
    )
    assert response.status_code == 201
    assert response.json()["instructions"]["object"] == "document"


async def test_run_starts_again_and_counts_the_run(client: GitBookClient, state: SandboxState) -> None:
    space = make_space(state, state.demo_org)
    record = new_translation(state, state.demo_org, space=space, source_language="en", language="ja")
    first = await client.translations.get(state.demo_org, record["id"])
    assert first.status == "completed" and first.stats.runs == 1
    await client.translations.run(state.demo_org, record["id"])
    assert record["status"] == "running" and record["stats"]["runs"] == 2
    second = await client.translations.get(state.demo_org, record["id"])
    assert second.status == "completed" and second.stats.runs == 2
    assert second.stats.total_words == 2 * first.stats.latest_words
    assert second.stats.total_duration == 2 * first.stats.latest_run_duration
    assert second.result is not None and first.result is not None
    assert second.result.revision != first.result.revision
    assert second.result.space == first.result.space


async def test_update_replaces_the_instructions(client: GitBookClient, state: SandboxState) -> None:
    space = make_space(state, state.demo_org)
    record = new_translation(state, state.demo_org, space=space, source_language="en", language="nl")
    updated = await client.translations.update(
        state.demo_org, record["id"], instructions=Document.from_text("Use informal address.\nNo emoji.")
    )
    assert updated.instructions is not None
    assert updated.instructions.plain_text() == "Use informal address.\nNo emoji."
    assert len(record["instructions"]["nodes"]) == 2
    with pytest.raises(NotFound):
        await client.translations.update(state.demo_org, "nope", instructions="x")


async def test_delete_removes_and_is_quiet_the_second_time(client: GitBookClient, state: SandboxState) -> None:
    space = make_space(state, state.demo_org)
    record = new_translation(state, state.demo_org, space=space, source_language="en", language="pl")
    await client.translations.delete(state.demo_org, record["id"])
    assert record["id"] not in state.translations
    with pytest.raises(NotFound):
        await client.translations.get(state.demo_org, record["id"])
    response = await client.request("DELETE", f"/orgs/{state.demo_org}/translations/{record['id']}")
    assert response.status_code == 204


async def test_run_of_an_unknown_translation_is_not_found(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(NotFound):
        await client.translations.run(state.demo_org, "nope")


async def test_writes_need_edit_rights(client: GitBookClient, state: SandboxState) -> None:
    org = other_org(state)
    space = make_space(state, org)
    with pytest.raises(Forbidden):
        await client.translations.create(org, language="fr", source_space=space, source_language="en")
    record = new_translation(state, org, space=space, source_language="en", language="fr")
    with pytest.raises(Forbidden):
        await client.translations.run(org, record["id"])
    assert record["stats"]["runs"] == 0 and record["status"] == "pending"


# --- limits and invalid bodies ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"language": "en"}, "language"),  # the source's own language
        ({"language": "f"}, "language"),
        ({"source_language": ""}, "source.language"),
        ({"source_space": ""}, "source.space"),
        ({"instructions": {"object": "block"}}, "instructions"),
    ],
)
async def test_limits_are_caught_before_sending(
    client: GitBookClient, state: SandboxState, kw: dict[str, Any], field: str
) -> None:
    before = set(state.translations)
    args = {"language": "fr", "source_space": "some-space", "source_language": "en", **kw}
    with pytest.raises(InvalidRequest) as caught:
        await client.translations.create(state.demo_org, **args)
    assert caught.value.field == field
    assert set(state.translations) == before


async def test_unknown_languages_parse_but_the_sandbox_refuses_them(client: GitBookClient, state: SandboxState) -> None:
    space = make_space(state, state.demo_org)
    with pytest.raises(BadRequest) as caught:
        await client.translations.create(state.demo_org, language="tlh", source_space=space, source_language="en")
    assert "language" in caught.value.message


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"source": {"space": "S", "language": "en"}}, "language is required"),
        ({"language": "fr"}, "source is required"),
        ({"language": "fr", "source": "S"}, "source must be an object"),
        ({"language": "fr", "source": {"language": "en"}}, "source.space"),
        ({"language": "fr", "source": {"space": "S", "language": "xx"}}, "source.language"),
        ({"language": "fr", "source": {"space": "S", "language": "fr"}}, "must differ"),
        ({"language": "fr", "source": {"space": "unknown-space", "language": "en"}}, "not a space"),
        ({"language": "fr", "source": {"space": "S", "language": "en"}, "instructions": 1}, "instructions"),
    ],
)
async def test_invalid_create_bodies_are_refused(
    client: GitBookClient, state: SandboxState, body: dict[str, Any], words: str
) -> None:
    space = make_space(state, state.demo_org)
    source = body.get("source")
    if isinstance(source, dict) and source.get("space") == "S":
        source["space"] = space
    before = set(state.translations)
    with pytest.raises(BadRequest) as caught:
        await client.request_json("POST", f"/orgs/{state.demo_org}/translations", json=body)
    assert words in caught.value.message
    assert set(state.translations) == before


async def test_invalid_update_bodies_are_refused(client: GitBookClient, state: SandboxState) -> None:
    record = new_translation(state, state.demo_org, space="s", source_language="en", language="fr")
    url = f"/orgs/{state.demo_org}/translations/{record['id']}"
    with pytest.raises(BadRequest) as caught:
        await client.request_json("PUT", url, json={})
    assert "instructions is required" in caught.value.message
    with pytest.raises(BadRequest):
        await client.request_json("PUT", url, json={"instructions": {"object": "document", "nodes": "no"}})
    assert record["instructions"] == {"object": "document", "data": {}, "nodes": []}


# --- seed ---------------------------------------------------------------------------------------------------


def test_seed_without_spaces_adds_nothing_and_does_not_fail() -> None:
    state = SandboxState(seed=3)
    people.seed(state)
    translations_seed.seed(state, scale=5)
    assert state.translations == {}


def test_seed_with_spaces_has_each_status() -> None:
    state = SandboxState(seed=3)
    people.seed(state)
    make_space(state, state.demo_org, language="en")
    make_space(state, state.demo_org, language="de")
    translations_seed.seed(state, scale=4)
    seeded = list(state.translations.values())
    assert [t["status"] for t in seeded[:3]] == ["completed", "running", "pending"]
    assert seeded[0]["stats"]["runs"] == 3 and seeded[0]["instructions"]["nodes"]
    assert seeded[1]["language"] == "en"  # the German space is translated into English
    assert len(seeded) == 7 and all(t["status"] == "completed" for t in seeded[3:])
    assert all(t["language"] != t["source"]["language"] for t in seeded)
