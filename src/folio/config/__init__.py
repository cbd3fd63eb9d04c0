"""Configuration: where files live (:mod:`~folio.config.paths`), the profiles and keymap of
``config.toml`` (:mod:`~folio.config.settings`), and the debug log that never shows the token
(:mod:`folio.config.logging`)."""

from folio.config.paths import Paths, paths
from folio.config.settings import DEFAULT_PROFILE, TOKEN_ENV, Profile, Resolved, Settings, SettingsError

__all__ = [
    "DEFAULT_PROFILE",
    "TOKEN_ENV",
    "Paths",
    "Profile",
    "Resolved",
    "Settings",
    "SettingsError",
    "paths",
]
