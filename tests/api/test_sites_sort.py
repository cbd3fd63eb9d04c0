"""The structure sort on a service that lacks it (an older service answers 404, as it does for an unknown item):
the client says NotOffered only when the service lacks the operation, and remembers it; an unknown item is
still a plain NotFound, and does not teach the client that the sort is missing."""

from __future__ import annotations

import httpx
import pytest

from folio.api import GitBookClient
from folio.api.errors import NotFound, NotOffered
from folio.sandbox import SandboxState, SandboxTransport, create_app
from tests.api.sites_support import group, outline, section, sections_structure, site_id
from tests.conftest import SANDBOX_URL, TOKEN

SORT_PATH = "/structure/sort"


class Counting(SandboxTransport):
    """The sandbox transport, counting the sort requests that reach it."""

    sorts = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith(SORT_PATH):
            self.sorts += 1
        return await super().handle_async_request(request)


async def test_an_older_service_answers_404_and_the_sort_is_not_offered(state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    guide, started = section(state, "User Guide"), section(state, "Getting Started")
    transport = Counting(create_app(state, offer_optional=False))
    async with GitBookClient(token=TOKEN, base_url=SANDBOX_URL, transport=transport) as c:
        with pytest.raises(NotFound) as plain:  # asked without naming the operation: a plain 404
            await c.request_json(
                "PATCH",
                f"/orgs/{org}/sites/{sid}/structure/sort",
                json={"item": {"type": "site-section", "id": guide}, "position": {}},
            )
        assert plain.value.status == 404 and not isinstance(plain.value, NotOffered)  # as an older service answers
        transport.sorts = 0
        with pytest.raises(NotOffered):
            await c.sites.sort_structure(org, sid, ("site-section", guide), before=("site-section", started))
        asked = transport.sorts
        with pytest.raises(NotOffered):  # remembered: no request this time
            await c.sites.sort_structure(org, sid, ("site-section", guide), before=("site-section", started))
        assert transport.sorts == asked
        structure = await sections_structure(c, state)
    assert outline(structure.structure)[1][:2] == ["Getting Started", "User Guide"]  # nothing moved


async def test_an_unknown_item_is_not_found_and_the_sort_stays_offered(
    client: GitBookClient, state: SandboxState
) -> None:
    org, sid = state.demo_org, site_id(state)
    guide, started = section(state, "User Guide"), section(state, "Getting Started")
    with pytest.raises(NotFound) as unknown_item:
        await client.sites.sort_structure(org, sid, ("site-section", "no-such-section"))
    assert not isinstance(unknown_item.value, NotOffered)
    with pytest.raises(NotFound) as unknown_sibling:
        await client.sites.sort_structure(
            org, sid, ("site-section", guide), before=("site-section-group", "no-such-group")
        )
    assert not isinstance(unknown_sibling.value, NotOffered)
    # Not learned as "not offered": the sort still goes out and reorders.
    await client.sites.sort_structure(org, sid, ("site-section", guide), before=("site-section", started))
    assert state.site_sections[guide]["order"] < state.site_sections[started]["order"]
    assert state.section_groups[group(state, "Product")]["order"] == 0
