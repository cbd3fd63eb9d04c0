"""Instances of the public description's schemas, drawn by hypothesis-jsonschema.

hypothesis-jsonschema wants one self-contained schema without recursion; the description is a web of ``$ref``s
with recursive ones (pages hold pages, document blocks hold blocks). :func:`schema_for` inlines the references
and bounds the nesting: a reference more than ``depth`` values deep (a property or an array item is one level)
is cut where its parent can do without it (arrays of it stay empty, an optional property of it absent), and one
already open above it is cut everywhere (branches that require it drop out). References to plain values (a
``Timestamp`` string, an enumeration) are never cut. An object schema that forgets ``type: object`` (a page's
``urls``) is read as the object it describes.

Two rewrites keep generation fast; neither lets through a value the description rejects:

- ``allOf`` members are merged into one object (an ``anyOf`` member is distributed first), since
  hypothesis-jsonschema otherwise draws from the first member and filters by the others (most draws rejected);
- objects that list their properties get ``additionalProperties: false``: unknown keys would only be random
  text with random values, and the models keep unknown fields anyway (``extra="allow"``). This one narrows
  what is drawn, on purpose.

Formats hypothesis-jsonschema does not know are drawn by :data:`FORMATS`.
"""

from __future__ import annotations

import base64
import itertools
from typing import Any

from hypothesis import strategies as st

__all__ = ["FORMATS", "resolve", "schema_for"]

# Keywords that describe rather than constrain.
_DROPPED = {
    "description",
    "example",
    "examples",
    "discriminator",
    "deprecated",
    "title",
    "default",
    "$comment",
    "readOnly",
    "writeOnly",
    "externalDocs",
    "xml",
}
# Keywords whose value is data, not a schema.
_DATA = {"enum", "const", "required", "type", "format", "pattern"}
_MAX_BRANCHES = 64

FORMATS: dict[str, st.SearchStrategy[str]] = {
    "emoji": st.sampled_from(["🎉", "📘", "✅", "❤️", "👩‍💻", "🏳️‍🌈", "1f600", "x"]),
    "icon": st.sampled_from(["book", "house", "gear", "rocket", "circle-info"]),
    "byte": st.binary(max_size=24).map(lambda raw: base64.b64encode(raw).decode()),
    "int32": st.integers(-(2**31), 2**31 - 1).map(str),
}
"""Formats of the description that hypothesis-jsonschema cannot draw by itself."""


def resolve(doc: dict[str, Any], ref: str) -> Any:
    if not ref.startswith("#/"):
        raise ValueError(f"only local references are followed: {ref}")
    node: Any = doc
    for part in ref[2:].split("/"):
        step = part.replace("~1", "/").replace("~0", "~")
        node = node[int(step)] if isinstance(node, list) else node[step]
    return node


