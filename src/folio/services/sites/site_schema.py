"""The visitor (adaptive content) schema as the editor handles it: the spec's rules (section 2.8) with each
problem said in words, the JSON text typed, the error that stops a schema from being sent, and the template
conditions a condition field offers (filtered by what is typed). Pure; unit-tested in
``tests/unit/test_site_rules.py`` and ``tests/services/test_site_conditions.py``; :mod:`folio.services.sites.sites`
re-exports every name."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from folio.models.site_structure import TemplateCondition
from folio.services.errors import Refusal

__all__ = [
    "DRAFT_07",
    "STARTER_SCHEMA",
    "ConditionChoices",
    "SchemaRefused",
    "claim_counts",
    "matching_conditions",
    "parse_schema",
    "schema_problems",
    "schema_text",
]

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
_SCHEMA_KEYS = {"$schema", "type", "properties", "additionalProperties", "description"}
_CLAIM_KEYS = {"type", "description"}
STARTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "unsigned": {"type": "object", "properties": {}, "additionalProperties": False},
    },
    "additionalProperties": False,
}


def _claim_words(who: str, claim: Any) -> list[str]:
    if not isinstance(claim, dict):
        return [f'{who} must be an object such as {{"type": "boolean"}}.']
    if claim.get("type") != "boolean":
        return [f'{who} must be of type "boolean", not {json.dumps(claim.get("type"))}.']
    unknown = set(claim) - _CLAIM_KEYS
    if unknown:
        return [f"{who} has keys the service does not accept: {', '.join(sorted(unknown))}."]
    if not isinstance(claim.get("description", ""), str):
        return [f"{who}: its description must be text."]
    return []


def schema_problems(schema: Any) -> list[str]:
    """What is wrong with a visitor schema, in words (empty: the service accepts it). The spec's rules (2.8):
    a draft-07 schema of type object, ``additionalProperties`` false, whose properties are boolean claims,
    with an ``unsigned`` object (``additionalProperties`` false) of boolean claims."""
    if not isinstance(schema, dict):
        return ["The schema must be a JSON object, { ... }."]
    out: list[str] = []
    if "$schema" in schema and schema["$schema"] != DRAFT_07:
        out.append(f'"$schema" must be {DRAFT_07} (a draft-07 schema).')
    if schema.get("type") != "object":
        out.append('The schema\'s "type" must be "object".')
    if schema.get("additionalProperties") is not False:
        out.append('The schema\'s "additionalProperties" must be false.')
    unknown = set(schema) - _SCHEMA_KEYS
    if unknown:
        out.append(f"The schema has keys the service does not accept: {', '.join(sorted(unknown))}.")
    props = schema.get("properties")
    if not isinstance(props, dict):
        out.append('The schema needs "properties": an object of boolean claims.')
        return out
    for name, claim in props.items():
        if name != "unsigned":
            out.extend(_claim_words(f'Claim "{name}"', claim))
    if "unsigned" in props:
        unsigned = props["unsigned"]
        if not isinstance(unsigned, dict):
            return [*out, 'The "unsigned" property must be an object of unsigned claims.']
        if unsigned.get("type") != "object":
            out.append('The "unsigned" property\'s "type" must be "object".')
        if unsigned.get("additionalProperties") is not False:
            out.append('The "unsigned" property\'s "additionalProperties" must be false.')
        inner = unsigned.get("properties")
        if not isinstance(inner, dict):
            out.append('The "unsigned" property needs "properties": an object of boolean claims.')
        else:
            for name, claim in inner.items():
                out.extend(_claim_words(f'Unsigned claim "{name}"', claim))
    return out


def parse_schema(text: str) -> tuple[Any, list[str]]:
    """The schema typed as JSON text, and its problems in words (invalid JSON says where)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [f"Not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."]
    return value, schema_problems(value)


def schema_text(schema: Any) -> str:
    """A schema as the editor shows it: indented JSON, keys in the schema's own order."""
    return json.dumps(schema, indent=2, ensure_ascii=False)


def claim_counts(schema: Any) -> tuple[int, int]:
    """(signed, unsigned) claim counts of a schema that has no problems."""
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return 0, 0
    unsigned = props.get("unsigned")
    inner = unsigned.get("properties") if isinstance(unsigned, dict) else None
    return len([k for k in props if k != "unsigned"]), len(inner) if isinstance(inner, dict) else 0


class SchemaRefused(Refusal, ValueError):
    """The schema was not sent: its problems, in words."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(self.describe())

    def describe(self) -> str:
        return "The visitor schema was not saved: " + " ".join(self.problems)


@dataclass
class ConditionChoices:
    """What a condition field can offer: the template conditions of the site's visitor schema; ``schema`` is
    False when the site has no visitor schema (and so nothing to offer)."""

    schema: bool
    conditions: list[TemplateCondition] = field(default_factory=list)


def matching_conditions(conditions: Sequence[TemplateCondition], typed: str) -> list[TemplateCondition]:
    """The conditions that match what is typed in a condition field: every word typed (case ignored) appears in
    the condition or in what it means. Those whose condition starts with the text come first; otherwise the
    schema's order is kept. Nothing typed: all of them."""
    words = typed.lower().split()
    if not words:
        return list(conditions)
    start = " ".join(words)
    found = [c for c in conditions if all(w in f"{c.condition}\n{c.description}".lower() for w in words)]
    return sorted(found, key=lambda c: not c.condition.lower().startswith(start))
