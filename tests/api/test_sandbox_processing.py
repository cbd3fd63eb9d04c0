"""What the sandbox simulates over its clock (spec 2.9-2.11, 4.1, 4.11): an OpenAPI spec's processing runs
pending (2 s), then progress (4 s), then complete, failing as its source says; an update is a new version; an
issues cluster's 13-week pulse moves plausibly from week to week and rolls as the weeks pass. The clock is the
fixture's frozen one, moved by hand (``state.clock.advance``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest

from folio.sandbox import SandboxState
from folio.sandbox.clock import parse_iso
from folio.sandbox.seed.conversations import PULSE_TRENDS
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
async def http(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(transport=transport, base_url=SANDBOX_URL + "/v1", headers=headers) as client:
        yield client


def base(state: SandboxState) -> str:
    return f"/orgs/{state.demo_org}/openapi"


async def spec(http: httpx.AsyncClient, state: SandboxState, slug: str) -> dict[str, Any]:
    response = await http.get(f"{base(state)}/{slug}")
    assert response.status_code == 200, response.text[:300]
    body: dict[str, Any] = response.json()
    return body


async def add(http: httpx.AsyncClient, state: SandboxState, slug: str, url: str) -> dict[str, Any]:
    response = await http.post(base(state), json={"slug": slug, "source": {"url": url}})
    assert response.status_code == 201, response.text[:300]
    body: dict[str, Any] = response.json()
    return body


# --- processing over the clock ------------------------------------------------------------------------------


async def test_a_new_spec_is_pending_then_in_progress_then_complete(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    written = state.clock.now()
    created = await add(http, state, "orders", "https://api.example.com/orders.json")
    assert created["processingState"] == "pending" and "lastProcessedAt" not in created
    seen = []
    for step in (0, 1, 0.9, 0.1, 2, 1.9, 0.1, 60):  # seconds: 0, 1, 1.9, 2, 4, 5.9, 6, 66
        state.clock.advance(seconds=step)
        seen.append((await spec(http, state, "orders"))["processingState"])
    assert seen == ["pending", "pending", "pending", "progress", "progress", "progress", "complete", "complete"]
    done = await spec(http, state, "orders")
    assert parse_iso(done["lastProcessedAt"]) == written + timedelta(seconds=6)
    assert done["lastProcessedErrors"] == [] and "lastProcessErrorCode" not in done


async def test_the_state_does_not_depend_on_how_often_it_is_read(http: httpx.AsyncClient, state: SandboxState) -> None:
    await add(http, state, "watched", "https://api.example.com/a.json")
    await add(http, state, "ignored", "https://api.example.com/b.json")
    for _ in range(7):
        await spec(http, state, "watched")
        state.clock.advance(seconds=1)
    watched, ignored = await spec(http, state, "watched"), await spec(http, state, "ignored")
    assert watched["processingState"] == ignored["processingState"] == "complete"
    assert watched["lastProcessedAt"] == ignored["lastProcessedAt"]


async def test_the_list_follows_the_clock_too(http: httpx.AsyncClient, state: SandboxState) -> None:
    await add(http, state, "listed", "https://api.example.com/listed.json")
    seen = []
    for step in (0, 3, 3):
        state.clock.advance(seconds=step)
        items = (await http.get(base(state))).json()["items"]
        seen.append(next(i for i in items if i["slug"] == "listed")["processingState"])
    assert seen == ["pending", "progress", "complete"]


async def test_the_seeded_update_is_processed_by_the_first_read(http: httpx.AsyncClient, state: SandboxState) -> None:
    record = state.openapi_specs[state.demo_org]["search-v2"]
    assert record["processingState"] == "pending"  # written 6 s before the seed's now, never read
    read = await spec(http, state, "search-v2")
    assert read["processingState"] == "complete"
    assert parse_iso(read["lastProcessedAt"]) == parse_iso(record["updatedAt"]) + timedelta(seconds=6)


async def test_changing_visibility_does_not_touch_processing(http: httpx.AsyncClient, state: SandboxState) -> None:
    await add(http, state, "shown", "https://api.example.com/shown.json")
    state.clock.advance(seconds=3)
    patched = await http.patch(f"{base(state)}/shown", json={"visibility": "public"})
    assert patched.json()["processingState"] == "progress" and patched.json()["visibility"] == "public"


# --- updates are new versions -------------------------------------------------------------------------------


async def test_an_update_is_a_new_version_processed_again(http: httpx.AsyncClient, state: SandboxState) -> None:
    await add(http, state, "fleet", "https://api.example.com/fleet-1.json")
    state.clock.advance(seconds=10)
    first = await spec(http, state, "fleet")
    assert first["processingState"] == "complete"
    updated = await http.put(f"{base(state)}/fleet", json={"source": {"url": "https://api.example.com/fleet-2.json"}})
    assert updated.status_code == 200
    body = updated.json()
    assert body["processingState"] == "pending" and body["sourceURL"].endswith("fleet-2.json")
    assert body["lastVersion"] != first["lastVersion"]
    assert body["lastProcessedAt"] == first["lastProcessedAt"]  # the last run's outcome until this one ends
    versions = (await http.get(f"{base(state)}/fleet/versions")).json()["items"]
    assert [v["id"] for v in versions][:1] == [body["lastVersion"]] and len(versions) == 2
    latest = (await http.get(f"{base(state)}/fleet/versions/latest")).json()
    assert latest["id"] == body["lastVersion"] and latest["url"].endswith("fleet-2.json")
    state.clock.advance(seconds=6)
    assert (await spec(http, state, "fleet"))["processingState"] == "complete"


async def test_put_on_a_new_slug_creates_it_pending(http: httpx.AsyncClient, state: SandboxState) -> None:
    created = await http.put(f"{base(state)}/brand-new", json={"source": {"url": "https://api.example.com/n.json"}})
    assert created.status_code == 201 and created.json()["processingState"] == "pending"
    assert len(state.openapi_specs[state.demo_org]["brand-new"]["versions"]) == 1


async def test_a_fixed_source_clears_the_errors_once_processed(http: httpx.AsyncClient, state: SandboxState) -> None:
    await add(http, state, "flaky", "https://api.example.com/fail/openapi.json")
    state.clock.advance(seconds=6)
    assert (await spec(http, state, "flaky"))["lastProcessErrorCode"] == "FETCH_ERROR"
    await http.put(f"{base(state)}/flaky", json={"source": {"url": "https://api.example.com/openapi.json"}})
    state.clock.advance(seconds=3)
    running = await spec(http, state, "flaky")
    assert running["processingState"] == "progress" and running["lastProcessErrorCode"] == "FETCH_ERROR"
    state.clock.advance(seconds=3)
    fixed = await spec(http, state, "flaky")
    assert fixed["processingState"] == "complete" and "lastProcessErrorCode" not in fixed
    assert fixed["lastProcessedErrors"] == [] and fixed["lastProcessedErrorCount"] == 0


# --- how processing fails -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "code", "errors"),
    [
        ("https://timeout.example.com/openapi.json", "FETCH_TIMEOUT", 1),
        ("https://api.example.com/openapi.json?timeout=30", "FETCH_TIMEOUT", 1),
        ("https://specs.invalid/openapi.json", "FETCH_ERROR", 1),
        ("https://api.example.com/FAIL/openapi.json", "FETCH_ERROR", 1),
        ("https://api.example.com/openapi-invalid.yaml", "PARSE_ERROR", 2),
        ("https://api.example.com/openapi.yaml", None, 0),
    ],
)
async def test_the_source_url_says_how_processing_ends(
    http: httpx.AsyncClient, state: SandboxState, url: str, code: str | None, errors: int
) -> None:
    await add(http, state, "probe", url)
    state.clock.advance(seconds=5)
    running = await spec(http, state, "probe")
    assert running["processingState"] == "progress" and "lastProcessErrorCode" not in running
    state.clock.advance(seconds=1)
    done = await spec(http, state, "probe")
    assert done["processingState"] == "complete"
    assert done.get("lastProcessErrorCode") == code
    assert len(done["lastProcessedErrors"]) == done["lastProcessedErrorCount"] == errors
    assert all(e["code"] == code and e["message"] for e in done["lastProcessedErrors"])


async def test_a_text_that_is_not_a_description_fails_to_parse(http: httpx.AsyncClient, state: SandboxState) -> None:
    created = await http.post(base(state), json={"slug": "junk", "source": {"text": "not a description"}})
    assert created.status_code == 201
    state.clock.advance(seconds=6)
    assert (await spec(http, state, "junk"))["lastProcessErrorCode"] == "PARSE_ERROR"


# --- the weekly pulse of issues clusters --------------------------------------------------------------------


async def clusters(http: httpx.AsyncClient, state: SandboxState) -> dict[str, dict[str, Any]]:
    items = (await http.get(f"/orgs/{state.demo_org}/conversations-clusters", params={"limit": 100})).json()["items"]
    return {c["label"]: c for c in items}


async def test_a_pulse_moves_plausibly_from_week_to_week(http: httpx.AsyncClient, state: SandboxState) -> None:
    seeded = {label: c for label, c in (await clusters(http, state)).items() if label in PULSE_TRENDS}
    assert len(seeded) == len(PULSE_TRENDS) == 6
    for label, cluster in seeded.items():
        pulse = cluster["weeklyPulse"]
        assert len(pulse) == 13 and all(isinstance(n, int) and n >= 0 for n in pulse), label
        started = next(i for i, n in enumerate(pulse) if n)
        assert all(n == 0 for n in pulse[:started])  # nothing before the cluster opened
        steps = [abs(b - a) for a, b in zip(pulse[started:], pulse[started + 1 :], strict=False)]
        assert max(steps) <= 5, (label, pulse)  # no wild jumps
        assert len(set(pulse[started:])) > 1, (label, pulse)  # not a flat line either
        opened = parse_iso(cluster["createdAt"])
        assert started >= 12 - (state.clock.now() - opened).days // 7 - 1, label
    login = seeded["Login loops after SSO redirect"]["weeklyPulse"]
    assert sum(login[-4:]) > sum(login[1:5])  # a rising trend


async def test_an_issue_counts_in_the_current_week_and_weeks_roll(http: httpx.AsyncClient, state: SandboxState) -> None:
    label = "Webhook retries deliver duplicate events"
    before = (await clusters(http, state))[label]["weeklyPulse"]
    body = {"subject": "Duplicate webhook", "parts": [{"role": "user", "body": "The webhook delivery came twice."}]}
    assert (await http.post(f"/orgs/{state.demo_org}/conversations", json=body)).status_code == 204
    now = (await clusters(http, state))[label]["weeklyPulse"]
    assert now == [*before[:-1], before[-1] + 1]
    state.clock.advance(days=7)
    rolled = (await clusters(http, state))[label]["weeklyPulse"]
    assert rolled == [*now[1:], 0]  # a quiet new week; the oldest dropped out
    assert (await http.post(f"/orgs/{state.demo_org}/conversations", json=body)).status_code == 204
    assert (await clusters(http, state))[label]["weeklyPulse"] == [*now[1:], 1]
    state.clock.advance(days=7 * 20)
    assert (await clusters(http, state))[label]["weeklyPulse"] == [0] * 13
    one = (await http.get(f"/orgs/{state.demo_org}/conversations-clusters/{state_id(state, label)}")).json()
    assert one["weeklyPulse"] == [0] * 13


def state_id(state: SandboxState, label: str) -> str:
    return str(next(c["id"] for c in state.clusters.values() if c["label"] == label))
