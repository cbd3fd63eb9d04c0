"""The built-in emulator of the GitBook API: a Starlette app over in-memory state, seeded with a demo
organization. Imports only ``folio.models`` of Folio (or nothing), so it can be served on its own.

The names below are loaded when first asked for (PEP 562), so that importing a light part of the sandbox (its
state, the people part of the seed: what ``folio.sandbox.first_answer`` reads) does not import Starlette.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from folio.sandbox.app import create_app
    from folio.sandbox.faults import Faults
    from folio.sandbox.state import SandboxState
    from folio.sandbox.transport import SandboxTransport

__all__ = ["Faults", "SandboxState", "SandboxTransport", "create_app"]


def __getattr__(name: str) -> Any:
    # Imported by name, one branch each (the sandbox imports no module through importlib).
    value: Any
    if name == "create_app":
        from folio.sandbox.app import create_app as value
    elif name == "Faults":
        from folio.sandbox.faults import Faults as value
    elif name == "SandboxState":
        from folio.sandbox.state import SandboxState as value
    elif name == "SandboxTransport":
        from folio.sandbox.transport import SandboxTransport as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
