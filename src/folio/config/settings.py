"""Settings: ``config.toml`` with named profiles and a keymap, and how the token of a run is found.

    default_profile = "default"
    ping = false                              # optional: opening an organization does not tell it you are here

    [profiles.default]
    base_url = "https://api.gitbook.com"     # optional: the service's address
    token = "gb_api_..."                      # or: token_env = "NAME_OF_A_VARIABLE_HOLDING_IT"
    organization = "org-id"                   # optional: the organization to open first

    [keymap]                                  # binding id -> keys, comma-separated
    "organizations.refresh" = "r,f5"

The token of a run is the first of: the ``--token`` option, ``$GITBOOK_TOKEN``, the profile's ``token``, the
variable its ``token_env`` names. ``GITBOOK_TOKEN`` works with no config file at all. The file is written
atomically with mode 0600 in a folder with mode 0700, since it may hold a token. This module never imports
the API layer (the layers of pyproject's import-linter contract keep config and api apart): it hands the token
on as a plain string, which the caller wraps in ``folio.api.Token`` at once; no repr here ever shows it.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from folio.config.paths import paths

__all__ = [
    "DEFAULT_PROFILE",
    "THEMES",
    "TOKEN_ENV",
    "Profile",
    "RefreshSettings",
    "Resolved",
    "Settings",
    "SettingsError",
    "ping_enabled",
    "theme_of",
]

TOKEN_ENV = "GITBOOK_TOKEN"
DEFAULT_PROFILE = "default"
_PROFILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PROFILE_KEYS = ("base_url", "token", "token_env", "organization")


class SettingsError(Exception):
    """The config file or an option is wrong; the message says what and where, in plain words."""


@dataclass
class Profile:
    """One named way to reach a service: its address, where its token comes from, the organization to open."""

    name: str
    base_url: str | None = None
    token: str | None = field(default=None, repr=False)
    token_env: str | None = None
    organization: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False)
    """Keys this version does not know, kept so saving does not lose them."""

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k in _PROFILE_KEYS if (v := getattr(self, k)) is not None}
        out.update(self.extra)
        return out


@dataclass
class Resolved:
    """What a run uses: the profile, the address (None: the client's default), the token and where it came
    from (in words, for ``folio auth status``), and a problem to report when there is no token."""

    profile: str
    base_url: str | None
    token: str | None = field(repr=False)
    token_source: str
    organization: str | None = None
    problem: str | None = None


class RefreshSettings(NamedTuple):  # (defined before the first frame: see folio.cache.records)
    """``[refresh]``: how often the screen in view reloads by itself (``interval`` seconds, 0 = never; default
    300), and whether the screens under it reload too (``background``, off by default)."""

    interval: float = 300.0
    background: bool = False


@dataclass
class Settings:
    """The contents of ``config.toml``; ``Settings.load()`` reads it (a missing file is empty settings)."""

    path: Path
    default_profile: str = DEFAULT_PROFILE
    profiles: dict[str, Profile] = field(default_factory=dict)
    keymap: dict[str, str] = field(default_factory=dict)
    exists: bool = False
    loose_mode: bool = False
    """The file can be read by other users of this machine (and may hold a token)."""
    refresh: RefreshSettings = field(default_factory=lambda: RefreshSettings())
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    # -- reading ----------------------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        path = path or paths().config_file
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls(path=path)
        except OSError as exc:
            raise SettingsError(f"Could not read {path}: {exc.strerror or exc}") from None
        import tomllib  # (only when there is a file: not before a first frame without one)

        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SettingsError(f"{path} is not valid TOML: {exc}") from None
        settings = cls(path=path, exists=True)
        settings.loose_mode = os.name == "posix" and bool(path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO))
        settings._read(data)
        return settings

    def _read(self, data: dict[str, Any]) -> None:
        where = str(self.path)
        default = data.pop("default_profile", DEFAULT_PROFILE)
        if not isinstance(default, str) or not default:
            raise SettingsError(f"{where}: default_profile must be a profile name")
        self.default_profile = default
        profiles = data.pop("profiles", {})
        if not isinstance(profiles, dict):
            raise SettingsError(f"{where}: [profiles] must be a table of profiles")
        for name, table in profiles.items():
            if not isinstance(table, dict):
                raise SettingsError(f"{where}: [profiles.{name}] must be a table")
            values: dict[str, Any] = {}
            for key in _PROFILE_KEYS:
                value = table.pop(key, None)
                if value is not None and not isinstance(value, str):
                    raise SettingsError(f"{where}: profiles.{name}.{key} must be a string")
                values[key] = value or None
            if values["token_env"] and not _ENV_NAME.match(values["token_env"]):
                raise SettingsError(f"{where}: profiles.{name}.token_env must name an environment variable")
            self.profiles[name] = Profile(name=name, extra=table, **values)
        keymap = data.pop("keymap", {})
        if not isinstance(keymap, dict):
            raise SettingsError(f"{where}: [keymap] must be a table of binding id = keys")
        for binding_id, keys in keymap.items():
            if isinstance(keys, list) and all(isinstance(k, str) for k in keys):
                keys = ",".join(keys)
            if not isinstance(keys, str) or not keys.strip():
                raise SettingsError(f'{where}: keymap.{binding_id} must be keys such as "r,f5"')
            self.keymap[str(binding_id)] = keys.strip()
        refresh = data.pop("refresh", {})
        if not isinstance(refresh, dict):
            raise SettingsError(f"{where}: [refresh] must be a table (interval = 300, background = false)")
        interval = refresh.get("interval", RefreshSettings().interval)
        if isinstance(interval, bool) or not isinstance(interval, int | float) or not 0 <= interval <= 86400:
            raise SettingsError(f"{where}: refresh.interval must be seconds between 0 (never) and 86400")
        background = refresh.get("background", False)
        if not isinstance(background, bool):
            raise SettingsError(f"{where}: refresh.background must be true or false")
        if interval and interval < 30:
            raise SettingsError(f"{where}: refresh.interval must be 0 (never) or at least 30 seconds")
        self.refresh = RefreshSettings(float(interval), background)
        self.extra = data

    # -- profiles ---------------------------------------------------------------------------------

    def profile(self, name: str | None = None) -> Profile | None:
        return self.profiles.get(name or self.default_profile)

    def ensure_profile(self, name: str) -> Profile:
        """The profile called ``name``, created empty if there is none (the first one becomes the default)."""
        if not _PROFILE_NAME.match(name):
            raise SettingsError(
                f"{name!r} is not a usable profile name: use letters, digits, '.', '_' or '-' (at most 64)"
            )
        if name not in self.profiles:
            if not self.profiles:
                self.default_profile = name
            self.profiles[name] = Profile(name=name)
        return self.profiles[name]

    def resolve(
        self,
        *,
        profile: str | None = None,
        token: str | None = None,
        base_url: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> Resolved:
        """The profile, address and token of a run: ``--token``, ``$GITBOOK_TOKEN``, then the profile."""
        env = os.environ if environ is None else environ
        name = profile or self.default_profile
        chosen = self.profiles.get(name)
        if profile and chosen is None and not token and not env.get(TOKEN_ENV, "").strip():
            known = ", ".join(sorted(self.profiles)) or "none yet"
            raise SettingsError(f"There is no profile {profile!r} in {self.path} (profiles: {known}).")
        url = base_url or (chosen.base_url if chosen else None)
        org = chosen.organization if chosen else None
        if token and token.strip():
            return Resolved(name, url, token.strip(), "the --token option", org)
        if env.get(TOKEN_ENV, "").strip():
            return Resolved(name, url, env[TOKEN_ENV].strip(), f"the {TOKEN_ENV} environment variable", org)
        if chosen is not None and chosen.token:
            return Resolved(name, url, chosen.token, f"profile {name!r} in {self.path}", org)
        if chosen is not None and chosen.token_env:
            var = chosen.token_env
            if env.get(var, "").strip():
                return Resolved(name, url, env[var].strip(), f"the {var} environment variable (profile {name!r})", org)
            return Resolved(
                name,
                url,
                None,
                "none",
                org,
                problem=f"profile {name!r} takes its token from {var}, which is not set",
            )
        return Resolved(name, url, None, "none", org, problem="no token is configured")

    # -- writing ----------------------------------------------------------------------------------

    def to_toml(self) -> dict[str, Any]:
        data: dict[str, Any] = {"default_profile": self.default_profile}
        data.update(self.extra)
        data["profiles"] = {name: p.to_toml() for name, p in sorted(self.profiles.items())}
        if self.keymap:
            data["keymap"] = dict(self.keymap)
        if self.refresh != RefreshSettings():
            data["refresh"] = {"interval": self.refresh.interval, "background": self.refresh.background}
        return data

    def save(self) -> None:
        """Write the file atomically: a 0600 temporary file in the (0700) folder, then ``os.replace``."""
        import tomli_w

        text = tomli_w.dumps(self.to_toml())
        folder = self.path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            os.chmod(folder, 0o700)
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".config-", suffix=".tmp")
        try:
            if os.name == "posix":
                os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.exists = True
        self.loose_mode = False


def ping_enabled(settings: Settings) -> bool:
    """Whether opening an organization tells it the user is here (``ping = false`` at the top of config.toml
    turns it off; on by default). Raises :class:`SettingsError` for a value that is not true or false."""
    value = settings.extra.get("ping", True)
    if not isinstance(value, bool):
        raise SettingsError(f"{settings.path}: ping must be true or false")
    return value


THEMES = ("dark", "light", "high-contrast")
"""The themes ``theme = ...`` in config.toml may name (``dark`` by default)."""


def theme_of(settings: Settings) -> str:
    """The theme the config names (``dark`` when it names none). Raises :class:`SettingsError` for another."""
    value = settings.extra.get("theme", THEMES[0])
    if value not in THEMES:
        raise SettingsError(f"{settings.path}: theme must be one of {', '.join(THEMES)}")
    return str(value)
