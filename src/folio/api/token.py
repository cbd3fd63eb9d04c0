"""The access token, in a type that never shows itself.

``str()``, ``repr()`` and formatting all give ``Token(****)``; only :meth:`Token.reveal` gives the value, and
only the client's auth flow calls it, on requests to the configured host.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Token"]


class Token:
    __slots__ = ("__value",)

    def __init__(self, value: str) -> None:
        value = value.strip()
        if not value:
            raise ValueError("empty token")
        self.__value = value

    def reveal(self) -> str:
        return self.__value

    def __repr__(self) -> str:
        return "Token(****)"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Token) and other.reveal() == self.__value

    def __hash__(self) -> int:
        return hash(self.__value)

    def __reduce__(self) -> str | tuple[Any, ...]:
        raise TypeError("a Token is not picklable")
