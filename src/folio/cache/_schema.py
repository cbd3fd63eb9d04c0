"""The tables of the two stores, and the statements used more than once.

The response cache starts over when its layout changes (it is disposable); the state's tables are only ever
added to, since they hold the user's work.
"""

__all__ = [
    "RESPONSES_DELETE_PATH",
    "RESPONSES_DELETE_RANGE",
    "RESPONSES_SCHEMA",
    "RESPONSES_UPSERT",
    "RESPONSES_VERSION",
    "STATE_SCHEMA",
    "STATE_VERSION",
    "UPSERT_DRAFT",
]

RESPONSES_VERSION = 1
RESPONSES_SCHEMA = (
    # A different layout means the old rows are useless: the cache is disposable, so it starts over.
    "DROP TRIGGER IF EXISTS responses_added",
    "DROP TRIGGER IF EXISTS responses_removed",
    "DROP TRIGGER IF EXISTS responses_resized",
    "DROP TABLE IF EXISTS responses",
    "DROP TABLE IF EXISTS totals",
    """CREATE TABLE responses (
        key TEXT PRIMARY KEY NOT NULL,
        body BLOB NOT NULL,
        size INTEGER NOT NULL,
        stored_at REAL NOT NULL,
        used_at REAL NOT NULL
    )""",
    "CREATE INDEX responses_by_use ON responses (used_at)",
    "CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 1), entries INTEGER NOT NULL, bytes INTEGER NOT NULL)",
    "INSERT INTO totals VALUES (1, 0, 0)",
    """CREATE TRIGGER responses_added AFTER INSERT ON responses BEGIN
        UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.size WHERE id = 1;
    END""",
    """CREATE TRIGGER responses_removed AFTER DELETE ON responses BEGIN
        UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.size WHERE id = 1;
    END""",
    """CREATE TRIGGER responses_resized AFTER UPDATE OF size ON responses BEGIN
        UPDATE totals SET bytes = bytes - OLD.size + NEW.size WHERE id = 1;
    END""",
)
RESPONSES_UPSERT = (
    "INSERT INTO responses (key, body, size, stored_at, used_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE"
    " SET body = excluded.body, size = excluded.size, stored_at = excluded.stored_at, used_at = excluded.used_at"
)
RESPONSES_DELETE_PATH = "DELETE FROM responses WHERE key = ? OR (key >= ? AND key < ?)"
RESPONSES_DELETE_RANGE = "DELETE FROM responses WHERE key >= ? AND key < ?"

STATE_VERSION = 3
STATE_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS drafts (
        key TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, place TEXT NOT NULL, saved_at REAL NOT NULL
    )""",
    # AUTOINCREMENT: an id is never handed out twice, even after the newest item was removed.
    """CREATE TABLE IF NOT EXISTS outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, target TEXT NOT NULL, payload TEXT NOT NULL,
        place TEXT NOT NULL, created_at REAL NOT NULL, state TEXT NOT NULL, note TEXT NOT NULL
    )""",
    "CREATE TABLE IF NOT EXISTS session (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL)",
    # Version 2: what was read back from a damaged file set aside (``folio cache info`` says it).
    """CREATE TABLE IF NOT EXISTS recovered (
        id INTEGER PRIMARY KEY, at REAL NOT NULL, damaged TEXT NOT NULL, drafts INTEGER NOT NULL,
        outbox INTEGER NOT NULL, complete INTEGER NOT NULL
    )""",
    # Version 3: what the inbox watch announced (or found there when it first looked), so it is said once only.
    "CREATE TABLE IF NOT EXISTS announced (key TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL)",
)
UPSERT_DRAFT = (
    "INSERT INTO drafts (key, text, place, saved_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE"
    " SET text = excluded.text, place = excluded.place, saved_at = excluded.saved_at"
)
