"""What the sandbox's tests share: ``served``, the address of a `folio sandbox serve` child on a real socket."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sandbox import serving


@pytest.fixture
def served() -> Iterator[str]:
    with serving.served() as url:
        yield url
