"""The conditions of sections and site spaces, read before they are sent (folio.services.sites.conditions): what reads,
how it groups, and where a broken one stops making sense (column and what was expected there)."""

from __future__ import annotations

import pytest

from folio.services.sites.conditions import VALUE, Call, ConditionError, Literal, Member, Name, parse, problem


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("visitor.claims.isBeta", "visitor.claims.isBeta"),
        ("visitor.claims.isBeta == true", "(visitor.claims.isBeta == true)"),
        ("visitor.claims.isBeta === true", "(visitor.claims.isBeta === true)"),
        ("visitor.claims.plan != 'free'", "(visitor.claims.plan != 'free')"),
        ('visitor.claims.plan !== "free"', '(visitor.claims.plan !== "free")'),
        ("!visitor.claims.isBeta", "(!visitor.claims.isBeta)"),
        ("!!visitor.claims.isBeta", "(!(!visitor.claims.isBeta))"),
        ("visitor.claims.seats >= 10", "(visitor.claims.seats >= 10)"),
        ("visitor.claims.seats < 2.5e3", "(visitor.claims.seats < 2.5e3)"),
        ("visitor.claims.score > -1", "(visitor.claims.score > (-1))"),
        ("visitor.claims.seats <= .5", "(visitor.claims.seats <= .5)"),
        ("a || b && c", "(a || (b && c))"),  # && binds tighter than ||
        ("(a || b) && c", "((a || b) && c)"),
        ("a == b && c != d", "((a == b) && (c != d))"),
        ("a < b == c > d", "((a < b) == (c > d))"),
        ("visitor.claims.roles.includes('admin')", "visitor.claims.roles.includes('admin')"),
        ('["fr", "de"].includes(visitor.claims.language)', '["fr", "de"].includes(visitor.claims.language)'),
        ("visitor.claims.tags.includes('a') || visitor.claims.tags.includes('b')", None),
        ("visitor.claims['plan-name'] == null", "(visitor.claims['plan-name'] == null)"),
        ("visitor.claims.unsigned.prefersFrench == true", "(visitor.claims.unsigned.prefersFrench == true)"),
        ("visitor.claims.list.indexOf(1, 2) != -1", "(visitor.claims.list.indexOf(1, 2) != (-1))"),
        ("visitor.claims.x.f()", "visitor.claims.x.f()"),
        ("visitor.claims.x == undefined", "(visitor.claims.x == undefined)"),
        ("'it\\'s' == visitor.claims.s", "('it\\'s' == visitor.claims.s)"),
        ("  visitor.claims.isBeta  ", "visitor.claims.isBeta"),
        ("$x_1 == _y", "($x_1 == _y)"),
        ("[]", "[]"),
    ],
)
def test_what_reads(text: str, read: str | None) -> None:
    expr = parse(text)
    if read is not None:
        assert str(expr) == read
    assert problem(text) is None


def test_the_tree_names_its_parts() -> None:
    expr = parse("visitor.claims.roles.includes('admin')")
    assert expr == Call(
        Member(Member(Member(Name("visitor"), "claims"), "roles"), "includes"), (Literal("admin", "'admin'"),)
    )
    assert parse("3").value == 3.0  # type: ignore[union-attr]
    assert parse("null") == Literal(None, "null")


@pytest.mark.parametrize(
    ("text", "column", "expected", "found"),
    [
        ("visitor.claims.isBeta == ((", 28, VALUE, "the end"),
        ("visitor.claims.isBeta ==", 25, VALUE, "the end"),
        ("visitor.claims.isBeta = true", 23, "an operator", "“=” assigns; a condition compares with “==” or “===”"),
        ("a & b", 3, "an operator", "“&” alone is not “and”: write “&&”"),
        ("a | b", 3, "an operator", "“|” alone is not “or”: write “||”"),
        ("(a == b", 8, "“)” to close the “(” at column 1", "the end"),
        ("a == b)", 7, "the end (this “)” closes nothing)", "“)”"),
        ("visitor.", 9, "a name after “.”", "the end"),
        ("visitor.claims.1x", 16, "a name after “.”", "“1”"),
        ("visitor..claims", 9, "a name after “.”", "“.”"),
        ("visitor.claims.isBeta true", 23, "an operator (“==”, “&&”, “||”…) or the end", "“true”"),
        ("'unterminated", 14, "the closing ' of the string opened at column 1", "the end"),
        ('x == "abc', 10, 'the closing " of the string opened at column 6', "the end"),
        ("a.includes('x'", 15, "“,” or “)” to close the call opened at column 11", "the end"),
        ("a.includes('x',)", 16, VALUE, "“)”"),
        ("isBeta()", 7, "an operator (only a method such as “.includes” can be called)", "“(”"),
        ("[1, 2", 6, "“,” or “]” to close the list opened at column 1", "the end"),
        ("a[1", 4, "“]” to close the “[”", "the end"),
        ("&& a", 1, VALUE, "“&&”"),
        ("a == #", 6, "a name, a value or an operator", "“#”"),
        ("!", 2, VALUE, "the end"),
        ("   ", 4, VALUE, "the end"),
    ],
)
def test_where_a_broken_condition_stops(text: str, column: int, expected: str, found: str) -> None:
    with pytest.raises(ConditionError) as raised:
        parse(text)
    error = raised.value
    assert (error.column, error.expected, error.found) == (column, expected, found)
    assert problem(text) == f"Column {column}: expected {expected}, found {found}." or not text.strip()


def test_no_condition_is_no_problem() -> None:
    assert problem(None) is None and problem("") is None and problem("  ") is None


def test_the_issue_example_says_where_and_what() -> None:
    assert problem("visitor.claims.isBeta == ((") == f"Column 28: expected {VALUE}, found the end."
