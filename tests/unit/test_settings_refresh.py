"""The ``[refresh]`` table of config.toml: read, checked, and kept when the file is written again."""

from __future__ import annotations

from pathlib import Path

import pytest

from folio.config.settings import RefreshSettings, Settings, SettingsError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    path.chmod(0o600)
    return path


def test_the_default_refreshes_the_screen_in_view_every_five_minutes(tmp_path: Path) -> None:
    assert Settings.load(write(tmp_path, "")).refresh == RefreshSettings(300.0, False)


def test_the_table_is_read_and_survives_a_save(tmp_path: Path) -> None:
    path = write(tmp_path, "[refresh]\ninterval = 60\nbackground = true\n")
    settings = Settings.load(path)
    assert settings.refresh == RefreshSettings(60.0, True)
    settings.ensure_profile("work")
    settings.save()
    assert Settings.load(path).refresh == RefreshSettings(60.0, True)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("refresh = 5\n", "must be a table"),
        ("[refresh]\ninterval = 5\n", "at least 30 seconds"),
        ("[refresh]\ninterval = 'often'\n", "must be seconds"),
        ("[refresh]\nbackground = 'yes'\n", "true or false"),
    ],
)
def test_bad_values_are_said_in_words(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        Settings.load(write(tmp_path, text))
