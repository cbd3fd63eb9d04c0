"""Which account a run belongs to, so each account gets its own cache and state files.

An account is the service's address and the user: :func:`account_id` hashes them into a short id used in file
names. Finding the user needs a request, so the index ``accounts.json`` (in the cache folder) remembers which
account a token led to last time, keyed by a fingerprint of the token the caller computes (never the token): the
next start opens the right cache before the network answers, or offline. The index holds only what it is given.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from folio.cache._db import read_json, write_json_atomic
from folio.config.paths import paths

__all__ = ["INDEX_NAME", "account_id", "labels", "lookup", "remember"]

INDEX_NAME = "accounts.json"


def account_id(base_url: str, user_id: str) -> str:
    """A stable 16-hex-character id for ``user_id`` on the service at ``base_url`` (a trailing ``/`` ignored)."""
    return hashlib.sha256(f"{base_url.rstrip('/')}\0{user_id}".encode()).hexdigest()[:16]


def _index_path(folder: Path | None) -> Path:
    return (folder if folder is not None else paths().cache_dir) / INDEX_NAME


def _entries(folder: Path | None) -> dict[str, dict[str, str]]:
    data = read_json(_index_path(folder))
    tokens = data.get("tokens") if isinstance(data, dict) else None
    if not isinstance(tokens, dict):
        return {}
    return {
        str(fp): {"account": str(entry["account"]), "label": str(entry.get("label", ""))}
        for fp, entry in tokens.items()
        if isinstance(entry, dict) and isinstance(entry.get("account"), str)
    }


def remember(folder: Path | None, fingerprint: str, account: str, label: str) -> bool:
    """Note in ``folder``'s index (``None``: the platform's cache folder) that the token with ``fingerprint``
    belongs to ``account`` (``label``: how to show it, e.g. the user's name on the service). Written atomically
    with mode 0600; returns False (never raises) when it cannot be."""
    entries = _entries(folder)
    if entries.get(fingerprint) == {"account": account, "label": label}:
        return True
    entries[fingerprint] = {"account": account, "label": label}
    data: dict[str, Any] = {"version": 1, "tokens": entries}
    try:
        write_json_atomic(_index_path(folder), data)
    except OSError:
        return False
    return True


def lookup(folder: Path | None, fingerprint: str) -> str | None:
    """The account the token with ``fingerprint`` belonged to last time, or ``None``."""
    entry = _entries(folder).get(fingerprint)
    return entry["account"] if entry else None


def labels(folder: Path | None = None) -> dict[str, str]:
    """Account id -> label, for ``folio cache info``."""
    return {entry["account"]: entry["label"] for entry in _entries(folder).values() if entry["label"]}
