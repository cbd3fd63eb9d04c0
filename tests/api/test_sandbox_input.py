"""Bad input gets the service's error body ``{"error": {"code", "message"}}`` with a 4xx, never a 500: bodies
nested too deeply, not JSON or over their size cap, and integer query parameters written as anything but a plain
integer. Raw HTTP through ``httpx.ASGITransport`` (the client would refuse most of these before sending)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from folio.sandbox import SandboxState
from folio.sandbox.limits import MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_SPEC_BODY_BYTES
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
async def http(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}  # as the client sends
    async with httpx.AsyncClient(transport=transport, base_url=SANDBOX_URL + "/v1", headers=headers) as client:
        yield client


def error_of(response: httpx.Response, status: int) -> str:
    """The message of a documented error answer with that status."""
    assert response.status_code == status, response.text[:300]
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == status
    message = body["error"]["message"]
    assert isinstance(message, str) and message
    return message


def space_of(state: SandboxState) -> str:
    return str(next(s["id"] for s in state.spaces.values() if s["organization"] == state.demo_org))


# --- bodies -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000,
        b'{"a":' * 100_000,
        b"[" * 100_000 + b"]" * 100_000,
        ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)).encode(),
    ],
    ids=["open-arrays", "open-objects", "closed-arrays", "just-too-deep"],
)
async def test_a_deeply_nested_body_is_a_400(http: httpx.AsyncClient, state: SandboxState, raw: bytes) -> None:
    response = await http.post(f"/spaces/{space_of(state)}/comments", content=raw)
    assert "nest" in error_of(response, 400) or "JSON" in error_of(response, 400)


async def test_a_body_nested_within_the_cap_is_read(http: httpx.AsyncClient, state: SandboxState) -> None:
    nested: Any = "deep"
    for _ in range(MAX_JSON_DEPTH - 3):
        nested = [nested]
    response = await http.post(f"/spaces/{space_of(state)}/comments", json={"body": {"markdown": "Hi"}, "x": nested})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "raw",
    [b"{", b"\xff\xfe", b'{"body": NaN}', b'{"body": Infinity}', b"[]", b'"text"', b"1" * 5000],
    ids=["truncated", "not-utf8", "nan", "infinity", "array", "string", "huge-number"],
)
async def test_a_body_that_is_not_a_json_object_is_a_400(
    http: httpx.AsyncClient, state: SandboxState, raw: bytes
) -> None:
    error_of(await http.post(f"/spaces/{space_of(state)}/comments", content=raw), 400)


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
async def test_a_body_not_sent_as_json_is_a_415_and_changes_nothing(
    http: httpx.AsyncClient, state: SandboxState, content_type: str | None
) -> None:
    before = dict(state.collections)
    request = http.build_request("POST", f"/orgs/{state.demo_org}/collections", content=b'{"title": "Plain"}')
    if content_type is None:
        del request.headers["Content-Type"]
    else:
        request.headers["Content-Type"] = content_type
    assert "Content-Type: application/json" in error_of(await http.send(request), 415)
    assert state.collections == before


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/merge-patch+json"])
async def test_json_with_parameters_or_a_json_suffix_is_read(
    http: httpx.AsyncClient, state: SandboxState, content_type: str
) -> None:
    request = http.build_request("POST", f"/orgs/{state.demo_org}/collections", content=b'{"title": "Typed"}')
    request.headers["Content-Type"] = content_type
    assert (await http.send(request)).status_code == 201


async def test_a_required_body_or_field_missing_is_a_400(http: httpx.AsyncClient, state: SandboxState) -> None:
    space = space_of(state)
    assert "body is required" in error_of(await http.post(f"/spaces/{space}/transfer"), 400)
    assert "organization is required" in error_of(await http.post(f"/spaces/{space}/transfer", json={}), 400)
    # The public description has the body of a new collection optional, every field in it too: an empty body
    # makes an untitled collection, as that description allows.
    made = await http.post(f"/orgs/{state.demo_org}/collections")
    assert made.status_code == 201 and made.json()["title"] == "Untitled"


@pytest.mark.parametrize("emoji", ["hello", "cafe", "🎉 and more", "#"])
async def test_a_space_emoji_that_is_not_one_is_a_400(http: httpx.AsyncClient, state: SandboxState, emoji: str) -> None:
    space = space_of(state)
    before = state.spaces[space].get("emoji")
    assert "emoji must be an emoji" in error_of(await http.patch(f"/spaces/{space}", json={"emoji": emoji}), 400)
    assert state.spaces[space].get("emoji") == before


@pytest.mark.parametrize("emoji", ["🎉", "1f389", "👍🏽", "🇫🇷", "1️⃣", "👨‍👩‍👧", ""])
async def test_a_space_emoji_or_its_code_point_is_taken(
    http: httpx.AsyncClient, state: SandboxState, emoji: str
) -> None:
    response = await http.patch(f"/spaces/{space_of(state)}", json={"emoji": emoji})
    assert response.status_code == 200 and (response.json().get("emoji") or "") == emoji


async def test_a_body_over_its_cap_is_a_413(http: httpx.AsyncClient, state: SandboxState) -> None:
    space = space_of(state)
    before = len(state.comments)
    text = "x" * MAX_BODY_BYTES
    message = error_of(await http.post(f"/spaces/{space}/comments", json={"body": {"markdown": text}}), 413)
    assert str(MAX_BODY_BYTES) in message
    assert len(state.comments) == before
    just_under = "y" * (MAX_BODY_BYTES // 2)
    assert (await http.post(f"/spaces/{space}/comments", json={"body": {"markdown": just_under}})).status_code == 200


async def test_a_streamed_body_without_a_length_is_cut_at_the_cap(http: httpx.AsyncClient, state: SandboxState) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"body": {"markdown": "'
        for _ in range(MAX_BODY_BYTES // 65_536 + 2):
            yield b"z" * 65_536
        yield b'"}}'

    response = await http.post(f"/spaces/{space_of(state)}/comments", content=chunks())
    assert "content-length" not in response.request.headers
    error_of(response, 413)


async def test_a_declared_length_over_the_cap_is_refused_before_reading(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    headers = {"Content-Length": str(MAX_BODY_BYTES + 1), "Content-Type": "application/json"}
    request = http.build_request("PATCH", f"/spaces/{space_of(state)}", content=b"{}", headers=headers)
    error_of(await http.send(request), 413)


async def test_an_openapi_source_may_be_larger(http: httpx.AsyncClient, state: SandboxState) -> None:
    text = "openapi: 3.1.0\n" + "# padding\n" * (MAX_BODY_BYTES // 10 + 10)
    response = await http.put(f"/orgs/{state.demo_org}/openapi/big-spec", json={"source": {"text": text}})
    assert response.status_code == 201
    too_big = "x" * (MAX_SPEC_BODY_BYTES + 1)
    error_of(await http.put(f"/orgs/{state.demo_org}/openapi/big-spec", json={"source": {"text": too_big}}), 413)


async def test_a_deeply_nested_openapi_text_is_a_parse_error(http: httpx.AsyncClient, state: SandboxState) -> None:
    response = await http.post(
        f"/orgs/{state.demo_org}/openapi", json={"slug": "nested", "source": {"text": "[" * 100_000}}
    )
    assert response.status_code == 201
    spec = (await http.get(f"/orgs/{state.demo_org}/openapi/nested")).json()
    for _ in range(10):  # processing runs over the sandbox's clock
        state.clock.advance(seconds=5)
        spec = (await http.get(f"/orgs/{state.demo_org}/openapi/nested")).json()
    assert spec["lastProcessErrorCode"] == "PARSE_ERROR"
    content = await http.get(f"/orgs/{state.demo_org}/openapi/nested/versions/latest/content")
    assert content.status_code == 200


# --- integer query parameters -------------------------------------------------------------------------------


NOT_INTEGERS = ["1e3", "10.0", "abc", "", " 10", "+5", "-1", "0x10", "\u0661\u0660", "9" * 5000, "nan", "inf"]


@pytest.mark.parametrize("limit", [*NOT_INTEGERS, "0", "1001"])
async def test_limit_takes_only_an_integer_from_1_to_1000(
    http: httpx.AsyncClient, state: SandboxState, limit: str
) -> None:
    message = error_of(await http.get(f"/orgs/{state.demo_org}/spaces", params={"limit": limit}), 400)
    assert "limit" in message


@pytest.mark.parametrize("limit", ["1", "007", "1000"])
async def test_limit_as_a_plain_integer(http: httpx.AsyncClient, state: SandboxState, limit: str) -> None:
    response = await http.get(f"/orgs/{state.demo_org}/spaces", params={"limit": limit})
    assert response.status_code == 200 and len(response.json()["items"]) <= int(limit)


async def test_the_change_list_limit_is_an_integer_too(http: httpx.AsyncClient, state: SandboxState) -> None:
    cr = next(c for c in state.change_requests.values())
    path = f"/spaces/{cr['space']}/change-requests/{cr['id']}/changes"
    error_of(await http.get(path, params={"limit": "1e3"}), 400)
    assert (await http.get(path, params={"limit": "2"})).status_code == 200


@pytest.mark.parametrize("number", ["\u00b2", "\u0661", "1.0", "01x"])
async def test_a_change_request_number_that_is_not_one_is_a_404(
    http: httpx.AsyncClient, state: SandboxState, number: str
) -> None:
    error_of(await http.get(f"/spaces/{space_of(state)}/change-requests/{number}"), 404)


@pytest.mark.parametrize("cursor", ["!!", "bzotMQ", "eDox", "bzo" + "5" * 5000])
async def test_a_page_cursor_we_did_not_issue_is_a_400(
    http: httpx.AsyncClient, state: SandboxState, cursor: str
) -> None:
    error_of(await http.get(f"/orgs/{state.demo_org}/spaces", params={"page": cursor}), 400)
