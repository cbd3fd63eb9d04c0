"""Seed data: the comment threads of the demo spaces and change requests (used by
:mod:`folio.sandbox.seed.comments`)."""

from __future__ import annotations

# (target: "space" | "page" | "node", text, author, hours ago, resolved, [(author, text, hours later)],
#  [(emoji, [reactors])]); authors index the commenting members of the organization.
Thread = tuple[str, str, int, float, bool, list[tuple[int, str, float]], list[tuple[str, list[int]]]]

THREADS: list[Thread] = [
    (
        "page",
        "The first paragraph of **{title}** still says the CLI needs Python 3.9; it needs 3.11 now.",
        2,
        70,
        False,
        [(0, "Good catch, I will fix it in the next change request.", 3), (2, "Thanks!", 5)],
        [("👍", [0, 3])],
    ),
    (
        "node",
        "Could this step link to the troubleshooting page?",
        3,
        52,
        True,
        [(1, "Linked it, see the latest revision.", 20)],
        [("🎉", [3])],
    ),
    (
        "space",
        "Should **{space}** move under the Reference collection?",
        0,
        30,
        False,
        [
            (4, "I would keep it here, readers find it from the guides.", 2),
            (1, "Agreed with keeping it.", 6),
            (0, "Fine, leaving it where it is.", 9),
        ],
        [],
    ),
    (
        "page",
        "The screenshot on **{title}** shows the old navigation.",
        5,
        12,
        False,
        [],
        [("👀", [0, 1, 2])],
    ),
    ("node", "Typo: *recieve* → *receive*.", 1, 6, True, [], [("✅", [2])]),
    (
        "page",
        "Is **{title}** still accurate after the November release?",
        4,
        2,
        False,
        [(3, "Mostly. The rollout section needs the new wave sizes.", 1)],
        [],
    ),
]

