"""A spaces list's rows are msgspec Structs (issue 15): what the fast decoder reads, what it leaves to pydantic's
lenient reading (and that the list then reads what it read when rows were pydantic models), and the words of a
page neither reads."""

from __future__ import annotations

import gc
import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Annotated, Any

import msgspec
import pytest
from pydantic import BeforeValidator

from folio.api.errors import ResponseError
from folio.api.pagination import parse_envelope_json
from folio.models.space import OrgSpaceSummary, Space, SpaceBase, SpaceSummary, SpaceUrls

SPACE: dict[str, Any] = {
    "object": "space",
    "id": "s1",
    "title": "Guide",
    "emoji": "📘",
    "visibility": "public",
    "createdAt": "2026-11-01T08:00:00Z",
    "updatedAt": "2026-11-20T09:30:00.250+02:00",
    "urls": {"location": "https://api/spaces/s1", "app": "https://app/s1", "published": "https://docs/s1"},
    "organization": "o1",
    "parent": "c1",
    "changeRequestsOpen": 2,
    # what a row does not show: skipped while reading
    "editMode": "live",
    "permissions": {"view": True, "admin": False},
    "gitSync": {"repoName": "x/y"},
    "comments": 4,
}


def page(*items: Any, **envelope: Any) -> bytes:
    return json.dumps({"items": list(items), "next": {"page": "p2"}, **envelope}).encode()


def read(raw: bytes, lenient: Any = OrgSpaceSummary) -> list[SpaceSummary]:
    envelope = parse_envelope_json(SpaceSummary, raw, method="GET", path="/orgs/o1/spaces", lenient=lenient)
    assert all(type(item) is SpaceSummary for item in envelope.items)
    return list(envelope.items)


def _never(value: Any) -> Any:
    raise AssertionError("the lenient reading was used")


NEVER = Annotated[SpaceBase, BeforeValidator(_never)]
"""A lenient type that fails the test if a page needs it."""


def test_camel_case_fields_read_into_the_row_and_the_rest_is_skipped() -> None:
    envelope = parse_envelope_json(SpaceSummary, page(SPACE, count=1), method="GET", path="/x", lenient=NEVER)
    (row,) = envelope.items
    assert envelope.next_page == "p2" and envelope.count == 1 and envelope.next is not None
    assert row == SpaceSummary(
        id="s1",
        title="Guide",
        emoji="📘",
        visibility="public",
        created_at=datetime(2026, 11, 1, 8, tzinfo=UTC),
        updated_at=datetime(2026, 11, 20, 9, 30, 0, 250_000, tzinfo=timezone(timedelta(hours=2))),
        urls=SpaceUrls(app="https://app/s1", published="https://docs/s1"),
        organization="o1",
        parent="c1",
        change_requests_open=2,
    )
    assert not row.deleted and row.deleted_at is None
    assert set(msgspec.structs.asdict(row)) == set(SpaceSummary.__struct_fields__)
    assert not hasattr(row, "__dict__") and not hasattr(row, "permissions")


def test_a_row_is_immutable_and_untracked_by_the_collector() -> None:
    (row,) = read(page(SPACE))
    with pytest.raises(AttributeError):
        row.title = "Other"  # type: ignore[misc]
    renamed = msgspec.structs.replace(row, title="Other")
    assert (renamed.title, row.title, renamed.id) == ("Other", "Guide", "s1")
    assert not gc.is_tracked(row)


def test_defaults_are_the_models_defaults() -> None:
    (row,) = read(page({"id": "s1"}), lenient=NEVER)
    assert row == SpaceSummary(id="s1")
    shown = (row.object, row.title, row.visibility, row.change_requests_open, row.urls)
    assert shown == ("space", "", "private", 0, None)


def test_a_visibility_the_service_adds_reads_as_sent() -> None:
    rows = read(page(SPACE, {**SPACE, "id": "s2", "visibility": "members-only"}), lenient=NEVER)
    assert [r.visibility for r in rows] == ["public", "members-only"]


@pytest.mark.parametrize(("sent", "shown"), [(2.5, 2), (2.6, 3), (3.0, 3), (0.4, 0)])
def test_a_count_with_a_fraction_reads_rounded_as_before(sent: float, shown: int) -> None:
    rows = read(page(SPACE, {**SPACE, "id": "s2", "changeRequestsOpen": sent}))
    assert [r.change_requests_open for r in rows] == [2, shown]
    assert type(rows[1].change_requests_open) is int


def test_a_list_count_with_a_fraction_reads_rounded() -> None:
    raw = page(SPACE, count=7.5)
    envelope = parse_envelope_json(SpaceSummary, raw, method="GET", path="/x", lenient=OrgSpaceSummary)
    assert envelope.count == 8 and [r.id for r in envelope.items] == ["s1"]


TIMES = [
    "2026-11-20T09:30:00Z",
    "2026-11-20T09:30:00.123456+05:30",
    "2026-11-20T09:30:00",
    "2026-11-20 09:30:00Z",
    1_700_000_000,
    1_700_000_000.5,
    1_700_000_000_000,
    "1700000000",
    "2026-11-20",
]


@pytest.mark.parametrize("sent", TIMES)
def test_times_read_as_the_pydantic_model_reads_them(sent: Any) -> None:
    (row,) = read(page({**SPACE, "createdAt": sent, "deletedAt": sent}))
    expected = SpaceBase.model_validate({**SPACE, "createdAt": sent}).created_at
    assert row.created_at == expected and row.deleted_at == expected and row.deleted
    assert row.created_at is not None and row.created_at.utcoffset() == expected.utcoffset()  # type: ignore[union-attr]


def test_a_wrapped_item_reads_through_the_lenient_type() -> None:
    wrapped = {"permission": "admin", "space": {**SPACE, "id": "s9"}}
    rows = read(page(SPACE, wrapped))
    assert [r.id for r in rows] == ["s1", "s9"]
    assert rows[1] == msgspec.structs.replace(rows[0], id="s9")
    with pytest.raises(ResponseError, match=r"could not read: items\.1: Object missing required field `id`"):
        read(page(SPACE, wrapped), lenient=None)


def test_a_null_title_is_refused_in_the_words_of_before() -> None:
    with pytest.raises(ResponseError, match=r"could not read: items\.1\.title: Input should be a valid string"):
        read(page(SPACE, {**SPACE, "id": "s2", "title": None}))


def test_an_item_without_an_id_is_refused_with_where_it_is() -> None:
    with pytest.raises(ResponseError, match=r"could not read: items\.1\.id: Field required") as caught:
        read(page(SPACE, {"title": "no id"}))
    assert "no id" not in str(caught.value)  # the place and the problem, never the values


@pytest.mark.parametrize("raw", [b"{", b"", b'{"items": [}', b"<html>busy</html>"])
def test_an_answer_that_is_not_json_says_so(raw: bytes) -> None:
    with pytest.raises(ResponseError, match="not valid JSON"):
        read(raw)


def test_a_page_that_is_not_a_list_envelope_is_refused() -> None:
    with pytest.raises(ResponseError, match=r"could not read: items"):
        read(json.dumps({"items": {"id": "s1"}}).encode())
    with pytest.raises(ResponseError, match=r"could not read: \(body\): Expected `object`, got `array`"):
        read(b"[]", lenient=None)


def test_the_summary_of_a_full_space_is_the_row_of_the_same_space() -> None:
    (row,) = read(page(SPACE))
    space = Space.model_validate(SPACE)
    assert SpaceSummary.of(space) == row
    assert SpaceSummary.of(space).urls == SpaceUrls(app="https://app/s1", published="https://docs/s1")
