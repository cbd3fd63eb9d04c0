"""Every value the public description allows, the models read: for each model of an answer (catalogue.MODELS),
instances drawn from the description's schema by hypothesis-jsonschema must validate.

The description is the service's promise; a field that is a number where Folio expected a whole number, a
variable that is a boolean, a variant Folio did not know, must never make an answer unreadable. Each drawn
instance is first checked against the description itself (so a failure here is the model's, not the
generator's). See tests/contract/generate.py for how recursion is bounded and which formats are mapped.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import TypeAdapter

from folio.api.pagination import is_struct, parse_envelope_json
from folio.models.change_request import ChangeRequestRowModel
from folio.models.space import OrgSpaceSummary
from tests.contract.catalogue import MODELS
from tests.contract.generate import FORMATS, schema_for
from tests.contract.openapi import Description, load

EXAMPLES = 10
"""Instances per model: about 70 models, the whole file about a minute on two busy cores."""

DEPTH = 2
"""How many values deep (a property or an array item is one level) references are inlined; past it a reference
is cut where its parent can do without it. The nested models have their own rows, so two levels test each
model's own fields and its children's shape."""

SHALLOW = {"Document": 1, "PublishedSite": 1}
"""The largest schemas (a document's forty kinds of block; a site with its structure and customizations), read
one level deep to keep the file's time: their deeper parts are their own rows (Site, SiteStructure...)."""

# name -> why no instance of it can be drawn. Empty today: every schema in MODELS can be generated. A schema
# that cannot (hypothesis-jsonschema refuses it, or the cut leaves nothing) is listed here with the reason,
# never skipped silently.
NOT_GENERATED: dict[str, str] = {}

STRUCT_LENIENT: dict[str, Any] = {"SpaceSummary": OrgSpaceSummary, "ChangeRequestSummary": ChangeRequestRowModel}
"""The models that are msgspec Structs (list rows) are read as their lists read them: a page of one item, decoded
by msgspec, and what msgspec refuses read by this pydantic type and converted (folio.api.pagination)."""

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    # No shrinking: a failing instance of a large schema takes minutes to shrink, and the validation error
    # already names the field.
    phases=[Phase.explicit, Phase.generate],
)


@pytest.fixture(scope="module")
def description() -> Description:
    return load()


@cache
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _strategy(description: Description, name: str, pointer: str) -> st.SearchStrategy[Any]:
    schema = schema_for(description.doc, pointer, depth=SHALLOW.get(name, DEPTH))
    return from_schema(schema, custom_formats=FORMATS)


@pytest.mark.parametrize(("name", "target", "pointer"), MODELS, ids=[name for name, _, _ in MODELS])
def test_the_model_reads_every_instance_of_its_schema(
    description: Description, name: str, target: Any, pointer: str
) -> None:
    if name in NOT_GENERATED:
        pytest.skip(NOT_GENERATED[name])
    validator = description.validator(pointer.removeprefix("#"))
    if is_struct(target):
        lenient = STRUCT_LENIENT[name]

        def read(instance: Any) -> None:
            raw = json.dumps({"items": [instance]}).encode()
            parse_envelope_json(target, raw, method="GET", path=f"({name})", lenient=lenient)

    else:
        read = _adapter(target).validate_python

    @SETTINGS
    @given(_strategy(description, name, pointer))
    def reads(instance: Any) -> None:
        problems = [e.message[:200] for e in validator.iter_errors(instance)][:3]
        assert problems == [], f"the generator drew an instance the description rejects: {problems}"
        read(instance)

    reads()


def test_the_catalogue_names_each_model_once() -> None:
    names = [name for name, _, _ in MODELS]
    assert len(names) == len(set(names))
    assert set(NOT_GENERATED) | set(SHALLOW) <= set(names)
