"""Seed: users, organizations, members, teams, SAML providers, invite links and agent instructions.

SAML providers, invite links, agent instructions and the teams of ``scale`` take their ids from a generator of
their own (seeded from the state's seed), so the ids every later seed part draws from ``state.rng`` stay what
they were before these were added.
"""

from __future__ import annotations

import random
from datetime import timedelta

from folio.sandbox.state import SandboxState

_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

PEOPLE = [
    ("Ada Okafor", "ada@northwind.dev", "admin"),
    ("Bruno Lindqvist", "bruno@northwind.dev", "admin"),
    ("Chen Wei", "chen@northwind.dev", "create"),
    ("Dana Moreau", "dana@northwind.dev", "review"),
    ("Emeka Nwosu", "emeka@northwind.dev", "edit"),
    ("Farah Haddad", "farah@northwind.dev", "edit"),
    ("Gustavo Ribeiro", "gustavo@northwind.dev", "comment"),
    ("Hana Sato", "hana@northwind.dev", "review"),
    ("Ivan Petrov", "ivan@northwind.dev", "read"),
    ("Julia Kowalska", "julia@northwind.dev", "edit"),
    ("Kofi Mensah", "kofi@contractor.io", None),
    ("Lena Vogel", "lena@northwind.dev", "create"),
]


def make_user(state: SandboxState, name: str, email: str) -> str:
    uid = state.new_id(28)
    state.users[uid] = {
        "object": "user",
        "id": uid,
        "displayName": name,
        "email": email,
        "photoURL": f"https://avatars.example.com/{email.split('@')[0]}.png",
        "urls": {"location": f"{state.api_base}/users/{uid}"},
    }
    return uid


def make_org(state: SandboxState, title: str, *, hostname: str, created_days_ago: int) -> str:
    oid = state.new_id()
    now = state.clock.now()
    state.orgs[oid] = {
        "id": oid,
        "title": title,
        "createdAt": state.clock.iso(now - timedelta(days=created_days_ago)),
        "emailDomains": [hostname + ".dev"],
        "hostname": hostname,
        "type": "business",
        "useCase": "internalDocs",
        "defaultRole": "read",
        "sso": False,
        "ai": True,
        "inviteLinks": True,
        "plan": "pro_2024",
        "mergeRules": {"type": "rules", "rules": []},
        "billing": {
            "interval": "yearly",
            "hasPaymentFailed": False,
            "isScheduledToCancel": False,
            "minUsers": 1,
            "maxUsers": 100,
            "paidMembers": 11,
        },
        "trial": {"status": "notapplicable", "count": 0},
    }
    return oid


def seed(state: SandboxState, *, scale: int = 0) -> None:
    now = state.clock.now()
    org = make_org(state, "Northwind Labs", hostname="northwind", created_days_ago=900)
    state.demo_org = org
    for i, (name, email, role) in enumerate(PEOPLE):
        uid = make_user(state, name, email)
        if i == 0:
            state.default_user = uid
        state.members[org][uid] = {
            "role": role,
            "disabled": False,
            "joinedAt": state.clock.iso(now - timedelta(days=800 - 37 * i)),
            "lastSeenAt": state.clock.iso(now - timedelta(hours=3 * i + 1)),
            "sso": False,
        }
    ids = list(state.members[org])
    for title, members, days in (
        ("Docs Core", ids[0:4], 700),
        ("API Writers", ids[2:7], 420),
        ("Reviewers", [ids[3], ids[7], ids[1]], 300),
    ):
        tid = state.new_id()
        state.teams[tid] = {
            "id": tid,
            "organization": org,
            "title": title,
            "createdAt": state.clock.iso(now - timedelta(days=days)),
            "members": {uid: ("owner" if n == 0 else "member") for n, uid in enumerate(members)},
        }
    # A second, smaller organization the demo user also belongs to.
    other = make_org(state, "Open Robotics Guild", hostname="orguild", created_days_ago=200)
    state.orgs[other]["type"] = "community"
    state.orgs[other]["communityType"] = "nonProfit"
    state.orgs[other]["plan"] = "free_2024"
    state.members[other][state.default_user] = {
        "role": "edit",
        "disabled": False,
        "joinedAt": state.clock.iso(now - timedelta(days=150)),
        "lastSeenAt": state.clock.iso(now - timedelta(days=2)),
        "sso": False,
    }
    for n in range(scale):
        uid = make_user(state, f"Member {n:05d}", f"member{n:05d}@northwind.dev")
        state.members[org][uid] = {
            "role": ("read", "comment", "edit", "review")[n % 4],
            "disabled": False,
            "joinedAt": state.clock.iso(now - timedelta(days=n % 700, minutes=n)),
            "lastSeenAt": state.clock.iso(now - timedelta(hours=n % 500)),
            "sso": False,
        }
    _seed_extras(state, org, ids, scale=scale)


