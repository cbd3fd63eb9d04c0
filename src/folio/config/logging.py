"""The debug log (``folio --debug``): a file under the logs folder, with every secret replaced by ``****``.

The redaction is a :class:`logging.Filter` on the file's handler, so it sees every record that reaches the
file, from Folio's loggers and from ``httpx`` and ``httpcore`` alike: the message is formatted with its
arguments first, then the token's value and any ``Bearer ...`` text are replaced, in the message, the
traceback and the stack.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

__all__ = ["DEBUG_LOGGERS", "DebugLog", "RedactingFilter", "redact", "setup_debug_log"]

MASK = "****"
DEBUG_LOGGERS = ("folio", "httpx", "httpcore")
_BEARER = re.compile(r"(?i)\b(bearer)(\s+|%20|\+)[^\s'\"\\,;)\]}>]+")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with each secret and any bearer credential replaced by ``****``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, MASK)
    return _BEARER.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", text)


class RedactingFilter(logging.Filter):
    """Replaces secrets in every record that passes (never drops one). Put it on a handler, not a logger: a
    logger's filters do not see the records its children propagate."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        # Longest first, so a secret that contains another is masked whole.
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def add_secret(self, secret: str) -> None:
        if secret and secret not in self.secrets:
            self.secrets = sorted([*self.secrets, secret], key=len, reverse=True)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string must not hide the record, nor leak its arguments
            message = f"{record.msg!s} (unformattable arguments)"
        record.msg = redact(message, self.secrets)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


class DebugLog:
    """An open debug log: where it is, its filter (to add secrets learnt later), and how to stop it."""

    def __init__(self, path: Path, handler: logging.Handler, redactor: RedactingFilter, levels: dict[str, int]) -> None:
        self.path = path
        self.handler = handler
        self.redactor = redactor
        self._levels = levels

    def close(self) -> None:
        logging.getLogger().removeHandler(self.handler)
        self.handler.close()
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)


def setup_debug_log(log_dir: Path, secrets: Iterable[str] = ()) -> DebugLog:
    """Start writing the debug log of this run to a new file under ``log_dir`` (mode 0600)."""
    log_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = log_dir / f"folio-{datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.log"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.close(fd)
    handler = logging.FileHandler(path, encoding="utf-8")
    redactor = RedactingFilter(secrets)
    handler.addFilter(redactor)
    handler.setLevel(logging.DEBUG)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    levels = {name: logging.getLogger(name).level for name in DEBUG_LOGGERS}
    for name in DEBUG_LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG)
    logging.getLogger("folio").debug("debug log started: %s", path)
    return DebugLog(path, handler, redactor, levels)
