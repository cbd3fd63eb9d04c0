"""The template conditions a condition field offers: read from the site's visitor schema (none, said so, when
the site has no schema), and filtered by what is typed."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient
from folio.models.site_structure import TemplateCondition
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.sites.sites import ConditionChoices, SiteService, matching_conditions
from tests.api.sites_support import site_id

BETA = TemplateCondition(condition="visitor.claims.isBeta == true", description="Visitors in the beta programme")
ENTERPRISE = TemplateCondition(
    condition="visitor.claims.isEnterprise == true", description="The company is on an enterprise plan"
)
FRENCH = TemplateCondition(
    condition="visitor.claims.unsigned.prefersFrench == true", description="The visitor chose French"
)
ALL = [BETA, ENTERPRISE, FRENCH]


@pytest.fixture
def sites(client: GitBookClient) -> SiteService:
    return Services(client).sites


async def test_the_conditions_of_a_site_with_a_visitor_schema(sites: SiteService, state: SandboxState) -> None:
    choices = await sites.condition_choices(state.demo_org, site_id(state))
    assert choices.schema
    assert [c.condition for c in choices.conditions] == [
        "visitor.claims.isBeta == true",
        "visitor.claims.isEnterprise == true",
        "visitor.claims.unsigned.prefersFrench == true",
    ]


async def test_a_site_without_a_visitor_schema_offers_none(sites: SiteService, state: SandboxState) -> None:
    assert await sites.condition_choices(state.demo_org, site_id(state, "Internal Handbook")) == ConditionChoices(
        schema=False, conditions=[]
    )


async def test_a_schema_without_claims_offers_none_but_has_a_schema(sites: SiteService, state: SandboxState) -> None:
    sid = site_id(state)
    await sites.save_adaptive_schema(
        state.demo_org, sid, '{"type": "object", "properties": {}, "additionalProperties": false}'
    )
    assert await sites.condition_choices(state.demo_org, sid) == ConditionChoices(schema=True, conditions=[])


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("", ALL),
        ("   ", ALL),
        ("beta", [BETA]),
        ("BETA", [BETA]),
        ("enterprise plan", [ENTERPRISE]),  # every word, in the condition or in what it means
        ("plan enterprise", [ENTERPRISE]),
        ("enterprise beta", []),
        ("unsigned", [FRENCH]),
        ("== true", ALL),
        ("visitor.claims.unsigned", [FRENCH]),
        ("claims.is", [BETA, ENTERPRISE]),
        ("company", [ENTERPRISE]),  # in what it means only
        ("visitor.claims.isPartner", []),
    ],
)
def test_what_is_typed_filters_the_conditions(typed: str, expected: list[TemplateCondition]) -> None:
    assert matching_conditions(ALL, typed) == expected


def test_conditions_that_start_with_the_text_come_first() -> None:
    chose = TemplateCondition(condition="visitor.claims.chose == true", description="Whoever chose")
    assert matching_conditions([FRENCH, chose], "chose") == [FRENCH, chose]  # neither starts with it: kept
    assert matching_conditions([FRENCH, chose], "visitor.claims.c") == [chose]
    starts = TemplateCondition(condition="French == true", description="x")
    assert matching_conditions([FRENCH, starts], "french") == [starts, FRENCH]
