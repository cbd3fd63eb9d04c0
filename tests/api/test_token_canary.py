"""The token never shows: not in logs (ours, httpx's, httpcore's), errors, reprs, tracebacks with their locals,
or anything printed, whatever fails."""

from __future__ import annotations

import logging
import traceback

import pytest

from folio.api import GitBookClient, RetryPolicy, Token, errors
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from tests.conftest import SANDBOX_URL

CANARY = "gb_api_CANARY_d41d8cd98f00b204e9800998ecf8427e"


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.mark.parametrize(
    "faults",
    [
        Faults(),
        Faults(error_rate=1.0),
        Faults(drop_rate=1.0),
        Faults(burst_429=5, retry_after=1),
        Faults(malformed_rate=1.0),
        Faults(strip_field="id"),
    ],
    ids=["ok", "5xx", "dropped", "429", "malformed", "missing-field"],
)
async def test_canary_never_leaks(
    state: SandboxState, faults: Faults, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    state.tokens = {CANARY: state.default_user}
    caplog.set_level(logging.DEBUG)
    client = GitBookClient(
        token=Token(CANARY),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    texts = [repr(client), str(client.token), f"{client.token}", repr(client._http.headers)]
    try:
        await client.organizations.get(state.demo_org)
        await client.request_json("GET", "/no/such/route")
    except errors.ApiError as exc:
        texts += [str(exc), repr(exc), exc.describe()]
        texts += traceback.TracebackException.from_exception(exc, capture_locals=True).format()
    finally:
        await client.aclose()
    out, err = capsys.readouterr()
    texts += [out, err, caplog.text]
    texts += [repr(r.__dict__) for r in caplog.records]
    leaked = [t for t in texts if CANARY in t]
    assert leaked == []


def test_token_type_redacts_itself() -> None:
    token = Token(CANARY)
    assert CANARY not in repr(token) + str(token) + f"{token!r} {token}" + f"{token}"
    assert token.reveal() == CANARY
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(token)
