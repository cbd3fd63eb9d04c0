"""A damaged state file in the TUI (#24): its drafts and outbox come back, and the first notice says what was
recovered and where the damaged file is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from folio.sandbox import SandboxState
from tests.tui.conftest import settle
from tests.tui.test_local import Machine


def _smash_the_drafts_index(path: Path) -> None:
    """Overwrite one page in the middle of the file (the drafts' index), as a disk does: Folio's check refuses it."""
    conn = sqlite3.connect(path)
    try:
        page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_drafts_1'").fetchone()[0]
    finally:
        conn.close()
    assert page > 1
    data = bytearray(path.read_bytes())
    data[(page - 1) * 4096 : page * 4096] = bytes(range(256)) * 16
    path.write_bytes(bytes(data))


async def test_the_first_notice_says_what_was_recovered_from_a_damaged_state_file(
    state: SandboxState, tmp_path: Path
) -> None:
    machine = Machine(state, tmp_path / "home")
    async with machine.run() as (app, pilot):
        local = app.services.local
        assert local is not None and local.state is not None
        path = local.state.path
        local.state.save_draft("reply:s1/c1", "half a sentence, typed before the disk broke", where="a reply")
        local.state.enqueue("no-such-kind", "/nowhere", {"body": "queued"}, where="a test")
    _smash_the_drafts_index(path)

    async with machine.run() as (app, pilot):
        await settle(pilot)
        [aside] = path.parent.glob(f"{path.name}.corrupt-*")
        notices = [str(n.message) for n in app._notifications]
        assert notices, "nothing was said"
        assert notices[0].startswith(
            f"Recovered 1 draft and 1 outbox item from a damaged state file; the damaged file is at {aside}"
        ), notices
        local = app.services.local
        assert local is not None and local.state is not None
        draft = local.state.draft("reply:s1/c1")
        assert draft is not None and draft.text == "half a sentence, typed before the disk broke"
        assert [item.target for item in local.state.outbox()] == ["/nowhere"]
