"""The authenticated user (``GET /user``): who the token belongs to.

me = await client.users.me()
"""

from __future__ import annotations

from folio.api.resources._base import Resource
from folio.models.common import User

__all__ = ["UsersResource"]


class UsersResource(Resource):
    """``client.users``."""

    async def me(self) -> User:
        """The user the token belongs to; ``auth login`` calls this to check a token."""
        return await self._get(User, "/user")
