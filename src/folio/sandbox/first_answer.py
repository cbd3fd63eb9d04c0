"""The demo's organization list, answered by a sandbox in a process of its own: what ``folio --demo``'s first frame
shows on a first start (``folio.services.first_paint.Prefetch.from_demo``).

    python -m folio.sandbox.first_answer BASE_URL TOKEN    # prints {"GET /orgs": "<body>", ...} as JSON, exit 0

It seeds the sandbox as the demo does (the same seed, so the same ids and titles; only the seed's first part, the
people and organizations, which is all the list reads), asks it
``GET /v1/orgs`` through the in-process transport (every page, ``next.page``), prints the answers keyed as the
client's cache keys them, and leaves. Run while the TUI imports Textual, it uses the machine's other core: the demo's
own sandbox is built in the TUI's process once that first frame is drawn, and its answers replace these. Nothing is
printed (and the exit status is 1) when the sandbox does not answer 200: the TUI then waits for its own sandbox.
"""

from __future__ import annotations

import asyncio
import json
import sys
from urllib.parse import urlencode

__all__ = ["answers", "main"]

ORGANIZATIONS_KEY = "GET /orgs"
"""The client's cache key of the list's first page (``folio.services.first_paint.ORGANIZATIONS_KEY``)."""
MOST_PAGES = 50
SEED = 7
"""The demo's seed (``create_app()``'s default)."""


async def answers(base_url: str, token: str) -> dict[str, str] | None:
    """Every page of ``GET /v1/orgs`` of a newly seeded demo sandbox, by cache key; None if one is not a 200."""
    import httpx

    from folio.sandbox import SandboxState, SandboxTransport, create_app
    from folio.sandbox.seed import PARTS, people

    # Only the first part of the seed: the users, the organizations and their members, all that the list reads.
    # The parts draw their ids in order from the seed's generator, so these are the ids the whole seed makes.
    assert PARTS[0] is people
    state = SandboxState(seed=SEED)
    people.seed(state)
    found: dict[str, str] = {}
    transport = SandboxTransport(create_app(state))
    async with httpx.AsyncClient(transport=transport, base_url=base_url.rstrip("/") + "/v1") as client:
        key, params = ORGANIZATIONS_KEY, None
        for _ in range(MOST_PAGES):
            response = await client.get("/orgs", params=params, headers={"Authorization": f"Bearer {token}"})
            if response.status_code != 200:
                return None
            found[key] = response.text
            following = response.json().get("next")
            page = following.get("page") if isinstance(following, dict) else None
            if not isinstance(page, str) or not page:
                return found
            params = {"page": page}
            key = f"{ORGANIZATIONS_KEY}?{urlencode(params)}"
    return None


def main(argv: list[str] | None = None) -> int:
    base_url, token = (argv if argv is not None else sys.argv[1:])[:2]
    found = asyncio.run(answers(base_url, token))
    if found is None:
        return 1
    sys.stdout.write(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
