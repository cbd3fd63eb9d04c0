"""The service's errors as the sandbox raises them; rendered as ``{"error": {"code", "message"}}``."""

from __future__ import annotations


class SandboxError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def bad_request(message: str) -> SandboxError:
    return SandboxError(400, message)


def unauthorized(message: str = "Authentication required") -> SandboxError:
    return SandboxError(401, message)


def forbidden(message: str = "You do not have permission to perform this action") -> SandboxError:
    return SandboxError(403, message)


def not_found(message: str) -> SandboxError:
    return SandboxError(404, message)


def conflict(message: str) -> SandboxError:
    return SandboxError(409, message)


def unprocessable(message: str) -> SandboxError:
    return SandboxError(422, message)


def payload_too_large(message: str) -> SandboxError:
    return SandboxError(413, message)
