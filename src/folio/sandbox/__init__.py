"""The built-in emulator of the GitBook API: a Starlette app over in-memory state, seeded with a demo
organization. Imports only ``folio.models`` of Folio (or nothing), so it can be served on its own."""

from folio.sandbox.app import create_app
from folio.sandbox.faults import Faults
from folio.sandbox.state import SandboxState
from folio.sandbox.transport import SandboxTransport

__all__ = ["Faults", "SandboxState", "SandboxTransport", "create_app"]