class _Inliner:
    def __init__(self, doc: dict[str, Any], depth: int) -> None:
        self.doc = doc
        self.depth = depth
        self._plain: dict[str, bool] = {}

    def plain(self, ref: str) -> bool:
        """Whether the referenced schema holds no reference (a leaf: never cut)."""
        if ref not in self._plain:
            self._plain[ref] = "$ref" not in repr(resolve(self.doc, ref))
        return self._plain[ref]

    def required(self, node: Any) -> frozenset[str]:
        """The property names ``node`` requires, its ``allOf`` members' included (references followed)."""
        if not isinstance(node, dict):
            return frozenset()
        if "$ref" in node:
            return self.required(resolve(self.doc, node["$ref"])) | self.required(
                {k: v for k, v in node.items() if k != "$ref"}
            )
        names = frozenset(node.get("required", []))
        for member in node.get("allOf", []):
            names |= self.required(member)
        return names

    def inline(
        self, node: Any, stack: tuple[str, ...], level: int, needed: bool, required: frozenset[str] = frozenset()
    ) -> Any:
        """``node`` with its references inlined. ``stack``: the references open above; ``level``: how many
        values (properties, items) deep it is; ``needed``: whether its parent cannot be without it (a required
        property, the items of a non-empty array); ``required``: the property names its object requires
        (given by an enclosing ``allOf`` that spreads the object over several members)."""
        if isinstance(node, list):
            return [self.inline(v, stack, level, needed, required) for v in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            ref = node["$ref"]
            if self.plain(ref):
                target = self.inline(resolve(self.doc, ref), stack, level, needed, required)
            elif ref in stack or (level > self.depth and not needed):
                return False
            else:
                target = self.inline(resolve(self.doc, ref), (*stack, ref), level, needed, required)
            rest = {k: v for k, v in node.items() if k != "$ref" and k not in _DROPPED}
            return {"allOf": [target, self.inline(rest, stack, level, needed, required)]} if rest else target
        required = required | self.required(node)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROPPED or key.startswith("x-"):
                continue
            if key in ("properties", "patternProperties"):
                out[key] = {
                    name: self.inline(sub, stack, level + 1, needed and name in required) for name, sub in value.items()
                }
            elif key in ("items", "prefixItems"):
                out[key] = self.inline(value, stack, level + 1, needed and node.get("minItems", 0) > 0)
            elif key == "additionalProperties":
                out[key] = self.inline(value, stack, level + 1, needed and node.get("minProperties", 0) > 0)
            elif key in ("allOf", "anyOf", "oneOf"):
                out[key] = self.inline(value, stack, level, needed, required)
            elif key in _DATA:
                out[key] = value
            else:
                out[key] = self.inline(value, stack, level, needed)
        if ("properties" in out or "required" in out) and "type" not in out:
            # An object schema that forgets ``type: object`` (a page's ``urls``): read as the object it
            # describes, not as "anything that is not an object".
            out["type"] = "object"
        return out


def _merge_objects(parts: list[dict[str, Any]]) -> dict[str, Any] | bool:
    """One object schema accepting what every part accepts (the parts hold only object keywords), or False
    when nothing can: a part's ``additionalProperties`` also governs the properties the other parts name."""
    out: dict[str, Any] = {"type": "object"}
    names = list(dict.fromkeys(name for part in parts for name in part.get("properties", {})))
    required = list(dict.fromkeys(name for part in parts for name in part.get("required", [])))
    properties: dict[str, Any] = {}
    for name in names:
        subs = [
            part["properties"][name] if name in part.get("properties", {}) else part["additionalProperties"]
            for part in parts
            if name in part.get("properties", {}) or "additionalProperties" in part
        ]
        subs = [sub for sub in subs if sub not in (True, {})]
        if any(sub is False for sub in subs):
            if name in required:
                return False
            properties[name] = False
        else:
            properties[name] = subs[0] if len(subs) == 1 else _normalise({"allOf": subs})
    additional = [part["additionalProperties"] for part in parts if "additionalProperties" in part]
    additional = [sub for sub in additional if sub not in (True, {})]
    if any(sub is False for sub in additional):
        if any(name not in names for name in required):
            return False
        out["additionalProperties"] = False
    elif additional:
        out["additionalProperties"] = additional[0] if len(additional) == 1 else {"allOf": additional}
    for part in parts:
        for key, value in part.items():
            if key not in ("type", "properties", "required", "additionalProperties"):
                out[key] = value
    if properties:
        out["properties"] = properties
    if required:
        out["required"] = required
    return out


def _normalise(node: Any) -> Any:
    if isinstance(node, list):
        return [_normalise(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = {
        key: (
            {name: _normalise(sub) for name, sub in value.items()}
            if key == "properties"
            else value
            if key in _DATA
            else _normalise(value)
        )
        for key, value in node.items()
    }
    return _merge_all_of(node) if "allOf" in node else node


def _closed(node: Any) -> Any:
    """Every object that lists its properties, closed to other keys (see the module's docstring)."""
    if isinstance(node, list):
        return [_closed(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {
        key: (
            {name: _closed(sub) for name, sub in value.items()}
            if key == "properties"
            else value
            if key in _DATA
            else _closed(value)
        )
        for key, value in node.items()
    }
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def _flatten_all_of(parts: list[Any]) -> list[Any]:
    """The members of nested ``allOf``s, a member's own ``anyOf`` or ``allOf`` split from its other keywords."""
    flat: list[Any] = []
    for part in parts:
        if isinstance(part, dict) and "allOf" in part:
            rest = {k: v for k, v in part.items() if k != "allOf"}
            flat.extend(_flatten_all_of([*part["allOf"], *([rest] if rest else [])]))
        elif isinstance(part, dict) and "anyOf" in part and len(part) > 1:
            flat.append({k: v for k, v in part.items() if k != "anyOf"})
            flat.append({"anyOf": part["anyOf"]})
        else:
            flat.append(part)
    return flat


def _merge_all_of(node: dict[str, Any]) -> Any:
    rest = {k: v for k, v in node.items() if k != "allOf"}
    parts = _flatten_all_of(node["allOf"]) + ([rest] if rest else [])
    if any(part is False for part in parts):
        return False
    parts = [part for part in parts if part not in (True, {})]
    choices = [part["anyOf"] if isinstance(part, dict) and set(part) == {"anyOf"} else [part] for part in parts]
    count = 1
    for options in choices:
        count *= len(options)
    if count > _MAX_BRANCHES:
        return node
    branches = []
    for combo in itertools.product(*choices):
        members = _flatten_all_of(list(combo))
        if any(member is False for member in members):
            continue
        merged: Any
        if any(isinstance(member, dict) and "anyOf" in member for member in members):
            merged = _merge_all_of({"allOf": members})  # a branch that holds choices of its own
        elif all(isinstance(member, dict) and _only_object_keywords(member) for member in members):
            merged = _merge_objects(members)
        else:
            merged = {"allOf": members}
        if isinstance(merged, dict) and set(merged) == {"anyOf"}:
            branches.extend(merged["anyOf"])
        elif merged is not False:
            branches.append(merged)
    if not branches:
        return False
    return branches[0] if len(branches) == 1 else {"anyOf": branches}


def _only_object_keywords(schema: dict[str, Any]) -> bool:
    allowed = {"type", "properties", "required", "additionalProperties", "minProperties", "maxProperties"}
    return set(schema) <= allowed and schema.get("type", "object") == "object"


def schema_for(doc: dict[str, Any], pointer: str, *, depth: int = 4) -> Any:
    """A self-contained schema for the description's schema at ``pointer`` (``#/components/schemas/Space``)."""
    return _closed(_normalise(_Inliner(doc, depth).inline({"$ref": pointer}, (), 0, True)))
