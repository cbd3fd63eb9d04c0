"""Who ``@`` offers (the space's commenters first, then the organization's other members, each once), how the
list is filtered as one types (name or email, best matches first), and the markdown a mention is written as."""

from __future__ import annotations

from folio.api import GitBookClient
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.review.mentions import Person, markdown_of, pick


def space_of(state: SandboxState, title: str = "Getting Started") -> str:
    return str(next(s["id"] for s in state.spaces.values() if s["title"] == title))


async def test_commenters_come_first_then_the_members(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    people = await Services(client).mentions.people(sid)
    commenters = {c["postedBy"] for c in state.comments.values() if c["space"] == sid}
    commenters |= {r["postedBy"] for c in state.comments.values() if c["space"] == sid for r in c["replies"]}
    first = people[: len(commenters)]
    assert {p.id for p in first} == commenters and all(p.commenter for p in first)
    members = {uid for uid, m in state.members[state.demo_org].items() if not m["disabled"]}
    rest = people[len(commenters) :]
    assert {p.id for p in rest} == members - commenters and not any(p.commenter for p in rest)
    assert len({p.id for p in people}) == len(people)  # each person once
    ada = next(p for p in people if p.id == state.default_user)
    assert (ada.name, ada.email) == ("Ada Okafor", "ada@northwind.dev")


async def test_the_people_are_asked_once_per_space(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    mentions = Services(client).mentions
    first = await mentions.people(sid)
    hits = len(state.hits)
    assert await mentions.people(sid) == first and len(state.hits) == hits


def test_typing_filters_by_name_or_email_best_first() -> None:
    people = [
        Person("u1", "Dana Moreau", "dana@northwind.dev"),
        Person("u2", "Ada Okafor", "ada@northwind.dev", commenter=True),
        Person("u3", "Hana Sato", "hana@northwind.dev"),
        Person("u4", "Kofi Mensah", "kofi@contractor.io", commenter=True),
    ]
    assert [p.id for p in pick(people, "")] == ["u2", "u4", "u1", "u3"]  # commenters first
    assert [p.id for p in pick(people, "ada")] == ["u2"]
    assert [p.id for p in pick(people, "SATO")] == ["u3"]  # a word of the name, any case
    assert [p.id for p in pick(people, "contractor")] == ["u4"]  # inside the email
    assert [p.id for p in pick(people, "ana")] == ["u1", "u3"]  # inside: Dana, Hana
    assert pick(people, "zz") == []
    assert len(pick(people * 5, "", limit=3)) == 3


def test_a_mention_is_a_link_to_the_user_reference() -> None:
    assert markdown_of(Person("u-ada", "Ada Okafor")) == "[@Ada Okafor](user:u-ada)"
    assert markdown_of(Person("u-x", "[Bot] x\\y")) == "[@\\[Bot\\] x\\\\y](user:u-x)"
    assert markdown_of(Person("u-e", "", "e@x.io")) == "[@e@x.io](user:u-e)"
