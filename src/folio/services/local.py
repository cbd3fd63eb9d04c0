"""The account's data on this machine: the response cache and the local state (drafts, outbox, session).

Which files belong to whom: the account is the base URL and the signed-in user (``folio.cache.account_id``), so
two accounts never read each other's cache. At start the user is not known yet: an index maps a fingerprint of
the token (a keyed hash, never the token) to the account seen with it last time, so a reopened Folio paints from
cache before the service has answered. Once ``/user`` answers, the account is confirmed (or switched).

Everything here degrades instead of failing: no cache folder, a corrupt file, a full disk -- the app runs, and
:attr:`Local.problems` says in words what is missing.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.cache import LocalState, ResponseCache

__all__ = ["Local", "token_fingerprint"]

log = logging.getLogger(__name__)


def token_fingerprint(base_url: str, secret: str) -> str:
    """A keyed hash of the token and base URL: finds the account again, and cannot give the token back."""
    return hashlib.blake2b(f"{base_url}\0{secret}".encode(), digest_size=12, key=b"folio-account-index").hexdigest()


@dataclass(frozen=True)
class _Held:
    body: bytes
    stored_at: float


class _Unconfirmed:
    """Answers read before the service has said whose token this is: held in memory (a bounded amount), then
    written to the account's cache once it is known, so nothing of a first run is lost to the race."""

    def __init__(self, most_bytes: int = 16 * 2**20) -> None:
        self.held: dict[str, _Held] = {}
        self.size = 0
        self.most_bytes = most_bytes

    def get(self, key: str) -> _Held | None:
        return self.held.get(key)

    def put(self, key: str, body: bytes) -> None:
        if self.size + len(body) > self.most_bytes:
            return
        old = self.held.pop(key, None)
        self.size += len(body) - (len(old.body) if old else 0)
        self.held[key] = _Held(body, time.time())

    def invalidate(self, path: str) -> int:
        gone = [k for k in self.held if k.split("?", 1)[0].removeprefix("GET ").startswith(path)]
        for key in gone:
            self.size -= len(self.held.pop(key).body)
        return len(gone)


class Local:
    """The response cache and local state of one account, wired into ``client.store``."""

    def __init__(
        self, client: GitBookClient, *, cache_dir: Path, state_dir: Path, forget_answers: bool = False
    ) -> None:
        self.client = client
        self.forget_answers = forget_answers
        """Start with no cached answers (the demo: its sandbox is new at each start, another run's data is not its
        own); drafts, the outbox and the session stay."""
        self.cache_dir = cache_dir
        self.state_dir = state_dir
        self.account: str | None = None
        self.cache: ResponseCache | None = None
        self.state: LocalState | None = None
        self._fingerprint = token_fingerprint(client.base_url, client.token.reveal()) if client.token else None
        self._unconfirmed: _Unconfirmed | None = _Unconfirmed()
        client.store = self._unconfirmed

    @property
    def problems(self) -> list[str]:
        """What does not work locally, in words (empty when all is well)."""
        found = []
        for part in (self.cache, self.state):
            problem = getattr(part, "problem", None)
            if problem:
                found.append(problem)
        return found

    def open_known(self) -> bool:
        """Open the account last seen with this token, if any (True when one was opened)."""
        if self._fingerprint is None:
            return False
        from folio.cache import accounts

        try:
            account = accounts.lookup(self.cache_dir, self._fingerprint)
        except Exception:  # the index is a convenience: a broken one only costs the first paint
            log.warning("the accounts index could not be read", exc_info=True)
            return False
        if account is None:
            return False
        self._open(account)
        return True

    def confirm(self, user_id: str, label: str) -> None:
        """The service said who the token belongs to: use (and remember) that account's files."""
        from folio.cache import accounts

        account = accounts.account_id(self.client.base_url, user_id)
        if self._fingerprint is not None:
            try:
                accounts.remember(self.cache_dir, self._fingerprint, account, label)
            except Exception:
                log.warning("the accounts index could not be written", exc_info=True)
        if account != self.account:
            self._open(account)

    def _open(self, account: str) -> None:
        from folio.cache import LocalState, ResponseCache

        self.close()
        self.account = account
        self.cache = ResponseCache.open(account, folder=self.cache_dir)
        if self.forget_answers:
            self.cache.clear()
            self.forget_answers = False  # once, at the start: what this run caches it may paint again
        self.state = LocalState.open(account, folder=self.state_dir)
        self.client.store = self.cache
        if self._unconfirmed is not None:
            for key, held in self._unconfirmed.held.items():
                self.cache.put(key, held.body)
            self._unconfirmed = None
        for problem in self.problems:
            log.warning("local data: %s", problem)

    def close(self) -> None:
        if self.client.store is self.cache or self.client.store is self._unconfirmed:
            self.client.store = None
        for part in (self.cache, self.state):
            if part is not None:
                part.close()
        self.cache = self.state = None
