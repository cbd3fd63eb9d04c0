"""The demo content the content seed builds: collections and spaces with their page trees in markdown."""

from __future__ import annotations

COLLECTIONS = [
    # (key, title, description, parent key)
    ("product", "Product", "Everything customers read", None),
    ("guides", "Guides", "Task-oriented guides", "product"),
    ("reference", "Reference", "API and SDK reference", "product"),
    ("engineering", "Engineering", "Internal engineering docs", None),
    ("runbooks", "Runbooks", "On-call procedures", "engineering"),
    ("company", "Company", "Handbook and policies", None),
]

# (title, emoji, collection key or None, visibility, language, [(page title, markdown, [children])])
SPACES: list[tuple[str, str, str | None, str, str, list[tuple[str, str, list]]]] = [
    (
        "Getting Started",
        "🚀",
        "guides",
        "public",
        "en",
        [
            (
                "Welcome",
                "# Welcome to Northwind\n\nNorthwind lets robotics teams ship fleet updates safely.\n\n"
                "## What you will learn\n\n- How to install the CLI\n- How to register a robot\n"
                "- How to roll out an update\n",
                [],
            ),
            (
                "Installation",
                "# Installation\n\nInstall the CLI with pip:\n\n```bash\npip install northwind\n```\n\n"
                "Then check the version:\n\n```bash\nnw --version\n```\n",
                [
                    (
                        "Linux",
                        "# Linux\n\nUse the distribution package where you can.\n\n```bash\nsudo apt install "
                        "northwind\n```\n",
                        [],
                    ),
                    (
                        "macOS",
                        "# macOS\n\nInstall with Homebrew:\n\n```bash\nbrew install northwind\n```\n",
                        [],
                    ),
                ],
            ),
            (
                "Your first robot",
                "# Your first robot\n\n1. Power the robot on.\n2. Run `nw register`.\n3. Scan "
                "the QR code.\n\n> The robot must be on the same network as your laptop.\n",
                [],
            ),
            (
                "Troubleshooting",
                "# Troubleshooting\n\n## The robot is not found\n\nCheck the network and "
                "retry `nw register --scan`.\n\n## Registration times out\n\n"
                "Increase the timeout with `--wait 60`.\n",
                [],
            ),
        ],
    ),
    (
        "User Guide",
        "📘",
        "guides",
        "public",
        "en",
        [
            (
                "Fleets",
                "# Fleets\n\nA fleet groups robots that receive the same updates.\n\n| Field | Meaning |\n"
                "| --- | --- |\n| name | Unique name |\n| channel | stable, beta or canary |\n",
                [
                    ("Create a fleet", "# Create a fleet\n\nOpen **Fleets** and press **New fleet**.\n", []),
                    (
                        "Fleet policies",
                        "# Fleet policies\n\nPolicies decide when robots may update.\n\n- Quiet "
                        "hours\n- Battery threshold\n- Maximum parallel updates\n",
                        [],
                    ),
                ],
            ),
            (
                "Rollouts",
                "# Rollouts\n\nRollouts deliver a build to a fleet in waves.\n\n## Waves\n\nEach wave "
                "updates a share of the fleet and waits for health checks.\n",
                [],
            ),
            ("Telemetry", "# Telemetry\n\nRobots report battery, CPU and error counts every minute.\n", []),
        ],
    ),
    (
        "Admin Handbook",
        "🛡️",
        "guides",
        "in-collection",
        "en",
        [
            (
                "Roles and permissions",
                "# Roles and permissions\n\nAdmins manage members; editors edit content.\n",
                [],
            ),
            ("Single sign-on", "# Single sign-on\n\nConfigure SAML under **Settings → Security**.\n", []),
            ("Audit log", "# Audit log\n\nEvery change to a fleet is recorded for 400 days.\n", []),
        ],
    ),
    (
        "REST API Reference",
        "🔌",
        "reference",
        "public",
        "en",
        [
            (
                "Authentication",
                "# Authentication\n\nSend a bearer token in the `Authorization` header.\n\n"
                "```http\nGET /v2/robots HTTP/1.1\nAuthorization: Bearer <token>\n```\n",
                [],
            ),
            (
                "Robots",
                "# Robots\n\n## List robots\n\n`GET /v2/robots` returns a paged list.\n\n## Get a robot\n\n"
                "`GET /v2/robots/{id}`\n",
                [],
            ),
            ("Rollouts API", "# Rollouts API\n\n`POST /v2/rollouts` starts a rollout.\n", []),
            ("Errors", '# Errors\n\nErrors use the body `{"error": {"code", "message"}}`.\n', []),
        ],
    ),
    (
        "SDK Reference",
        "🧰",
        "reference",
        "unlisted",
        "en",
        [
            (
                "Python SDK",
                "# Python SDK\n\n```python\nfrom northwind import Client\nclient = Client()\n```\n",
                [],
            ),
            (
                "TypeScript SDK",
                "# TypeScript SDK\n\n```ts\nimport { Client } from '@northwind/sdk'\n```\n",
                [],
            ),
        ],
    ),
    (
        "Release Notes",
        "📣",
        "product",
        "public",
        "en",
        [
            ("2026-11", "# November 2026\n\n- Faster rollouts\n- New telemetry dashboard\n", []),
            ("2026-10", "# October 2026\n\n- Fleet policies\n- Bug fixes\n", []),
            ("2026-09", "# September 2026\n\n- First public release\n", []),
        ],
    ),
    (
        "Platform Runbooks",
        "🧯",
        "runbooks",
        "private",
        "en",
        [
            ("Paging policy", "# Paging policy\n\nThe primary on-call answers within 5 minutes.\n", []),
            (
                "Database failover",
                "# Database failover\n\n1. Confirm the primary is down.\n2. Promote the "
                "replica.\n3. Update the DNS record.\n",
                [],
            ),
            ("Incident review", "# Incident review\n\nWrite the review within two working days.\n", []),
        ],
    ),
    (
        "Architecture Decisions",
        "🏛️",
        "engineering",
        "private",
        "en",
        [
            ("ADR-001 Event bus", "# ADR-001: Event bus\n\nWe use NATS for telemetry fan-out.\n", []),
            ("ADR-002 Storage", "# ADR-002: Storage\n\nTelemetry goes to a columnar store.\n", []),
        ],
    ),
    (
        "Onboarding",
        "👋",
        "company",
        "private",
        "en",
        [
            (
                "First week",
                "# First week\n\n- Meet your buddy\n- Set up your laptop\n- Ship a docs fix\n",
                [],
            ),
            ("Tools", "# Tools\n\nWe use GitBook for docs and Folio to review them from the terminal.\n", []),
        ],
    ),
    (
        "Brand Guidelines",
        "🎨",
        "company",
        "unlisted",
        "en",
        [
            ("Logo", "# Logo\n\nKeep clear space equal to the height of the N.\n", []),
            ("Voice", "# Voice\n\nPlain words, short sentences, no jargon.\n", []),
        ],
    ),
    (
        "Centre d'aide",
        "🇫🇷",
        None,
        "public",
        "fr",
        [
            ("Bienvenue", "# Bienvenue\n\nNorthwind aide les équipes robotiques.\n", []),
            ("Installation", "# Installation\n\n```bash\npip install northwind\n```\n", []),
        ],
    ),
    (
        "Scratchpad",
        "📝",
        None,
        "private",
        "en",
        [
            ("Notes", "# Notes\n\nA place for drafts.\n", []),
        ],
    ),
]
