"""Reading a page of a list from its bytes: the fast item type, the lenient one for wrapped items, and the garbage
collector paused while a big page is read (by pydantic, and by msgspec for a list of Structs: tests/unit/
test_space_rows.py reads those rows)."""

from __future__ import annotations

import gc
import json
from typing import Annotated, Any

import pytest
from pydantic import AfterValidator

from folio.api import pagination
from folio.api.errors import ResponseError
from folio.api.pagination import BIG_PAGE, parse_envelope_json
from folio.models.space import OrgSpaceItem, OrgSpaceSummary, Space, SpaceBase, SpaceSummary

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

    return Annotated[SpaceBase, AfterValidator(record)]


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


class _Recording:
    """A Struct page decoder that notes whether the collector was on while it decoded."""

    def __init__(self, decoder: Any, seen: list[bool]) -> None:
        self.decoder, self.seen = decoder, seen

    def decode(self, raw: bytes) -> Any:
        self.seen.append(gc.isenabled())
        return self.decoder.decode(raw)


def test_the_collector_is_paused_while_a_big_page_of_structs_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    real = pagination._struct_decoder
    monkeypatch.setattr(pagination, "_struct_decoder", lambda item_type: _Recording(real(item_type), seen))
    big = page(*({**SPACE, "id": f"s{n}", "title": "x" * 200} for n in range(BIG_PAGE // 200)))
    envelope = parse_envelope_json(SpaceSummary, big, method="GET", path="/x", lenient=OrgSpaceSummary)
    assert len(envelope.items) == BIG_PAGE // 200 and seen == [False] and gc.isenabled()
    parse_envelope_json(SpaceSummary, page(SPACE), method="GET", path="/x", lenient=OrgSpaceSummary)
    assert seen == [False, True]
    with pytest.raises(ResponseError):
        parse_envelope_json(SpaceSummary, big + b"]", method="GET", path="/x", lenient=OrgSpaceSummary)
    assert seen == [False, True, False] and gc.isenabled()
