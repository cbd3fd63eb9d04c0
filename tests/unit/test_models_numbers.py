"""Values the public description allows where Folio once read less: numbers with a fraction (the description's
``number``), and content variables that are numbers or booleans (``VariableValue``). One such value must never
make a whole list unreadable."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from folio.models.change_request import ChangeRequest, ChangeRequestChanges
from folio.models.comment import Comment, EmojiReaction
from folio.models.common import ListEnvelope, Page, PagesList, Revision
from folio.models.member import Member, Team
from folio.models.site import Site
from folio.models.space import Space, SpaceBase

USER = {"object": "user", "id": "u1", "displayName": "Ada", "urls": {"location": "https://api/users/u1"}}
SPACE = {"object": "space", "id": "s1", "title": "Docs", "visibility": "private"}
CR = {"object": "change-request", "id": "cr1", "number": 3, "space": "s1", "subject": "Fix"}
COMMENT = {"object": "comment", "id": "c1", "body": {"markdown": "hi"}}
MEMBER = {"object": "member", "id": "u1", "role": "admin", "user": USER}
TEAM = {"object": "team", "id": "t1", "title": "Writers"}
SITE = {"object": "site", "id": "site1", "title": "Docs", "visibility": "public"}
PAGE = {"id": "p1", "title": "Intro", "type": "document"}
REVISION = {"object": "revision", "id": "r1", "type": "edits"}


def _read(model: Any, data: dict[str, Any]) -> Any:
    return TypeAdapter(model).validate_python(data)


# (model, the payload, the attribute read, what it reads as)
COUNTS = [
    (ListEnvelope[Any], {"items": [], "count": 3.0}, "count", 3),
    (ListEnvelope[Any], {"items": [], "count": 2.5}, "count", 2),
    (ListEnvelope[Any], {"items": [], "count": 7}, "count", 7),
    (Space, {**SPACE, "comments": 4.0, "changeRequests": 1.5}, "comments", 4),
    (Space, {**SPACE, "changeRequestsOpen": 2.6, "changeRequestsDraft": 0.0}, "change_requests_open", 3),
    (SpaceBase, {**SPACE, "changeRequestsOpen": 1.2}, "change_requests_open", 1),  # (list rows: test_space_rows)
    (ChangeRequest, {**CR, "comments": 5.0}, "comments", 5),
    (ChangeRequestChanges, {"changes": [], "more": 10.4}, "more", 10),
    (Comment, {**COMMENT, "replies": 2.0}, "replies", 2),
    (EmojiReaction, {"emoji": "👍", "count": 1.0, "users": []}, "count", 1),
    (Member, {**MEMBER, "spaces": 3.5, "teams": 1.0, "sites": 0.2}, "spaces", 4),
    (Team, {**TEAM, "spaces": 6.0}, "spaces", 6),
    (Site, {**SITE, "siteSpaces": 2.0}, "site_spaces", 2),
]


@pytest.mark.parametrize(("model", "data", "attribute", "expected"), COUNTS)
def test_counts_read_any_number(model: Any, data: dict[str, Any], attribute: str, expected: int) -> None:
    value = getattr(_read(model, data), attribute)
    assert value == expected
    assert type(value) is int  # a count stays a whole number for the screens


@pytest.mark.parametrize(("sent", "read"), [(3, 3), (3.0, 3), (12.5, 12.5)])
def test_a_change_request_number_is_kept_as_sent(sent: float, read: float) -> None:
    cr = ChangeRequest.model_validate({**CR, "number": sent})
    assert cr.number == read
    assert type(cr.number) is type(read)
    assert cr.title == f"#{read} Fix"


VARIABLES = {"product": "Folio", "version": 2, "ratio": 0.5, "beta": True, "empty": ""}


@pytest.mark.parametrize(
    ("model", "data", "variables"),
    [
        (Page, {**PAGE, "variables": VARIABLES}, lambda read: read.variables),
        (Revision, {**REVISION, "variables": VARIABLES}, lambda read: read.variables),
        (PagesList, {"pages": [{**PAGE, "variables": VARIABLES}]}, lambda read: read.pages[0].variables),
        (Revision, {**REVISION, "pages": [{**PAGE, "variables": VARIABLES}]}, lambda read: read.pages[0].variables),
    ],
)
def test_variables_may_be_strings_numbers_or_booleans(model: Any, data: dict[str, Any], variables: Any) -> None:
    read = variables(_read(model, data))
    assert read == VARIABLES
    assert read["beta"] is True and read["version"] == 2 and read["ratio"] == 0.5


def test_one_numeric_variable_does_not_hide_the_page_list() -> None:
    pages = PagesList.model_validate_json(
        '{"pages": [{"id": "a", "title": "A"}, {"id": "b", "title": "B", "variables": {"n": 1, "on": false}}]}'
    )
    assert [p.title for p in pages.walk()] == ["A", "B"]
