"""Seed: translations of the demo organization's spaces.

Spaces come from the spaces area (``state.spaces``); with none seeded there is nothing to translate and this
part adds nothing. With spaces: the first is translated into French (completed, three runs, with
instructions), the second (or the first) into German (running) and the first into Japanese (pending).
``scale`` adds that many completed translations over the spaces and languages, in turn.
"""

from __future__ import annotations

from datetime import timedelta

from folio.sandbox.domain.translations import LANGUAGES, new_translation, settle, start_run
from folio.sandbox.state import SandboxState

INSTRUCTIONS = {
    "object": "document",
    "data": {"schemaVersion": 1},
    "nodes": [
        {
            "object": "block",
            "type": "paragraph",
            "nodes": [
                {
                    "object": "text",
                    "leaves": [
                        {
                            "object": "leaf",
                            "text": "Keep product names and code in English. Use the formal 'vous'.",
                            "marks": [],
                        }
                    ],
                }
            ],
        },
    ],
}


def seed(state: SandboxState, *, scale: int = 0) -> None:
    org = state.demo_org
    spaces = (
        [s for s in state.spaces.values() if s.get("organization") == org and not s.get("deletedAt")] if org else []
    )
    if not spaces:
        return
    now = state.clock.now()

    def ago(**delta: float) -> str:
        return state.clock.iso(now - timedelta(**delta))

    def language_of(space_index: int) -> str:
        lang = spaces[space_index % len(spaces)].get("language") or "en"
        return lang if lang in LANGUAGES else "en"

    first = spaces[0]["id"]
    second_index = 1 if len(spaces) > 1 else 0
    fr = new_translation(
        state,
        org,
        space=first,
        source_language=language_of(0),
        language="fr" if language_of(0) != "fr" else "en",
        instructions=INSTRUCTIONS,
        at=ago(days=40),
    )
    for days in (40, 12, 2):
        start_run(state, fr, ago(days=days))
        settle(state, fr, ago(days=days, minutes=-5))
    de = new_translation(
        state,
        org,
        space=spaces[second_index]["id"],
        source_language=language_of(second_index),
        language="de" if language_of(second_index) != "de" else "en",
        at=ago(days=9),
    )
    settle(state, de, ago(days=9, minutes=-4))
    start_run(state, de, ago(minutes=3))  # a re-run under way: completes on its next read
    new_translation(
        state,
        org,
        space=first,
        source_language=language_of(0),
        language="ja" if language_of(0) != "ja" else "en",
        at=ago(minutes=1),
    )

    for n in range(scale):
        source_language = language_of(n)
        language = LANGUAGES[n % len(LANGUAGES)]
        if language == source_language:
            language = LANGUAGES[(n + 1) % len(LANGUAGES)]
        at = ago(hours=n + 1)
        rec = new_translation(
            state,
            org,
            space=spaces[n % len(spaces)]["id"],
            source_language=source_language,
            language=language,
            at=at,
        )
        settle(state, rec, at)