# The threads of each seeded change request, by subject: each about a page the change request changes (its
# title first), or on the change request as a whole (None) naming the page it is about (how a page the change
# request deletes is discussed). Kinds, reply counts and resolved flags follow the rotation the seed used
# before (CR_THREADS), so every id it draws stays what it was. Authors: 0 Ada, 1 Bruno, 2 Chen, 3 Dana,
# 4 Emeka, 5 Farah, 6 Gustavo, 7 Hana, 8 Julia, 9 Kofi, 10 Lena (the commenting members, in order).
CR_DISCUSSIONS: dict[str, list[tuple[str | None, Thread]]] = {
    "Clarify Linux install steps": [
        (
            "Linux",
            (
                "page",
                "Does **{title}** need `apt update` on a fresh image only, or every time?",
                3,
                260,
                False,
                [(2, "Every time: the package index can be stale on any machine.", 1)],
                [("👍", [0, 3])],
            ),
        ),
    ],
    "Reorganise troubleshooting": [
        (
            "Troubleshooting",
            (
                "node",
                "Readers who are stuck may not look under *Your first robot*. Link **{title}** from the "
                "installation pages too?",
                7,
                60,
                False,
                [(0, "Good idea, I will add the links in this change request.", 2), (7, "Thanks!", 4)],
                [],
            ),
        ),
        (
            None,
            (
                "space",
                "Moving **Troubleshooting** under *Your first robot* changes its address: do old links redirect?",
                6,
                20,
                True,
                [],
                [("👍", [2])],
            ),
        ),
    ],
    "Refresh the welcome page": [
        (
            "Welcome",
            (
                "page",
                "*safely and quickly* reads like marketing; can **{title}** stay plain?",
                3,
                900,
                True,
                [],
                [("👍", [4])],
            ),
        ),
    ],
    "Document the canary channel": [
        (
            "Channels",
            (
                "page",
                "Is the 1% of **canary** a share of the whole fleet or of each fleet?",
                1,
                580,
                False,
                [(5, "Of each fleet: a fleet of 50 robots still gets one canary.", 1)],
                [("❤️", [0, 5])],
            ),
        ),
        (
            "Fleets",
            (
                "node",
                "This row of **{title}** now points to *Channels*: make it a link?",
                7,
                560,
                False,
                [(5, "Done, it links to the new page.", 2), (7, "Great.", 3)],
                [],
            ),
        ),
    ],
    "Explain rollout waves": [
        (
            "Rollouts",
            (
                "node",
                "Where does the 2% in **{title}** come from? Link the fleet SLO if there is a page for it.",
                3,
                100,
                False,
                [(0, "From the fleet SLO; I will link it.", 2), (3, "Thanks, I will approve once it is in.", 3)],
                [],
            ),
        ),
    ],
    "Add pagination to the Robots API": [
        (
            "Robots",
            (
                "page",
                "Typo in **{title}**: the field is `next.page`, not `nextPage`.",
                8,
                340,
                True,
                [],
                [("✅", [5])],
            ),
        ),
        (
            "Robots",
            (
                "page",
                "Should **{title}** say which page size you get when `limit` is left out?",
                3,
                320,
                False,
                [(5, "Yes: 50. Adding it.", 2)],
                [("👍", [0, 3])],
            ),
        ),
    ],
    "Remove the deprecated Rollouts API page": [
        (
            None,
            (
                "space",
                "Removing **Rollouts API**: do other pages still link to it?",
                1,
                110,
                False,
                [(8, "Only the changelog, which keeps its old links on purpose.", 2)],
                [("👀", [1])],
            ),
        ),
    ],
    "December 2026 release notes": [
        (
            "2026-12",
            (
                "node",
                "Is the Windows installer shipping in December, or still in beta?",
                2,
                40,
                False,
                [(10, "It ships on the 3rd.", 2), (2, "Then this line is right.", 3)],
                [],
            ),
        ),
        (
            "2026-12",
            ("page", "Please put the release date in the heading of **{title}**.", 1, 30, True, [], [("👍", [10])]),
        ),
    ],
    "Failover: lower the DNS TTL first": [
        (
            "Database failover",
            (
                "page",
                "Lowering the TTL only helps before the outage: say so at the top of **{title}**?",
                1,
                150,
                True,
                [],
                [("👍", [0])],
            ),
        ),
    ],
    "Weekend paging rotation": [
        (
            "Paging policy",
            (
                "page",
                "15 minutes on weekends in **{title}**: does the secondary know they are on call?",
                7,
                70,
                False,
                [(4, "Yes, the rotation tool pages both.", 1)],
                [("❤️", [4])],
            ),
        ),
        (
            "Incident review",
            (
                "node",
                "Why does **{title}** move first? It is the last step of an incident.",
                0,
                50,
                False,
                [(4, "It is the page people open most; the steps keep their order.", 2), (0, "Fair enough.", 4)],
                [],
            ),
        ),
    ],
}

# Threads for other change requests (generated ones, with ``scale``), on the pages they change, in turn.
CR_THREADS: list[Thread] = [
    (
        "page",
        "This rewrite of **{title}** reads much better.",
        3,
        20,
        False,
        [(2, "Thanks, I also split the long table.", 1)],
        [("❤️", [0, 3])],
    ),
    (
        "node",
        "Does this paragraph of **{title}** still agree with the rest of the space?",
        0,
        10,
        False,
        [(2, "It did not; aligned now.", 2), (0, "Perfect.", 4)],
        [],
    ),
    ("page", "Please ask the API writers to review **{title}** before merging.", 1, 4, True, [], [("👍", [2])]),
]

# The block a thread on a block is about: the first block of its page whose text holds the hint (by the thread's
# first words); a thread without a hint is about the page's first block that is not a heading.
BLOCK_HINTS: dict[str, str] = {
    "Could this step link": "install",
    "This row of": "channel",
    "Where does the 2%": "2%",
    "Is the Windows installer": "Windows",
    "Why does **{title}** move first": "within two working days",
}
