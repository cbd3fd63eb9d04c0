"""How failures become words (``folio.tui.errors``): a first paint from the cache that finds nothing is not a
failure (#27), and a dialog gets the service's words without the request's path (#16)."""

from __future__ import annotations

from folio.api import errors
from folio.services.connection import Connection
from folio.tui.errors import error_message


def test_a_cache_miss_of_a_first_paint_says_loading_not_a_failure() -> None:
    miss = errors.NotCached(method="GET", path="/spaces/s1")
    assert "Not in the local cache" in error_message(miss, doing="Could not load the space").plain
    with Connection.cache_only():
        said = error_message(miss, doing="Could not load the space", hint="Press r to try again.").plain
    assert said == "Loading…"


def test_other_failures_of_a_first_paint_are_said() -> None:
    refused = errors.Forbidden("You cannot see this space", method="GET", path="/spaces/s1", status=403)
    with Connection.cache_only():
        assert error_message(refused, doing="Could not load the space").plain.startswith(
            "Could not load the space: You cannot see this space (403)"
        )


def test_brief_words_leave_out_the_request() -> None:
    failed = errors.ServerError("Injected server error", method="POST", path="/spaces/s1/comments", status=503)
    assert "/spaces/s1" in error_message(failed).plain
    assert error_message(failed, doing="Not sent", brief=True).plain == "Not sent: Injected server error (503)"


def test_a_sentence_and_the_request_read_as_one_line() -> None:
    """#14: "Could not reach the service. — GET /orgs" had a full stop in the middle of the line."""
    lost = errors.TransportError(method="GET", path="/orgs")
    said = error_message(lost, doing="Could not load the organizations", hint="Press r to try again.").plain
    assert said == "Could not load the organizations: Could not reach the service — GET /orgs. Press r to try again."
    assert errors.TransportError().describe() == "Could not reach the service."
