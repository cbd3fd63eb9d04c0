"""Configuration: folders under FOLIO_HOME, profiles in config.toml, file modes, where tokens come from."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest

from folio.config import Paths, Profile, Settings, SettingsError, paths
from folio.config.logging import RedactingFilter, redact, setup_debug_log

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- paths --------------------------------------------------------------------------------------------------


def test_folio_home_moves_every_folder(isolated_home: Path) -> None:
    p = paths()
    assert p == Paths(
        isolated_home / "config", isolated_home / "cache", isolated_home / "state", isolated_home / "logs"
    )
    assert p.config_file == isolated_home / "config" / "config.toml"


def test_without_folio_home_the_platform_folders_are_used() -> None:
    p = paths(environ={})
    for folder in (p.config_dir, p.cache_dir, p.state_dir, p.log_dir):
        assert "folio" in folder.parts or "folio" in str(folder).lower()
        assert folder.is_absolute()


def test_nothing_is_created_until_written(isolated_home: Path) -> None:
    Settings.load()
    assert not isolated_home.exists()


# -- reading and writing ------------------------------------------------------------------------------------


def test_profiles_round_trip(isolated_home: Path) -> None:
    settings = Settings.load()
    assert not settings.exists and settings.profiles == {}
    work = settings.ensure_profile("work")
    work.base_url = "https://gitbook.example.com"
    work.token = "gb_api_work"
    work.organization = "org123"
    ci = settings.ensure_profile("ci")
    ci.token_env = "CI_GITBOOK_TOKEN"
    settings.keymap["organizations.refresh"] = "r,f5"
    settings.save()

    again = Settings.load()
    assert again.exists
    assert again.default_profile == "work"  # the first profile made becomes the default
    assert again.profiles["work"] == Profile("work", "https://gitbook.example.com", "gb_api_work", None, "org123")
    assert again.profiles["ci"].token_env == "CI_GITBOOK_TOKEN"
    assert again.profiles["ci"].token is None
    assert again.keymap == {"organizations.refresh": "r,f5"}
    raw = tomllib.loads(settings.path.read_text())
    assert raw["default_profile"] == "work"
    assert raw["profiles"]["ci"] == {"token_env": "CI_GITBOOK_TOKEN"}


def test_unknown_keys_survive_a_save(isolated_home: Path) -> None:
    path = paths().config_file
    path.parent.mkdir(parents=True)
    path.write_text('theme = "nord"\n[profiles.default]\ntoken = "t"\nfuture = 3\n')
    settings = Settings.load()
    settings.profiles["default"].organization = "o1"
    settings.save()
    raw = tomllib.loads(path.read_text())
    assert raw["theme"] == "nord"
    assert raw["profiles"]["default"] == {"token": "t", "organization": "o1", "future": 3}


@posix_only
def test_the_file_is_0600_in_a_0700_folder(isolated_home: Path) -> None:
    settings = Settings.load()
    settings.ensure_profile("default").token = "secret-token"
    settings.save()
    assert _mode(settings.path) == 0o600
    assert _mode(settings.path.parent) == 0o700
    assert [p.name for p in settings.path.parent.iterdir()] == ["config.toml"]  # no temporary file left


@posix_only
def test_saving_tightens_a_loose_file(isolated_home: Path) -> None:
    path = paths().config_file
    path.parent.mkdir(parents=True, mode=0o755)
    path.write_text('[profiles.default]\ntoken = "t"\n')
    os.chmod(path, 0o644)
    os.chmod(path.parent, 0o755)
    settings = Settings.load()
    assert settings.loose_mode
    settings.save()
    assert _mode(path) == 0o600
    assert _mode(path.parent) == 0o700
    assert not Settings.load().loose_mode


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[profiles", "not valid TOML"),
        ("profiles = 3", r"\[profiles\] must be a table"),
        ("[profiles.a]\ntoken = 5", "profiles.a.token must be a string"),
        ('[profiles.a]\ntoken_env = "not a name"', "must name an environment variable"),
        ("[keymap]\n'organizations.refresh' = 5", "keymap.organizations.refresh"),
        ("default_profile = 1", "default_profile"),
    ],
)
def test_a_broken_file_is_an_error_in_words(isolated_home: Path, text: str, words: str) -> None:
    path = paths().config_file
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(SettingsError, match=words) as info:
        Settings.load()
    assert str(path) in str(info.value)


def test_keymap_accepts_a_list_of_keys(isolated_home: Path) -> None:
    path = paths().config_file
    path.parent.mkdir(parents=True)
    path.write_text('[keymap]\n"app.quit" = ["q", "ctrl+q"]\n')
    assert Settings.load().keymap == {"app.quit": "q,ctrl+q"}


def test_profile_names_are_checked() -> None:
    with pytest.raises(SettingsError, match="not a usable profile name"):
        Settings.load().ensure_profile("../etc")


# -- the token of a run -------------------------------------------------------------------------------------


def _settings_with(**profile: str) -> Settings:
    settings = Settings.load()
    p = settings.ensure_profile("default")
    for key, value in profile.items():
        setattr(p, key, value)
    return settings


def test_gitbook_token_works_without_any_file() -> None:
    settings = Settings.load()
    assert not settings.exists
    resolved = settings.resolve(environ={"GITBOOK_TOKEN": " env-token \n"})
    assert resolved.token == "env-token"
    assert resolved.token_source == "the GITBOOK_TOKEN environment variable"
    assert resolved.base_url is None and resolved.problem is None


def test_order_flag_then_environment_then_profile() -> None:
    settings = _settings_with(token="file-token", base_url="https://x.example")
    env = {"GITBOOK_TOKEN": "env-token"}
    assert settings.resolve(token="flag-token", environ=env).token == "flag-token"
    assert settings.resolve(token="flag-token", environ=env).token_source == "the --token option"
    assert settings.resolve(environ=env).token == "env-token"
    from_file = settings.resolve(environ={})
    assert from_file.token == "file-token"
    assert "profile 'default'" in from_file.token_source
    assert from_file.base_url == "https://x.example"
    assert settings.resolve(environ={}, base_url="https://y.example").base_url == "https://y.example"


def test_token_env_names_the_variable() -> None:
    settings = _settings_with(token_env="WORK_TOKEN", organization="org9")
    resolved = settings.resolve(environ={"WORK_TOKEN": "from-work-var"})
    assert resolved.token == "from-work-var"
    assert "WORK_TOKEN" in resolved.token_source
    assert resolved.organization == "org9"
    missing = settings.resolve(environ={})
    assert missing.token is None
    assert missing.problem == "profile 'default' takes its token from WORK_TOKEN, which is not set"


def test_no_token_anywhere_says_so() -> None:
    resolved = Settings.load().resolve(environ={})
    assert resolved.token is None
    assert resolved.problem == "no token is configured"


def test_an_unknown_profile_is_an_error_unless_a_token_is_given() -> None:
    settings = _settings_with(token="t")
    with pytest.raises(SettingsError, match=r"no profile 'nope'.*profiles: default"):
        settings.resolve(profile="nope", environ={})
    assert settings.resolve(profile="nope", environ={"GITBOOK_TOKEN": "e"}).token == "e"


def test_reprs_never_show_the_token() -> None:
    settings = _settings_with(token="gb_api_secret_value")
    resolved = settings.resolve(environ={})
    for text in (repr(settings), repr(settings.profiles), repr(resolved), str(resolved)):
        assert "gb_api_secret_value" not in text


# -- the debug log ------------------------------------------------------------------------------------------


def test_redact_masks_secrets_and_bearer_credentials() -> None:
    assert redact("token=abc123 and abc123", ["abc123"]) == "token=**** and ****"
    assert redact("Authorization: Bearer xyz.987-Q") == "Authorization: Bearer ****"
    assert redact("headers={'authorization': 'bearer qq'}") == "headers={'authorization': 'bearer ****'}"


def test_debug_log_masks_the_token_in_messages_arguments_and_tracebacks(isolated_home: Path) -> None:
    import logging

    canary = "gb_api_canary_5e1d"
    log = setup_debug_log(paths().log_dir, [canary])
    try:
        logging.getLogger("folio.api").debug("sending %s with %r", canary, {"Authorization": f"Bearer {canary}"})
        logging.getLogger("httpx").debug("HTTP Request: Authorization: Bearer %s", "other-secret")
        try:
            raise ValueError(f"boom {canary}")
        except ValueError:
            logging.getLogger("folio").exception("failed with %s", canary)
    finally:
        log.close()
    text = log.path.read_text()
    assert canary not in text
    assert "other-secret" not in text
    assert "sending **** with {'Authorization': 'Bearer ****'}" in text
    assert "ValueError: boom ****" in text
    assert log.path.parent == isolated_home / "logs"
    if os.name == "posix":
        assert _mode(log.path) == 0o600


def test_the_filter_never_drops_a_record_even_a_broken_one() -> None:
    import logging

    record = logging.LogRecord("x", logging.INFO, __file__, 1, "value %s %s", ("s3cret",), None)
    assert RedactingFilter(["s3cret"]).filter(record) is True
    assert "s3cret" not in record.getMessage()


# -- [inbox] --------------------------------------------------------------------------------------------------


def test_inbox_settings_default_and_read(isolated_home: Path) -> None:
    from folio.config.inbox import DEFAULT_SECTIONS, InboxSection, inbox_settings

    assert inbox_settings(Settings.load()).sections == DEFAULT_SECTIONS
    path = paths().config_file
    path.parent.mkdir(parents=True)
    path.write_text(
        "[inbox]\ninterval = 120\nwatch = false\n"
        '[[inbox.sections]]\ntitle = "Needs my review"\nfilter = "awaiting-me"\n'
        '[[inbox.sections]]\ntitle = "Mine, merged"\nfilter = "mine  MERGED"\n'
    )
    read = inbox_settings(Settings.load())
    assert (read.interval, read.watch) == (120.0, False)
    assert read.sections == (
        InboxSection("Needs my review", awaiting_me=True),
        InboxSection("Mine, merged", status="merged", mine=True),
    )
    assert [s.words for s in read.sections] == ["awaiting-me", "mine merged"]


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        ("inbox = 3", "[inbox] must be a table"),
        ("[inbox]\ninterval = 5", "inbox.interval must be seconds between 15"),
        ("[inbox]\nwatch = 'yes'", "inbox.watch must be true or false"),
        ("[inbox]\nsections = []", "inbox.sections must be one or more tables"),
        ('[[inbox.sections]]\nfilter = "mine"', "inbox.sections[1].title must be a name"),
        ('[[inbox.sections]]\ntitle = "A"\nfilter = "mine soon"', "inbox.sections[1].filter: 'soon' is not a filter"),
        ('[[inbox.sections]]\ntitle = "A"\nfilter = "open merged"', "two statuses (open and merged)"),
        ('[[inbox.sections]]\ntitle = "A"\nfilters = "mine"', "takes only title and filter"),
    ],
)
def test_a_bad_inbox_table_says_which_key_and_what_it_takes(isolated_home: Path, toml: str, says: str) -> None:
    from folio.config.inbox import inbox_settings

    path = paths().config_file
    path.parent.mkdir(parents=True)
    path.write_text(toml + "\n")
    with pytest.raises(SettingsError) as raised:
        inbox_settings(Settings.load())
    assert says in str(raised.value) and str(path) in str(raised.value)
