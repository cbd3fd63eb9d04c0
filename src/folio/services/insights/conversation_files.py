"""Conversations files, as ``folio conversations ingest`` and the conversations screen's ``i`` send them: read
(one conversation object or a list of them), each item checked against the ingest operation's shape (spec 4.11)
before anything is sent, and what became of each item.

    items = read_conversations("export.json")        # UnreadableFile: not there, not UTF-8, not JSON, wrong shape
    check_conversation(items[0])                      # ["parts[0].body: must be text or ..."]: field and problem
    IngestReport(outcomes).summary()                  # "2 of 3 conversations sent, 1 refused."
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from folio.services.errors import Refusal

__all__ = [
    "CONFIRM_ABOVE",
    "TOO_DEEP",
    "IngestItem",
    "IngestOutcome",
    "IngestReport",
    "UnreadableFile",
    "check_conversation",
    "check_path",
    "count_words",
    "label_of",
    "needs_confirming",
    "read_conversations",
]


CONFIRM_ABOVE = 100
"""A file of more conversations than this is sent only once its count was shown and confirmed (``--yes`` in the
command line): a large export sent by mistake cannot be taken back."""
TOO_DEEP = "is nested too deeply to read (lists or objects inside each other hundreds of levels deep)"


def needs_confirming(count: int) -> bool:
    """Whether sending ``count`` conversations needs them confirmed first (more than :data:`CONFIRM_ABOVE`)."""
    return count > CONFIRM_ABOVE


def count_words(count: int) -> str:
    """``1 conversation``, ``16,000 conversations``."""
    return f"{count:,} conversation{'' if count == 1 else 's'}"


def check_path(path: str) -> str | None:
    """Why ``path`` cannot be a conversations file to send (None: it is a file; its content is read later)."""
    if not path.strip():
        return "Give the path of a JSON file."
    where = Path(path.strip()).expanduser()
    if where.is_dir():
        return "This is a folder: give the path of a JSON file."
    if not where.is_file():
        return "No such file."
    return None


class UnreadableFile(Refusal):
    """The conversations file cannot be read or is not JSON of the expected shape."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(self.describe())

    def describe(self) -> str:
        return f"{self.path}: {self.problem}"


class _Wire(BaseModel):
    # Unknown fields are refused, not dropped: the file's author learns that a field is not sent.
    model_config = ConfigDict(extra="forbid")


class IngestPart(_Wire):
    type: str = "message"
    role: str = "user"
    body: Any

    @field_validator("body")
    @classmethod
    def _body(cls, value: Any) -> Any:
        if isinstance(value, str | dict):
            return value
        raise ValueError("must be text or a rich-text document (an object)")


class IngestMetadata(_Wire):
    url: str | None = Field(default=None, max_length=2048)
    attributes: dict[str, str] = {}
    created_at: datetime | None = Field(default=None, alias="createdAt")

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None and (urlsplit(value).scheme not in ("http", "https") or not urlsplit(value).netloc):
            raise ValueError("must be an absolute http(s) URL")
        return value


class IngestItem(_Wire):
    """One conversation as the ingest operation takes it (spec 4.11: ``id``, ``metadata``, ``subject``,
    ``parts``): what :func:`check_conversation` validates before anything is sent."""

    id: str | None = Field(default=None, min_length=1)
    subject: str | None = Field(default=None, min_length=1)
    metadata: IngestMetadata | None = None
    parts: list[IngestPart] = Field(min_length=1)


def _where(location: Sequence[int | str]) -> str:
    out = ""
    for part in location:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "conversation"


def check_conversation(item: Any) -> list[str]:
    """What is wrong with one item of a conversations file, as ``field: problem`` lines (empty: it may go)."""
    if not isinstance(item, Mapping):
        return [f"conversation: must be an object, not {_json_kind(item)}"]
    try:
        IngestItem.model_validate(item)
    except ValidationError as invalid:
        problems = []
        for error in invalid.errors():
            message = str(error["msg"]).removeprefix("Value error, ")
            problems.append(f"{_where(error['loc'])}: {message}")
        return problems
    return []


def _json_kind(value: Any) -> str:
    names = {str: "text", bool: "true/false", int: "a number", float: "a number", list: "a list", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def read_conversations(path: str | Path) -> list[Any]:
    """The items of a conversations file: one conversation object, or a list of them (not yet checked)."""
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnreadableFile(path, "no such file") from None
    except IsADirectoryError:
        raise UnreadableFile(path, "is a folder, not a file") from None
    except UnicodeDecodeError:
        raise UnreadableFile(path, "is not UTF-8 text") from None
    except OSError as exc:
        raise UnreadableFile(path, exc.strerror or "cannot be read") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UnreadableFile(path, f"is not JSON ({exc})") from None
    except RecursionError:
        raise UnreadableFile(path, TOO_DEEP) from None
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        return data
    raise UnreadableFile(path, f"holds {_json_kind(data)}: expected a conversation object or a list of them")


@dataclass(frozen=True)
class IngestOutcome:
    """What became of one item: ``sent``, or refused with why (``position`` counts from 1)."""

    position: int
    label: str
    sent: bool
    why: str = ""


@dataclass
class IngestReport:
    outcomes: list[IngestOutcome] = field(default_factory=list)

    @property
    def sent(self) -> int:
        return sum(1 for o in self.outcomes if o.sent)

    @property
    def refused(self) -> int:
        return len(self.outcomes) - self.sent

    @property
    def all_sent(self) -> bool:
        return bool(self.outcomes) and self.refused == 0

    def summary(self) -> str:
        if not self.outcomes:
            return "The file holds no conversation: nothing was sent."
        total = len(self.outcomes)
        noun = "conversation" if total == 1 else "conversations"
        if self.all_sent:
            return f"All {total} {noun} sent." if total > 1 else "The conversation was sent."
        return f"{self.sent} of {total} {noun} sent, {self.refused} refused."


def label_of(position: int, item: Any) -> str:
    """How the report names an item: its subject, else its id, else its position."""
    if isinstance(item, Mapping):
        for key in ("subject", "id"):
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                return value
    return f"item {position}"
