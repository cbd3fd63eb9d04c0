"""The base every API model stands on.

Fields are snake_case in Python and camelCase on the wire. Unknown fields are kept (``extra="allow"``) because the
service adds fields without notice. Enumerations whose full set the spec only samples are typed ``OpenEnum`` (a
plain ``str``) and list their known values in a ``Known...`` tuple, so a value the service adds tomorrow still
parses; enumerations the spec gives in full are ``Literal`` types.

A field the description types ``number`` reads any JSON number (``3``, ``3.0``, ``2.5``): one odd value must not
make a whole list unreadable. Counts (``count``, ``comments``, ``changeRequestsOpen``...) are :data:`Count`, an
``int`` for the screens (a fraction is rounded); other numbers are :data:`Number` (a change request's
``number``: kept as sent, a whole value as ``int``).
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic.alias_generators import to_camel

__all__ = ["Count", "Json", "Model", "Number", "OpenEnum", "Timestamp"]

Json = Any
"""A JSON value whose shape the product does not look into."""

Timestamp = datetime

OpenEnum = str
"""An enumeration the spec only samples: any string parses."""


def _whole(value: Any) -> Any:
    # 3.0 reads as 3, so a count the service sends as a float still shows as "3", not "3.0".
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Number = Annotated[int | float, BeforeValidator(_whole)]
"""A JSON number (the description's ``number``): whole values read as ``int``, others stay ``float``."""


def _rounded(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return round(value)
    return value


Count = Annotated[int, BeforeValidator(_rounded)]
"""A count the description types ``number``: any JSON number reads, a fraction rounded to the nearest whole
(ties to even)."""


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
