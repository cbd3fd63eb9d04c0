"""The demo's organization list, answered by a sandbox in a process of its own: what ``folio --demo``'s first frame
shows on a first start (``folio.services.first_paint.Prefetch.from_demo``).

    python -m folio.sandbox.first_answer BASE_URL TOKEN    # prints {"GET /orgs": "<body>", ...} as JSON, exit 0

It seeds the sandbox as the demo does (the same seed, so the same ids and titles; only the seed's first part, the
people and organizations, which is all the list reads), renders every page of ``GET /v1/orgs`` for the user the
token names with the route's own function (:func:`folio.sandbox.domain.orgs.org_list_page`, following
``next.page``), prints the bodies keyed as the client's cache keys them, and leaves. Run while the TUI imports
Textual, it uses the machine's other core: the demo's own sandbox is built in the TUI's process once that first
frame is drawn, and its answers replace these.

It imports the standard library and the few sandbox modules that render the list, never Starlette, httpx,
pydantic or the models: importing those took most of the time the TUI waited for this answer. Nothing is printed
(and the exit status is 1) when the token names no user (the sandbox would answer 401): the TUI then waits for its
own sandbox. ``BASE_URL`` is the demo's address; the bodies' URLs are the sandbox's own, as the demo's are.
"""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["answers", "main"]

ORGANIZATIONS_KEY = "GET /orgs"
"""The client's cache key of the list's first page (``folio.services.first_paint.ORGANIZATIONS_KEY``)."""
MOST_PAGES = 50
SEED = 7
"""The demo's seed (``create_app()``'s default)."""


def _encode(body: Any) -> str:
    # As the sandbox's responses encode it (Starlette's JSONResponse).
    return json.dumps(body, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))


def answers(base_url: str, token: str) -> dict[str, str] | None:
    """Every page of ``GET /v1/orgs`` of a newly seeded demo sandbox, by cache key; None if the token names no
    user (a 401) or the pages do not end."""
    from folio.sandbox.domain.orgs import org_list_page
    from folio.sandbox.paging import DEFAULT_LIMIT, cursor_offset
    from folio.sandbox.seed import people
    from folio.sandbox.state import SandboxState

    # Only the first part of the seed: the users, the organizations and their members, all that the list reads.
    # The parts draw their ids in order from the seed's generator, so these are the ids the whole seed makes.
    state = SandboxState(seed=SEED)
    people.seed(state)
    # Who the token is, by the rule of the app's auth middleware (``folio.sandbox.app.AuthMiddleware``).
    bearer = token.strip()
    user = state.user_for_token(bearer) if bearer else None
    if user is None:
        return None
    found: dict[str, str] = {}
    key, offset = ORGANIZATIONS_KEY, 0
    for _ in range(MOST_PAGES):
        body = org_list_page(state, user, offset, DEFAULT_LIMIT)
        found[key] = _encode(body)
        following = body.get("next")
        page = following.get("page") if isinstance(following, dict) else None
        if not isinstance(page, str) or not page:
            return found
        from urllib.parse import urlencode  # only for a second page (the demo's list has one)

        key, offset = f"{ORGANIZATIONS_KEY}?{urlencode({'page': page})}", cursor_offset(page)
    return None


def main(argv: list[str] | None = None) -> int:
    base_url, token = (argv if argv is not None else sys.argv[1:])[:2]
    found = answers(base_url, token)
    if found is None:
        return 1
    sys.stdout.write(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
