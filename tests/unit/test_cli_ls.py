"""``folio ls`` against the in-process sandbox: each list's JSON, tab-separated lines and table checked against the
sandbox's state, the change request filters (``--awaiting-me`` drops one once it is reviewed, ``--status``,
``--mine``, a space's), the local cache read first and ``--fresh``, the progress line, and the exit codes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from folio import cli, cli_ls
from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.domain.reviews import add_review
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
def sandbox(app: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every client the command line builds talks to the test's sandbox, with the test's token."""
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    return app


def ls(*argv: str) -> int:
    return cli.main(["ls", *argv, "--base-url", SANDBOX_URL])


def listed(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    """The JSON ``folio ls ARGV --json`` printed (it must exit 0 and say nothing on stderr: not a terminal)."""
    code = ls(*argv, "--json")
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    items = json.loads(out)
    assert isinstance(items, list)
    return items


def lines(capsys: pytest.CaptureFixture[str], *argv: str) -> list[list[str]]:
    """The tab-separated fields ``folio ls ARGV`` printed (tsv is the default when stdout is not a terminal)."""
    code = ls(*argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return [line.split("\t") for line in out.splitlines()]


def org_spaces(state: SandboxState, org: str) -> list[dict[str, Any]]:
    return [s for s in state.spaces.values() if s["organization"] == org and not s.get("deletedAt")]


def org_crs(state: SandboxState, org: str, statuses: tuple[str, ...] = ("open",)) -> list[dict[str, Any]]:
    spaces = {s["id"] for s in org_spaces(state, org)}
    return [c for c in state.change_requests.values() if c["space"] in spaces and c["status"] in statuses]


# -- each list, against the sandbox ----------------------------------------------------------------------------


def test_orgs_are_every_organization_of_the_user(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    mine = {org for org, members in state.members.items() if state.default_user in members}
    items = listed(capsys, "orgs")
    assert {o["id"] for o in items} == mine and len(items) == len(mine)
    assert {o["title"] for o in items} == {state.orgs[o]["title"] for o in mine}
    assert all(o["object"] == "organization" for o in items)  # the service's shape, camelCase keys
    assert lines(capsys, "orgs")[0][0] in mine


def test_spaces_json_and_tsv_are_the_organization_spaces(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    expected = {s["id"]: s for s in org_spaces(state, state.demo_org)}
    items = listed(capsys, "spaces", "--org", state.demo_org)
    assert [s["id"] for s in items] and {s["id"] for s in items} == set(expected)
    for item in items:
        assert item["title"] == expected[item["id"]]["title"]
        assert item["visibility"] == expected[item["id"]]["visibility"]
        assert "deletedAt" not in item and "createdAt" in item  # exclude_none: absent fields are left out
    rows = lines(capsys, "spaces", state.demo_org, "--format", "tsv")
    assert [r[0] for r in rows] == [s["id"] for s in items]  # the same order as the JSON
    assert all(len(r) == len(cli_ls.KINDS["spaces"].columns) for r in rows)
    by_id = {r[0]: r for r in rows}
    for space in expected.values():
        row = by_id[space["id"]]
        assert row[1:4] == [space["title"], space["visibility"], space.get("parent") or ""]
        assert row[5].endswith("Z") and row[5][:10] == space["updatedAt"][:10]
        assert row[6].startswith("https://") and space["id"] in row[6]


def test_an_organization_is_named_by_its_title_case_aside(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    title = state.orgs[state.demo_org]["title"]
    by_id = lines(capsys, "spaces", state.demo_org)
    assert lines(capsys, "spaces", title.upper()) == by_id
    assert lines(capsys, "spaces", "--org", title) == by_id


def test_members_sites_and_specs(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    org = state.demo_org
    members = listed(capsys, "members", "--org", org)
    assert {m["user"]["id"] for m in members} == set(state.members[org])
    rows = {r[0]: r for r in lines(capsys, "members", "--org", org)}
    for uid, record in state.members[org].items():
        user = state.users[uid]
        assert rows[uid][1:4] == [user["displayName"], user.get("email") or "", record.get("role") or "guest"]
    sites = [s for s in state.sites.values() if s["organization"] == org]
    assert sorted(r[0] for r in lines(capsys, "sites", "--org", org)) == sorted(s["id"] for s in sites)
    published = {r[0]: r[2] for r in lines(capsys, "sites", "--org", org)}
    assert published == {s["id"]: "yes" if s["published"] else "no" for s in sites}
    specs = listed(capsys, "specs", "--org", org)
    assert {s["slug"] for s in specs} == set(state.openapi_specs[org])
    assert {r[1]: r[2] for r in lines(capsys, "specs", "--org", org)} == {
        slug: spec["processingState"] for slug, spec in state.openapi_specs[org].items()
    }


# -- change requests ---------------------------------------------------------------------------------------------


def test_crs_default_to_the_open_ones_of_the_organization(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    items = listed(capsys, "crs", "--org", state.demo_org)
    assert {c["id"] for c in items} == {c["id"] for c in org_crs(state, state.demo_org)}
    assert all(c["status"] == "open" for c in items)
    updated = [c["updatedAt"] for c in items]
    assert updated == sorted(updated, reverse=True)  # most recently updated first


@pytest.mark.parametrize("status", ["draft", "merged", "archived"])
def test_crs_of_a_status(sandbox: Any, state: SandboxState, capsys: Any, status: str) -> None:
    expected = {c["id"] for c in org_crs(state, state.demo_org, (status,))}
    assert expected, f"the seed has no {status} change request"
    assert {r[0] for r in lines(capsys, "crs", "--org", state.demo_org, "--status", status)} == expected


def test_crs_of_every_status(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    every = ("draft", "open", "archived", "merged")
    rows = lines(capsys, "crs", "--org", state.demo_org, "--status", "all")
    assert {r[0] for r in rows} == {c["id"] for c in org_crs(state, state.demo_org, every)}
    assert {r[3] for r in rows} == set(every)


def test_awaiting_me_are_those_asked_of_me_and_not_yet_reviewed(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    me = state.default_user
    asked = [c for c in org_crs(state, state.demo_org) if me in c.get("requestedReviewers", [])]
    assert len(asked) >= 2
    rows = lines(capsys, "crs", "--awaiting-me", "--org", state.demo_org)
    assert {r[0] for r in rows} == {c["id"] for c in asked}
    reviewed = asked[0]
    add_review(state, reviewed, me, "approved", None)  # the review asked of me, done
    again = lines(capsys, "crs", "--awaiting-me", "--org", state.demo_org, "--fresh")
    assert {r[0] for r in again} == {c["id"] for c in asked[1:]}


def test_mine_are_those_i_created(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    mine = {c["id"] for c in org_crs(state, state.demo_org) if c["createdBy"] == state.default_user}
    assert mine
    assert {r[0] for r in lines(capsys, "crs", "--mine", "--org", state.demo_org)} == mine


def test_crs_of_one_space_named_by_title(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    crs = org_crs(state, state.demo_org, ("draft", "open", "archived", "merged"))
    space_id = max({c["space"] for c in crs}, key=lambda s: sum(c["space"] == s for c in crs))
    title = state.spaces[space_id]["title"]
    rows = lines(capsys, "crs", title, "--status", "all")  # the organization found among the user's
    assert {r[0] for r in rows} == {c["id"] for c in crs if c["space"] == space_id}
    assert {r[1] for r in rows} == {space_id}
    assert lines(capsys, "crs", space_id, "--org", state.demo_org, "--status", "all") == rows


# -- the cache, and --fresh ----------------------------------------------------------------------------------------


def test_the_cache_answers_first_and_fresh_asks_the_service(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    space = org_spaces(state, state.demo_org)[0]
    old = space["title"]
    first = {r[0]: r[1] for r in lines(capsys, "spaces", "--org", state.demo_org)}
    assert first[space["id"]] == old
    space["title"] = "Renamed on the service"
    state.hits.clear()
    cached = {r[0]: r[1] for r in lines(capsys, "spaces", "--org", state.demo_org)}
    assert cached[space["id"]] == old  # what the first run kept
    assert not any(path.startswith("/orgs") for _, path in state.hits), state.hits  # the service was not asked
    fresh = {r[0]: r[1] for r in lines(capsys, "spaces", "--org", state.demo_org, "--fresh")}
    assert fresh[space["id"]] == "Renamed on the service"
    again = {r[0]: r[1] for r in lines(capsys, "spaces", "--org", state.demo_org)}
    assert again[space["id"]] == "Renamed on the service"  # --fresh kept what it read


def test_what_the_screens_cached_answers_ls_offline(
    sandbox: Any, state: SandboxState, capsys: Any, isolated_home: Any
) -> None:
    """``ls`` asks what the inbox and the organization screen ask (the same queries): what they kept in the
    account's cache answers it, even offline; a list no screen read is not there."""
    from folio.services import Services
    from folio.services.browse import InboxFilter
    from folio.services.local import Local
    from folio.tui.widgets.change_request_inbox import PAGE_LIMIT as INBOX_LIMIT

    async def the_inbox_reads() -> None:
        local = Local(cache_dir=isolated_home / "cache", state_dir=isolated_home / "state", base_url=SANDBOX_URL,
                      secret=TOKEN)  # fmt: skip
        services = Services(where="sandbox", local=local, connect=lambda: cli._client(SANDBOX_URL, TOKEN))
        await services.me()
        await services.browse.organizations()  # (the first screen)
        async for _ in services.browse.change_request_pages(state.demo_org, InboxFilter(), limit=INBOX_LIMIT):
            pass
        await services.aclose()
        local.close()

    asyncio.run(the_inbox_reads())
    assert state.hits  # (the screens' reads went to the sandbox)

    offline = ["--offline", "ls", "--base-url", SANDBOX_URL]
    assert cli.main([*offline[:2], "crs", "--org", state.demo_org, *offline[2:]]) == 0
    assert {r.split("\t")[0] for r in capsys.readouterr().out.splitlines()} == {
        c["id"] for c in org_crs(state, state.demo_org)
    }
    assert cli.main([*offline[:2], "sites", "--org", state.demo_org, *offline[2:]]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "could not list the sites" in err


def test_no_cache_reads_the_service_each_time(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    space = org_spaces(state, state.demo_org)[0]
    argv = ["--no-cache", "ls", "spaces", "--org", state.demo_org, "--base-url", SANDBOX_URL]
    assert cli.main(argv) == 0
    space["title"] = "Renamed"
    capsys.readouterr()
    assert cli.main(argv) == 0
    assert f"{space['id']}\tRenamed\t" in capsys.readouterr().out


# -- output for people --------------------------------------------------------------------------------------------


def test_the_table_names_spaces_by_title_and_fits_the_width(
    sandbox: Any, state: SandboxState, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    crs = sorted(org_crs(state, state.demo_org), key=lambda c: c["updatedAt"], reverse=True)
    monkeypatch.setattr(cli_ls, "_width", lambda: 200)
    assert ls("crs", "--org", state.demo_org, "--format", "table") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["ID", "SPACE", "#", "STATUS", "SUBJECT", "AUTHOR", "UPDATED"]
    assert len(out) == 1 + len(crs)
    for line, cr in zip(out[1:], crs, strict=True):
        assert line.startswith(cr["id"] + "  " + state.spaces[cr["space"]]["title"] + "  ")
        assert cr["subject"] in line and "ago" in line
    assert "https://" not in "\n".join(out)  # the table leaves the URLs to --format tsv and --json
    monkeypatch.setattr(cli_ls, "_width", lambda: 80)
    assert ls("crs", "--org", state.demo_org, "--format", "table") == 0
    narrow = capsys.readouterr().out.splitlines()
    assert len(narrow) == len(out) and all(len(line) <= 80 for line in narrow)
    assert all(line.startswith(cr["id"] + "  ") for line, cr in zip(narrow[1:], crs, strict=True))
    assert "…" in narrow[1]  # (what did not fit was cut, and says so)


def test_server_text_is_made_printable(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    space = org_spaces(state, state.demo_org)[0]
    space["title"] = "Evil\x1b]0;pwned\x07\ttitle\n\x1b[31mred"
    rows = {r[0]: r for r in lines(capsys, "spaces", "--org", state.demo_org)}
    assert rows[space["id"]][1] == "Eviltitlered"
    assert ls("spaces", "--org", state.demo_org, "--format", "table") == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "Eviltitlered" in out


def test_an_empty_list(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    state.openapi_specs[state.demo_org].clear()
    assert listed(capsys, "specs", "--org", state.demo_org) == []
    assert ls("specs", "--org", state.demo_org, "--format", "table") == 0
    assert capsys.readouterr().out == "No OpenAPI specs.\n"


def test_a_progress_line_on_a_terminal_only(
    sandbox: Any, state: SandboxState, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_ls, "PAGE_SIZE", 5)  # the members in pages of 5: three pages
    assert len(state.members[state.demo_org]) > 10
    assert ls("members", "--org", state.demo_org, "--fresh") == 0
    assert capsys.readouterr().err == ""  # not a terminal: quiet
    monkeypatch.setattr(cli_ls, "_is_terminal", lambda stream: True)
    assert ls("members", "--org", state.demo_org, "--fresh", "--format", "tsv") == 0
    out, err = capsys.readouterr()
    assert "Reading members… 5" in err and "Reading members… 10" in err and err.endswith("\r\x1b[K")
    assert len(out.splitlines()) == len(state.members[state.demo_org])
    assert ls("members", "--org", state.demo_org, "--format", "tsv") == 0
    assert "cached just now: --fresh asks the service" in capsys.readouterr().err


def test_the_demo_lists_its_sandbox(capsys: Any) -> None:
    assert cli.main(["--demo", "ls", "crs", "--awaiting-me", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert len(items) == 3 and all(c["status"] == "open" for c in items)  # the seed: three await the demo user


# -- exit codes -----------------------------------------------------------------------------------------------------


def test_several_organizations_need_one_named(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    assert ls("spaces") == 2
    err = capsys.readouterr().err
    assert "give --org: you belong to 2 organizations" in err and state.orgs[state.demo_org]["title"] in err


def test_the_profile_organization_is_the_default(
    sandbox: Any, state: SandboxState, capsys: Any, isolated_home: Any
) -> None:
    config = isolated_home / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[profiles.default]\norganization = "{state.demo_org}"\n')
    assert {r[0] for r in lines(capsys, "spaces")} == {s["id"] for s in org_spaces(state, state.demo_org)}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["spaces", "No Such Org"], "no organization of yours is 'No Such Org'"),
        (["crs", "No Such Space", "--org", "ORG"], "no space of yours is 'No Such Space'"),
        (["members", "--awaiting-me", "--org", "ORG"], "--awaiting-me filters change requests"),
        (["sites", "--status", "open", "--org", "ORG"], "--status filters change requests"),
        (["orgs", "ORG"], "takes no organization"),
        (["spaces", "ORG", "--org", "other"], "give the organization once"),
    ],
)
def test_an_unknown_scope_or_a_misplaced_filter_exits_2(
    sandbox: Any, state: SandboxState, capsys: Any, argv: list[str], words: str
) -> None:
    argv = [state.demo_org if word == "ORG" else word for word in argv]
    assert ls(*argv) == 2
    out, err = capsys.readouterr()
    assert words in err and out == ""


def test_bad_usage_exits_2(capsys: Any) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["ls", "crs", "--status", "closed"])
    assert exited.value.code == 2
    with pytest.raises(SystemExit) as exited:
        cli.main(["ls", "crs", "--json", "--format", "tsv"])
    assert exited.value.code == 2


def test_no_token_exits_2(capsys: Any) -> None:
    assert cli.main(["ls", "orgs"]) == 2
    assert "there is no GitBook token" in capsys.readouterr().err


def test_a_refused_token_exits_1(sandbox: Any, state: SandboxState, capsys: Any) -> None:
    state.tokens = {"another-token": state.default_user}  # the test's token is no longer known
    assert ls("orgs") == 1
    err = capsys.readouterr().err
    assert "folio: could not list the organizations" in err and "401" in err and TOKEN not in err


def test_an_unreachable_service_exits_1(state: SandboxState, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    class Down(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            raise httpx.ConnectError("network is unreachable", request=request)

    monkeypatch.setattr(cli, "transport_factory", lambda base_url: Down())
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    monkeypatch.setattr(cli, "retry_policy", _no_wait_policy)
    assert ls("orgs", "--fresh") == 1
    assert "folio: could not list the organizations" in capsys.readouterr().err


def _no_wait_policy() -> Any:
    from folio.api.retry import RetryPolicy

    async def no_sleep(seconds: float) -> None:
        return None

    return RetryPolicy(sleep=no_sleep)
