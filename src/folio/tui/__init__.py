"""The terminal interface (Textual only): the app, one screen per file, and the one place errors are shown.

Screens receive their services in their constructors; nothing here talks HTTP or imports ``folio.api``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["styles_dir"]


def styles_dir() -> Path:
    """The TCSS folder: ``folio/styles`` in an installed wheel, the repository's ``styles/`` in a checkout."""
    import folio

    package = Path(folio.__file__).resolve().parent
    for candidate in (package / "styles", package.parents[1] / "styles"):
        if candidate.is_dir():
            return candidate
    return package / "styles"
