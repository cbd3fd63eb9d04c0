"""The TUI catches what the services raise (``except ServiceError``), not everything (issue 25): a bug of ours is
not shown as a failed request. A broad ``except Exception`` is kept only where it must catch anything, with a
comment on its line or the line before saying why; and no part is imported in ``try: ... except ImportError``
(a broken part fails loudly instead of falling back without a word)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from folio.services.errors import Invalid, Refusal, ServiceError

TUI = Path(__file__).resolve().parents[2] / "src" / "folio" / "tui"

MOST_BROAD = 19
"""The broad excepts the TUI may keep (each commented)."""

BROAD = frozenset({"Exception", "BaseException"})


def _names(node: ast.expr | None) -> set[str]:
    """The exception names of an ``except`` clause (None: a bare ``except:``)."""
    if node is None:
        return {"BaseException"}
    if isinstance(node, ast.Tuple):
        return {name for element in node.elts for name in _names(element)}
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    return set()


def _handlers(source: str) -> list[tuple[int, set[str]]]:
    return [
        (node.lineno, _names(node.type)) for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ExceptHandler)
    ]


def _broad(source: str) -> list[tuple[int, bool]]:
    """Each broad except of ``source``: its line, and whether a comment says why (on it or the line before)."""
    lines = source.splitlines()
    found = []
    for line, names in _handlers(source):
        if names & BROAD:
            own, before = lines[line - 1], lines[line - 2] if line >= 2 else ""
            found.append((line, "#" in own or before.strip().startswith("#")))
    return found


def _tui_files() -> dict[str, str]:
    return {str(path.relative_to(TUI)): path.read_text() for path in sorted(TUI.rglob("*.py"))}


def test_the_check_finds_broad_and_uncommented_excepts_and_import_fallbacks() -> None:
    source = (
        "try:\n    a()\nexcept Exception:\n    pass\n"
        "try:\n    a()\nexcept (KeyError, BaseException):  # why\n    pass\n"
        "try:\n    a()\n# why, on the line before\nexcept:\n    pass\n"
        "try:\n    import b\nexcept ImportError:\n    b = None\n"
        "try:\n    a()\nexcept errors.ServiceError:\n    pass\n"
    )
    assert _broad(source) == [(3, False), (7, True), (12, True)]
    assert [line for line, names in _handlers(source) if "ImportError" in names] == [16]


def test_the_tui_keeps_few_broad_excepts_each_with_its_reason() -> None:
    broad = {(name, line): commented for name, source in _tui_files().items() for line, commented in _broad(source)}
    assert len(broad) <= MOST_BROAD, f"{len(broad)} broad excepts in src/folio/tui: catch ServiceError instead"
    uncommented = sorted(f"{name}:{line}" for (name, line), commented in broad.items() if not commented)
    assert not uncommented, f"broad excepts without a comment saying why: {uncommented}"


def test_no_part_of_the_tui_is_imported_in_a_try() -> None:
    fallbacks = sorted(
        f"{name}:{line}"
        for name, source in _tui_files().items()
        for line, names in _handlers(source)
        if names & {"ImportError", "ModuleNotFoundError"}
    )
    assert not fallbacks, f"import it plainly, so a broken part fails loudly: {fallbacks}"


@pytest.mark.parametrize(
    "refusal",
    [
        "folio.services.people.people:Refused",
        "folio.services.reconcile:NotDone",
        "folio.services.review.authoring:ReviewRequestsNotOffered",
        "folio.services.people.access:InvitesNotOffered",
        "folio.services.insights.conversations:NotOfferedHere",
        "folio.services.insights.conversation_files:UnreadableFile",
        "folio.services.sites.structure.capabilities:Unsupported",
        "folio.services.sites.structure.service:StepFailed",
        "folio.services.sites.structure.service:EditFailed",
        "folio.services.sites.conditions:ConditionError",
        "folio.services.sites.site_schema:SchemaRefused",
        "folio.services.people.access_saml:CertificateProblem",
    ],
)
def test_every_refusal_of_the_services_is_a_service_error(refusal: str) -> None:
    module, name = refusal.split(":")
    cls = getattr(__import__(module, fromlist=[name]), name)
    assert issubclass(cls, Refusal)
    assert issubclass(cls, ServiceError)


def test_service_error_is_the_api_errors_and_the_refusals_but_not_a_bug() -> None:
    from folio.api.errors import ApiError, NotFound

    assert isinstance(NotFound("gone"), ServiceError)
    assert ApiError in ServiceError
    invalid = Invalid("Pick at least one member.")
    assert isinstance(invalid, ServiceError) and isinstance(invalid, ValueError)  # (old `except ValueError` holds)
    assert invalid.describe() == "Pick at least one member."
    for bug in (KeyError("x"), AttributeError("y"), ValueError("z"), TypeError("w")):
        assert not isinstance(bug, ServiceError)
