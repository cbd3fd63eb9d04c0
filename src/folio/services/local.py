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
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.cache import CachedResponse, LocalState, ResponseCache

__all__ = ["Local", "token_fingerprint"]

log = logging.getLogger(__name__)


def token_fingerprint(base_url: str, secret: str) -> str:
    """A keyed hash of the token and base URL: finds the account again, and cannot give the token back."""
    return hashlib.blake2b(f"{base_url}\0{secret}".encode(), digest_size=12, key=b"folio-account-index").hexdigest()


class _Held(NamedTuple):  # (defined before the first frame: see folio.cache.records)
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
    """The response cache and local state of one account, wired into ``client.store``.

    The client may come later than the files (:meth:`attach`): a start opens the account last seen with the token
    and paints its first frame from the cache before the HTTP client is built. Give either ``client`` or the
    service's ``base_url`` and the token's ``secret`` (what identifies the account in the index)."""

    def __init__(
        self,
        client: GitBookClient | None = None,
        *,
        cache_dir: Path,
        state_dir: Path,
        forget_answers: bool = False,
        base_url: str | None = None,
        secret: str | None = None,
    ) -> None:
        self.client: GitBookClient | None = None
        self.forget_answers = forget_answers
        """Paint nothing of another run's answers once the service is asked (the demo: its sandbox is new at each
        start, so another run's data is not its own; its same seed makes that data a fair first frame until the
        sandbox answers). The answers are forgotten when the client is attached with the account open, or when
        the account is opened with the client attached; drafts, the outbox and the session stay."""
        self.cache_dir = cache_dir
        self.state_dir = state_dir
        self.account: str | None = None
        self.cache: ResponseCache | None = None
        self.state: LocalState | None = None
        if client is not None:
            base_url = client.base_url
            secret = client.token.reveal() if client.token else None
        self.base_url = base_url or ""
        self._fingerprint = token_fingerprint(self.base_url, secret) if secret else None
        self._unconfirmed: _Unconfirmed | None = _Unconfirmed()
        if client is not None:
            self.attach(client)

    def attach(self, client: GitBookClient) -> None:
        """The HTTP client is built: its reads and writes go through this account's cache from now on."""
        self.client = client
        client.store = self.cache if self.cache is not None else self._unconfirmed
        self._forget_if_due()

    @property
    def problems(self) -> list[str]:
        """What does not work locally, in words (empty when all is well)."""
        found = []
        for part in (self.cache, self.state):
            problem = getattr(part, "problem", None)
            if problem:
                found.append(problem)
        return found

    def cached(self, key: str) -> CachedResponse | None:
        """The cached answer for ``key`` (``GET /orgs``), read from the account's file: a first frame painted
        before the HTTP client exists. None when no account is open or it was not seen."""
        return self.cache.get(key) if self.cache is not None else None

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

        account = accounts.account_id(self.base_url, user_id)
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
        self._forget_if_due()
        self.state = LocalState.open(account, folder=self.state_dir)
        if self.client is not None:
            self.client.store = self.cache
        if self._unconfirmed is not None:  # what was read before the account was known (only through a client)
            for key, held in self._unconfirmed.held.items():
                self.cache.put(key, held.body)
            self._unconfirmed = None
        for problem in self.problems:
            log.warning("local data: %s", problem)

    def _forget_if_due(self) -> None:
        """Forget another run's answers, once, when both the account's cache and the client are there: what this
        run caches after that it may paint again."""
        if self.forget_answers and self.cache is not None and self.client is not None:
            self.cache.clear()
            self.forget_answers = False

    def close(self) -> None:
        client = self.client
        if client is not None and (client.store is self.cache or client.store is self._unconfirmed):
            client.store = None
        for part in (self.cache, self.state):
            if part is not None:
                part.close()
        self.cache = self.state = None
