"""Where Folio keeps its files: config, cache, state and logs, in the platform's usual folders (platformdirs).

One environment variable, ``FOLIO_HOME``, moves all four under one folder (``$FOLIO_HOME/config``, ``/cache``,
``/state``, ``/logs``): the test suite points it at a temporary folder so no test sees a developer's files.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

__all__ = ["APP_NAME", "HOME_ENV", "Paths", "paths"]

APP_NAME = "folio"
HOME_ENV = "FOLIO_HOME"


class Paths(NamedTuple):  # (defined before the first frame: see folio.cache.records)
    """The four folders Folio writes to. Nothing is created until something is written."""

    config_dir: Path
    cache_dir: Path
    state_dir: Path
    log_dir: Path

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"


def paths(environ: dict[str, str] | None = None) -> Paths:
    """The folders for this run: under ``$FOLIO_HOME`` when it is set, else the per-user folders."""
    env = os.environ if environ is None else environ
    home = env.get(HOME_ENV, "").strip()
    if home:
        base = Path(home).expanduser()
        return Paths(base / "config", base / "cache", base / "state", base / "logs")
    import platformdirs

    return Paths(
        Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_state_dir(APP_NAME, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )
