"""The conditions of a site's sections and site spaces (adaptive content), read before they are sent.

A condition is a JavaScript-like boolean expression over what is known of the visitor, the language of the
site's template conditions (``visitor.claims.isBeta == true``). This reads the part of the language conditions
use, by recursive descent, and says where it stops making sense:

    expression  := or
    or          := and ("||" and)*
    and         := equality ("&&" equality)*
    equality    := comparison (("==" | "!=" | "===" | "!==") comparison)*
    comparison  := unary (("<" | ">" | "<=" | ">=") unary)*
    unary       := ("!" | "-") unary | postfix
    postfix     := primary ("." name | "[" expression "]" | "(" arguments ")")*      a call only after "." name
    primary     := name | number | string | true | false | null | undefined | "(" expression ")" | "[" items "]"

    parse("visitor.claims.isBeta == true")      -> Binary("==", Member(Member(Name(visitor), claims), isBeta), ...)
    problem("visitor.claims.isBeta == ((")       -> "Column 28: expected a value (...), found the end."

Only the shape is checked: which claims exist is the visitor schema's business (the condition field offers them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from folio.services.errors import Refusal

__all__ = [
    "Array",
    "Binary",
    "Call",
    "ConditionError",
    "Expr",
    "Index",
    "Literal",
    "Member",
    "Name",
    "Unary",
    "parse",
    "problem",
]

VALUE = "a value (a name, a string, a number, true, false, null, “!”, “(” or “[”)"
_KEYWORDS: dict[str, object] = {"true": True, "false": False, "null": None, "undefined": None}
_PUNCTUATION = ("===", "!==", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ".", ",", "-")
_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_NUMBER = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_LOOKS_WRONG = {
    "=": "“=” assigns; a condition compares with “==” or “===”",
    "&": "“&” alone is not “and”: write “&&”",
    "|": "“|” alone is not “or”: write “||”",
}


class ConditionError(Refusal, ValueError):
    """Where a condition stops making sense: ``column`` (1-based), what was ``expected`` there and what was
    ``found``."""

    def __init__(self, column: int, expected: str, found: str) -> None:
        self.column, self.expected, self.found = column, expected, found
        super().__init__(self.describe())

    def describe(self) -> str:
        return f"Column {self.column}: expected {self.expected}, found {self.found}."


# -- the tree -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Name:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Literal:
    value: object
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Member:
    target: Expr
    name: str

    def __str__(self) -> str:
        return f"{self.target}.{self.name}"


@dataclass(frozen=True)
class Index:
    target: Expr
    index: Expr

    def __str__(self) -> str:
        return f"{self.target}[{self.index}]"


@dataclass(frozen=True)
class Call:
    target: Member
    arguments: tuple[Expr, ...]

    def __str__(self) -> str:
        return f"{self.target}({', '.join(str(a) for a in self.arguments)})"


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Expr

    def __str__(self) -> str:
        return f"({self.op}{self.operand})"


@dataclass(frozen=True)
class Binary:
    op: str
    left: Expr
    right: Expr

    def __str__(self) -> str:
        return f"({self.left} {self.op} {self.right})"


@dataclass(frozen=True)
class Array:
    items: tuple[Expr, ...]

    def __str__(self) -> str:
        return f"[{', '.join(str(i) for i in self.items)}]"


Expr = Name | Literal | Member | Index | Call | Unary | Binary | Array
"""A parsed condition; ``str()`` writes it back with every operation in parentheses."""


# -- reading ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Token:
    kind: str
    """name, number, string, punctuation or end"""
    text: str
    column: int
    value: object = None

    def described(self) -> str:
        if self.kind == "end":
            return "the end"
        shown = self.text if len(self.text) <= 20 else self.text[:19] + "…"
        return f"“{shown}”"


def _string(text: str, start: int) -> tuple[str, int]:
    """The string literal opening at ``start``: its value and the index after its closing quote."""
    quote, i = text[start], start + 1
    out: list[str] = []
    escapes = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
    while i < len(text):
        char = text[i]
        if char == quote:
            return "".join(out), i + 1
        if char == "\\":
            if i + 1 >= len(text):
                break
            nxt = text[i + 1]
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        if char == "\n":
            break
        out.append(char)
        i += 1
    raise ConditionError(len(text) + 1, f"the closing {quote} of the string opened at column {start + 1}", "the end")


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
            continue
        column = i + 1
        if char in "\"'":
            value, end = _string(text, i)
            tokens.append(_Token("string", text[i:end], column, value))
            i = end
            continue
        number = _NUMBER.match(text, i)
        after_value = bool(tokens) and (tokens[-1].kind != "punctuation" or tokens[-1].text in (")", "]"))
        if number and (char.isdigit() or (char == "." and not after_value and number.end() > i + 1)):
            tokens.append(_Token("number", number.group(), column, float(number.group())))
            i = number.end()
            continue
        name = _NAME.match(text, i)
        if name:
            tokens.append(_Token("name", name.group(), column))
            i = name.end()
            continue
        punct = next((p for p in _PUNCTUATION if text.startswith(p, i)), None)
        if punct is None:
            why = _LOOKS_WRONG.get(char)
            if why is not None:
                raise ConditionError(column, "an operator", why)
            raise ConditionError(column, "a name, a value or an operator", f"“{char}”")
        tokens.append(_Token("punctuation", punct, column))
        i += len(punct)
    tokens.append(_Token("end", "", len(text) + 1))
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def _is(self, *texts: str) -> bool:
        return self.token.kind == "punctuation" and self.token.text in texts

    def _take(self) -> _Token:
        token = self.token
        self.at += 1
        return token

    def _expect(self, text: str, what: str) -> _Token:
        if not self._is(text):
            raise ConditionError(self.token.column, what, self.token.described())
        return self._take()

    def parse(self) -> Expr:
        expr = self.expression()
        if self.token.kind != "end":
            found = self.token
            expected = "an operator (“==”, “&&”, “||”…) or the end"
            if found.text == ")":
                expected = "the end (this “)” closes nothing)"
            raise ConditionError(found.column, expected, found.described())
        return expr

    def expression(self) -> Expr:
        return self._binary(0)

    _LEVELS = (("||",), ("&&",), ("==", "!=", "===", "!=="), ("<", ">", "<=", ">="))

    def _binary(self, level: int) -> Expr:
        if level == len(self._LEVELS):
            return self.unary()
        left = self._binary(level + 1)
        while self._is(*self._LEVELS[level]):
            op = self._take().text
            left = Binary(op, left, self._binary(level + 1))
        return left

    def unary(self) -> Expr:
        if self._is("!", "-"):
            op = self._take().text
            return Unary(op, self.unary())
        return self.postfix()

    def postfix(self) -> Expr:
        expr = self.primary()
        while True:
            if self._is("."):
                self._take()
                if self.token.kind != "name":
                    raise ConditionError(self.token.column, "a name after “.”", self.token.described())
                expr = Member(expr, self._take().text)
            elif self._is("["):
                self._take()
                index = self.expression()
                self._expect("]", "“]” to close the “[”")
                expr = Index(expr, index)
            elif self._is("("):
                opening = self.token
                if not isinstance(expr, Member):
                    raise ConditionError(
                        opening.column, "an operator (only a method such as “.includes” can be called)", "“(”"
                    )
                self._take()
                expr = Call(expr, self._items(")", f"“)” to close the call opened at column {opening.column}"))
            else:
                return expr

    def _items(self, closing: str, what: str) -> tuple[Expr, ...]:
        items: list[Expr] = []
        if self._is(closing):
            self._take()
            return ()
        while True:
            items.append(self.expression())
            if self._is(","):
                self._take()
                continue
            self._expect(closing, f"“,” or {what}")
            return tuple(items)

    def primary(self) -> Expr:
        token = self.token
        if token.kind == "name":
            self._take()
            if token.text in _KEYWORDS:
                return Literal(_KEYWORDS[token.text], token.text)
            return Name(token.text)
        if token.kind in ("number", "string"):
            self._take()
            return Literal(token.value, token.text)
        if self._is("("):
            self._take()
            inner = self.expression()
            self._expect(")", f"“)” to close the “(” at column {token.column}")
            return inner
        if self._is("["):
            self._take()
            return Array(self._items("]", f"“]” to close the list opened at column {token.column}"))
        raise ConditionError(token.column, VALUE, token.described())


def parse(text: str) -> Expr:
    """The condition ``text`` as a tree; raises :class:`ConditionError` where it stops making sense."""
    if not text.strip():
        raise ConditionError(len(text) + 1, VALUE, "the end")
    return _Parser(text).parse()


def problem(text: str | None) -> str | None:
    """What is wrong with the condition ``text`` in words (column and what was expected), or None when it reads
    (an empty or missing condition is none at all: nothing to read)."""
    if text is None or not text.strip():
        return None
    try:
        parse(text)
    except ConditionError as exc:
        return exc.describe()
    return None
