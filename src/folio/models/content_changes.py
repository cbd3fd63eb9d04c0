"""The content changes a change request takes in one batch (the public description's ``updateChangeRequestContent``),
and the answer to a batch.

    changes = [UpdatePage(page="p1", document=MarkdownDocument(markdown="# Install\n")), DeletePage(page="p2")]
    body = changes_body(changes)          # {"changes": [{"operation": "update_page", ...}, ...]}
    update = ContentUpdate.model_validate(answer)   # either answer shape: see ContentUpdate

``UpdatePage.into`` tells "move to the root" (``None``, sent as ``null``) from "leave the parent" (not set, not
sent): a change is dumped with ``exclude_unset``, so only the fields given are sent.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from folio.models._base import Model
from folio.models.change_request import ChangeRequest
from folio.models.common import File

__all__ = [
    "AffectedPage",
    "ContentChange",
    "ContentUpdate",
    "DeletePage",
    "FileUpload",
    "InsertFiles",
    "InsertPage",
    "MarkdownDocument",
    "RevertPage",
    "UpdatePage",
    "changes_body",
]


class MarkdownDocument(Model):
    """A page's body sent as markdown (``{}`` for an empty page: ``markdown`` left out)."""

    markdown: str | None = None


class _PageFields(Model):
    """The page fields both ``insert_page`` and ``update_page`` set (the description's ``RevisionPageUpdate``)."""

    title: str | None = None
    slug: str | None = None
    emoji: str | None = None
    description: str | None = None
    hidden: bool | None = None


class InsertPage(_PageFields):
    operation: Literal["insert_page"] = "insert_page"
    document: MarkdownDocument = Field(default_factory=MarkdownDocument)
    into: str | None = None
    """The parent page's id (left out: the root)."""
    at: int | None = None
    ref: str | None = None


class UpdatePage(_PageFields):
    operation: Literal["update_page"] = "update_page"
    page: str
    document: MarkdownDocument | None = None
    into: str | None = None
    """The new parent's id; ``None`` given explicitly moves the page to the root; not given leaves it."""
    at: int | None = None


class DeletePage(Model):
    operation: Literal["delete_page"] = "delete_page"
    page: str


class RevertPage(Model):
    operation: Literal["revert_page"] = "revert_page"
    page: str
    revision: str | None = None
    """The revision to revert to (left out: the change request's base)."""


class FileUpload(Model):
    """One file of ``insert_files``: its bytes as ``base64`` (with ``content_type``) or a ``url`` to fetch."""

    name: str
    ref: str | None = None
    content_type: str | None = None
    base64: str | None = None
    url: str | None = None


class InsertFiles(Model):
    operation: Literal["insert_files"] = "insert_files"
    files: list[FileUpload]


ContentChange = InsertPage | UpdatePage | DeletePage | RevertPage | InsertFiles


def changes_body(changes: list[ContentChange]) -> dict[str, Any]:
    """The request body: each change with its ``operation`` and only the fields it was given."""
    return {
        "changes": [
            {"operation": change.operation, **change.model_dump(mode="json", by_alias=True, exclude_unset=True)}
            for change in changes
        ]
    }


class AffectedPage(Model):
    """A page the batch created, updated or deleted (``object``: ``created_page``, ``updated_page``,
    ``deleted_page``), with its id once resolved and where to read what was stored."""

    object: str = ""
    page: str | dict[str, Any] | None = None
    """The page's id (a deleted page), or a reference ``{id, urls: {location}}`` (a created or updated one)."""
    ref: str | None = None

    @property
    def page_id(self) -> str | None:
        if isinstance(self.page, dict):
            value = self.page.get("id")
            return value if isinstance(value, str) else None
        return self.page


class ContentUpdate(Model):
    """The answer to a batch: the change request, with (``compat=false``) the pages it touched and the files it
    inserted. The older answer (``compat=true``: the change request alone) reads as one with no pages listed."""

    change_request: ChangeRequest
    changes: list[AffectedPage] = Field(default_factory=list)
    inserted_files: list[File] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _bare_change_request(cls, data: Any) -> Any:
        if isinstance(data, dict) and "changeRequest" not in data and "change_request" not in data:
            return {"changeRequest": data}
        return data