AGENT_INSTRUCTIONS = (
    "Write for engineers who integrate with Northwind's APIs: lead with the request, then explain it.",
    "Use British English, sentence-case headings and product names exactly as the style guide spells them.",
    "Never invent endpoints or parameters: link to the API reference instead.",
)


def make_certificate(state: SandboxState, rng: random.Random, common_name: str) -> str:
    """A self-signed X.509 certificate in PEM, made now (the identity provider's signing certificate): valid from
    a year before the sandbox's clock until three years after it. Its key is new each time; its dates and
    serial number follow the clock and ``rng``."""
    # Imported here: only a seed that makes a provider pays for it.
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = state.clock.now()
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Okta"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(rng.getrandbits(64) + 1)
        .not_valid_before(now - timedelta(days=365))
        .not_valid_after(now + timedelta(days=3 * 365))
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(serialization.Encoding.PEM).decode("ascii")


def _paragraph(key: str, text: str) -> dict[str, object]:
    leaf = {"object": "leaf", "text": text, "marks": []}
    return {
        "object": "block",
        "type": "paragraph",
        "key": key,
        "nodes": [{"object": "text", "leaves": [leaf]}],
    }


def _seed_extras(state: SandboxState, org: str, ids: list[str], *, scale: int) -> None:
    """SAML providers, invite links and agent instructions of the demo organization; teams for ``scale``."""
    rng = random.Random(f"people-extras-{state.seed}")

    def new_id() -> str:
        return "".join(rng.choice(_ID_ALPHABET) for _ in range(20))

    now = state.clock.now()
    docs_core = next(tid for tid, t in state.teams.items() if t["organization"] == org)
    for label, entity, sso_url, team, role, days in (
        (
            "Okta",
            "http://www.okta.com/exk4northwind",
            "https://northwind.okta.com/app/gitbook/sso/saml",
            docs_core,
            "read",
            240,
        ),
        # Still being set up: no entity id or certificate yet, so it is pending and offers no login.
        ("Entra ID (testing)", "", "https://login.microsoftonline.com/northwind/saml2", None, None, 3),
    ):
        pid = new_id()
        state.saml[pid] = {
            "id": pid,
            "organization": org,
            "label": label,
            "entityID": entity,
            "certificate": make_certificate(state, rng, "northwind.okta.com") if entity else "",
            "ssoURL": sso_url,
            "defaultTeam": team,
            "defaultRole": role,
            "createdAt": state.clock.iso(now - timedelta(days=days)),
        }
    for role, days in (("read", 30), ("edit", 4)):
        iid = new_id()
        state.invites[org][iid] = {"id": iid, "role": role, "createdAt": state.clock.iso(now - timedelta(days=days))}
    state.agent_instructions[org] = {
        "instructions": {
            "object": "document",
            "data": {"schemaVersion": 1},
            "nodes": [_paragraph(f"p{n}", line) for n, line in enumerate(AGENT_INSTRUCTIONS)],
        },
        "updatedAt": state.clock.iso(now - timedelta(days=12)),
        "updatedBy": ids[1],
    }
    generated = list(state.members[org])[len(PEOPLE) :]
    for n in range(scale // 100):
        tid = new_id()
        start = (n * 97) % max(1, len(generated))
        chosen = generated[start : start + 8]
        state.teams[tid] = {
            "id": tid,
            "organization": org,
            "title": f"Team {n:04d}",
            "createdAt": state.clock.iso(now - timedelta(days=n % 600)),
            "members": {uid: ("owner" if i == 0 else "member") for i, uid in enumerate(chosen)},
        }
