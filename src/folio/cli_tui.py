"""Wiring the TUI: the services of the demo or of a profile, the app, and what the app asks of its launcher at
run time (``:profile <name>`` builds another account's services; a theme chosen is remembered in config.toml).

``folio.cli`` calls :func:`run_tui`; the app only sees the :class:`Launcher` through the small protocol of
``folio.tui.app.accounts``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from folio.config.paths import paths
from folio.config.settings import TOKEN_ENV, Settings, SettingsError, ping_enabled, theme_of

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.config.logging import DebugLog
    from folio.services import Services

__all__ = ["API_BASE_URL", "Launcher", "run_tui", "service_url"]

DEMO = "demo"
API_BASE_URL = "https://api.gitbook.com"
"""The service's address when neither the profile nor ``--base-url`` gives one (``folio.api.DEFAULT_BASE_URL``,
named here so a start does not import the HTTP client to know it)."""


def service_url(base_url: str) -> str:
    """``base_url`` as the client keeps it (``GitBookClient.base_url``: no trailing ``/``, no ``/v1``): the
    account index finds an account by it before the client is built."""
    url = base_url.rstrip("/")
    return url[:-3] if url.endswith("/v1") else url


def _demo_client() -> GitBookClient:
    """A client of the in-process sandbox (Starlette and the sandbox are imported here, when first asked)."""
    from folio import cli
    from folio.sandbox import SandboxTransport, create_app

    return cli._client(cli.DEMO_BASE_URL, cli.DEMO_TOKEN, SandboxTransport(create_app()))


class LaunchError(Exception):
    """A profile that cannot be opened; ``str(error)`` says why in words."""


class Launcher:
    """Builds the services of the demo or of a profile (the start, and ``:profile`` later)."""

    def __init__(self, args: argparse.Namespace, log: DebugLog | None, settings: Settings) -> None:
        self.args = args
        self.log = log
        self.settings = settings
        self.current = DEMO if args.demo else (args.profile or settings.default_profile)
        self.organization: str | None = None

    def names(self) -> list[str]:
        """The profiles of config.toml (and the demo)."""
        return [*sorted(self.settings.profiles), DEMO]

    def services_for(self, name: str | None, *, first: bool = False) -> Services:
        """The services of profile ``name`` (``demo``: the in-process sandbox); raises :class:`LaunchError`.

        The HTTP client (and for the demo the sandbox) is built when first used, not here: the first frame is
        painted from the account's cache before httpx, pydantic, the models and Starlette are imported."""
        from folio import cli
        from folio.services import Services

        args = self.args
        connect: Callable[[], GitBookClient]
        if name == DEMO:
            url, secret, connect = cli.DEMO_BASE_URL, cli.DEMO_TOKEN, _demo_client
            where, self.organization = "the demo sandbox", None
        else:
            resolved = self.settings.resolve(
                profile=name,
                token=getattr(args, "token", None) if first else None,
                base_url=args.base_url if first else None,
            )
            cli._check_url(resolved.base_url, insecure=getattr(args, "insecure", False))
            if resolved.token is None:
                if first:
                    raise LaunchError(
                        cli.NO_TOKEN.format(problem=resolved.problem, config=self.settings.path, env=TOKEN_ENV)
                    )
                raise LaunchError(f"The profile {name!r} has no token ({resolved.problem}).")
            if self.log is not None:
                self.log.redactor.add_secret(resolved.token)
            url, secret = resolved.base_url or API_BASE_URL, resolved.token
            connect = partial(cli._client, url, secret)
            where, self.organization = urlsplit(service_url(url)).netloc, resolved.organization
        local = None
        if not args.no_cache:
            from folio.services.local import Local

            folders = paths()
            local = Local(
                cache_dir=folders.cache_dir,
                state_dir=folders.state_dir,
                base_url=service_url(url),
                secret=secret.strip(),
                # the demo's sandbox is new at each start: an earlier run's answers are a first frame, not its data
                forget_answers=name == DEMO,
            )
            local.open_known()
        services = Services(where=where, local=local, connect=connect)
        if args.offline and first:
            if local is None or local.account is None:
                raise LaunchError("--offline needs what an earlier online run of this account kept, and there is none.")
            services.client.set_offline("asked")
        elif first and name == DEMO:
            # a first start (nothing cached): the list is answered while Textual is imported
            services.prefetch_organizations(url, secret, demo=True)
        elif first and cli.transport_factory(url) is None:  # (not through a test's transport: the network's only)
            services.prefetch_organizations(service_url(url), secret.strip())
        try:
            services.ping = ping_enabled(self.settings)
            if "review" in self.settings.extra:  # ([review] approve_requires; none without the table)
                from folio.services.review.sweep import approve_requires

                services.approve_requires = approve_requires(self.settings)
        except SettingsError as error:
            raise LaunchError(str(error)) from None
        if name is not None and not first:
            self.current = name
        return services

    def remember_theme(self, theme: str) -> str | None:
        """Keep the theme in config.toml; the problem in words when it could not be written."""
        if self.settings.extra.get("theme") == theme:
            return None
        self.settings.extra["theme"] = theme
        try:
            self.settings.save()
        except OSError as exc:
            return f"The theme is used now but could not be kept in {self.settings.path}: {exc.strerror or exc}"
        return None


def _inbox_watch(settings: Settings) -> float | None:
    """The seconds between the TUI's looks at the inbox (``[inbox] interval``), None with ``watch = false``. A bad
    ``[inbox]`` does not stop the start: the default interval is used, and ``:inbox`` says what is wrong."""
    if "inbox" not in settings.extra:  # (the usual case: the module is not even imported)
        return 60.0
    from folio.config.inbox import DEFAULT_INTERVAL, inbox_settings

    try:
        read = inbox_settings(settings)
    except SettingsError:
        return DEFAULT_INTERVAL
    return read.interval if read.watch else None


def run_tui(args: argparse.Namespace, log: DebugLog | None) -> int:
    from folio import cli

    try:
        settings = Settings.load()
    except SettingsError as exc:
        if not args.demo:
            raise
        print(f"folio: warning: {exc} (ignored for the demo)", file=sys.stderr)  # the demo needs no config
        settings = Settings(path=paths().config_file)
    launcher = Launcher(args, log, settings)
    try:
        theme = theme_of(settings)
        services = launcher.services_for(DEMO if args.demo else args.profile, first=True)
    except LaunchError as error:
        text = str(error)
        print(text if text.startswith("folio:") else f"folio: {text}", file=sys.stderr)
        return cli.EXIT_USAGE
    except SettingsError as error:
        return cli._fail(str(error), cli.EXIT_USAGE)

    from folio.tui.app import FolioApp

    organization = launcher.organization
    app = FolioApp(
        services,
        keymap=settings.keymap,
        organization=organization,
        refresh=settings.refresh,
        restore=organization is None,
        accounts=launcher,
        theme_name=theme,
        link=getattr(args, "link", None),  # folio open URL (folio.cli_open)
        inbox_watch=_inbox_watch(settings),
    )

    async def run() -> None:
        try:
            await app.run_async()
        finally:
            await app.services.aclose()
            if app.services.local is not None:
                app.services.local.close()

    asyncio.run(run())
    return app.return_code or cli.EXIT_OK
