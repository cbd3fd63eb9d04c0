"""The base every API model stands on.

Fields are snake_case in Python and camelCase on the wire. Unknown fields are kept (``extra="allow"``) because the
service adds fields without notice. Enumerations whose full set the spec only samples are typed ``OpenEnum`` (a
plain ``str``) and list their known values in a ``Known...`` tuple, so a value the service adds tomorrow still
parses; enumerations the spec gives in full are ``Literal`` types.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

__all__ = ["Json", "Model", "OpenEnum", "Timestamp"]

Json = Any
"""A JSON value whose shape the product does not look into."""

Timestamp = datetime

OpenEnum = str
"""An enumeration the spec only samples: any string parses."""


class Model(BaseModel):
    """Base of every wire model: camelCase aliases, unknown fields kept, populate by either name."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        protected_namespaces=(),
        defer_build=True,
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict the service would send or accept: aliases, unset fields left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)
