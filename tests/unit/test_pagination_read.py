"""Reading a page of a list from its bytes: the fast item type, the lenient one for wrapped items, and the garbage
collector paused while a big page is read."""

from __future__ import annotations

import gc
import json
from typing import Annotated, Any

import pytest
from pydantic import AfterValidator

from folio.api.errors import ResponseError
from folio.api.pagination import BIG_PAGE, parse_envelope_json
from folio.models.space import OrgSpaceItem, OrgSpaceSummary, Space, SpaceSummary

SPACE = {"object": "space", "id": "s1", "title": "Guide", "visibility": "public", "changeRequestsOpen": 2}


def page(*items: Any) -> bytes:
    return json.dumps({"items": list(items), "next": {"page": "p2"}}).encode()


@pytest.mark.parametrize(("fast", "lenient"), [(Space, OrgSpaceItem), (SpaceSummary, OrgSpaceSummary)])
def test_wrapped_items_are_read_by_the_lenient_type(fast: Any, lenient: Any) -> None:
    raw = page(SPACE, {"permission": "admin", "space": {**SPACE, "id": "s9"}})
    envelope = parse_envelope_json(fast, raw, method="GET", path="/orgs/o/spaces", lenient=lenient)
    assert [s.id for s in envelope.items] == ["s1", "s9"] and envelope.next_page == "p2"
    assert all(isinstance(s, fast) for s in envelope.items)
    with pytest.raises(ResponseError, match="could not read"):
        parse_envelope_json(fast, raw, method="GET", path="/orgs/o/spaces")


def test_an_item_neither_type_reads_is_reported_in_words() -> None:
    raw = page(SPACE, {"title": "no id"})
    with pytest.raises(ResponseError, match=r"items\.1.*id"):
        parse_envelope_json(SpaceSummary, raw, method="GET", path="/x", lenient=OrgSpaceSummary)


def _reads_with_collector(seen: list[bool]) -> Any:
    def record(value: Any) -> Any:
        seen.append(gc.isenabled())
        return value

    return Annotated[SpaceSummary, AfterValidator(record)]


def test_the_collector_is_paused_while_a_big_page_is_read_and_back_on_after() -> None:
    seen: list[bool] = []
    item = _reads_with_collector(seen)
    big = page(*({**SPACE, "id": f"s{n}", "title": "x" * 200} for n in range(BIG_PAGE // 200)))
    assert len(big) >= BIG_PAGE
    assert gc.isenabled()
    parse_envelope_json(item, big, method="GET", path="/x")
    assert seen and not any(seen) and gc.isenabled()
    seen.clear()
    parse_envelope_json(item, page(SPACE), method="GET", path="/x")  # a small page: nothing to gain
    assert seen == [True]


def test_the_collector_comes_back_when_a_big_page_fails_and_stays_off_if_it_was_off() -> None:
    big = page(*({"title": "x" * 200} for _ in range(BIG_PAGE // 100)))
    with pytest.raises(ResponseError):
        parse_envelope_json(SpaceSummary, big, method="GET", path="/x")
    assert gc.isenabled()
    gc.disable()
    try:
        parse_envelope_json(
            SpaceSummary, page(*({**SPACE, "id": f"s{n}"} for n in range(2000))), method="GET", path="/x"
        )
        assert not gc.isenabled()
    finally:
        gc.enable()
