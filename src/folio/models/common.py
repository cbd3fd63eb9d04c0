"""Shapes shared by every area of the API (section 2.1 of the spec): users, roles, the list envelope, positions,
rich-text documents, content references, files, pages and revisions."""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import Discriminator, Field, Tag

from folio.models._base import Count, Json, Model, OpenEnum, Timestamp

T = TypeVar("T")

Role = Literal["admin", "create", "review", "edit", "comment", "read"]
ROLES: tuple[Role, ...] = ("admin", "create", "review", "edit", "comment", "read")
TeamRole = Literal["owner", "member"]

VariableValue = str | bool | int | float
"""The value of a content variable (the description's ``VariableValue``): a string, a number or a boolean."""


class Urls(Model):
    """A ``urls`` object: every key is optional, unknown keys are kept."""

    location: str | None = None
    app: str | None = None
    published: str | None = None
    public: str | None = None
    logo: str | None = None
    icon: str | None = None


class User(Model):
    object: str = "user"
    id: str
    display_name: str = ""
    email: str | None = None
    photo_url: str | None = Field(default=None, alias="photoURL")
    urls: Urls | None = None


class NextPage(Model):
    page: str


class ListEnvelope(Model, Generic[T]):
    """One page of a list: ``items``, the total ``count`` when the service gives it, and ``next.page``."""

    next: NextPage | None = None
    count: Count | None = None
    items: list[T] = []

    @property
    def next_page(self) -> str | None:
        return self.next.page if self.next else None


# --- positions (move operations) -----------------------------------------------------------------------------


class PositionRef(Model):
    """One side of a position: ``{type, <id field>}``; the id field's name depends on the type."""

    type: str

    @property
    def ref_id(self) -> str | None:
        for key in ("space", "siteSection", "siteSpace", "siteSectionGroup", "id"):
            value = (self.model_extra or {}).get(key) or getattr(self, key, None)
            if isinstance(value, str):
                return value
        return None


class Position(Model):
    before: PositionRef | None = None
    after: PositionRef | None = None


def position(
    kind: Literal["space", "site-section", "site-space"], *, before: str | None = None, after: str | None = None
) -> dict[str, Any]:
    """The wire form of a position relative to a sibling of the given kind."""
    field = {"space": "space", "site-section": "siteSection", "site-space": "siteSpace"}[kind]
    out: dict[str, Any] = {}
    if before is not None:
        out["before"] = {"type": kind, field: before}
    if after is not None:
        out["after"] = {"type": kind, field: after}
    return out


# --- rich text ------------------------------------------------------------------------------------------------


class Block(Model):
    object: str = "block"
    type: OpenEnum = "paragraph"
    key: str | None = None
    nodes: list[Json] = []
    is_void: bool | None = None
    data: dict[str, Json] = {}


class DocumentMeta(Model):
    token: str | None = None


class Document(Model):
    """A rich-text document (``object`` = ``document``)."""

    object: str = "document"
    data: dict[str, Json] = {}
    nodes: list[Json] = []
    meta: DocumentMeta | None = None

    def plain_text(self) -> str:
        """The document's text, one block a paragraph: enough to show a description or a comment."""
        return document_text(self.model_dump(by_alias=True))

    @classmethod
    def from_text(cls, text: str) -> Document:
        """A document of one paragraph per line of ``text``."""
        return cls(data={"schemaVersion": 1}, nodes=[_paragraph(line) for line in text.split("\n")])


def _paragraph(line: str) -> dict[str, Any]:
    return {
        "object": "block",
        "type": "paragraph",
        "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": line, "marks": []}]}],
    }


def document_text(node: Any) -> str:
    """Flatten a document or any node of one into text (blocks separated by newlines)."""
    if isinstance(node, dict):
        if "markdown" in node and isinstance(node["markdown"], str):
            return node["markdown"]
        if "document" in node and isinstance(node["document"], dict):
            return document_text(node["document"])
        if node.get("object") == "leaf":
            return str(node.get("text", ""))
        if "leaves" in node:
            return "".join(document_text(leaf) for leaf in node["leaves"])
        children = node.get("nodes") or []
        sep = "\n" if node.get("object") in ("document", None) else ""
        if node.get("object") == "block" and any(isinstance(c, dict) and c.get("object") == "block" for c in children):
            sep = "\n"
        return sep.join(document_text(c) for c in children)
    if isinstance(node, list):
        return "\n".join(document_text(c) for c in node)
    return ""


class MarkdownBody(Model):
    markdown: str


class Body(Model):
    """A comment body: the spec's ``{markdown}`` or the service's ``{document}`` variant (or empty)."""

    markdown: str | None = None
    document: Document | None = None

    def text(self) -> str:
        if self.markdown is not None:
            return self.markdown
        if self.document is not None:
            return self.document.plain_text()
        return ""


# --- content references ---------------------------------------------------------------------------------------


class ContentRefFile(Model):
    kind: Literal["file"] = "file"
    file: str
    space: str | None = None


class ContentRefPage(Model):
    kind: Literal["page"] = "page"
    page: str
    space: str | None = None


class ContentRefOpenAPI(Model):
    kind: Literal["openapi"] = "openapi"
    spec: str


class ContentRefOther(Model):
    """Any other kind the service knows (url, anchor, user, collection, space, reusable-content, tag...)."""

    kind: str


def _ref_kind(value: Any) -> str:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return kind if kind in ("file", "page", "openapi") else "other"


ContentRef = Annotated[
    Annotated[ContentRefFile, Tag("file")]
    | Annotated[ContentRefPage, Tag("page")]
    | Annotated[ContentRefOpenAPI, Tag("openapi")]
    | Annotated[ContentRefOther, Tag("other")],
    Discriminator(_ref_kind),
]


class GitInfo(Model):
    oid: str | None = None
    path: str | None = None


class Dimensions(Model):
    width: float
    height: float


class File(Model):
    id: str
    name: str = ""
    content_type: str | None = None
    download_url: str | None = Field(default=None, alias="downloadURL")
    size: float | None = None
    dimensions: Dimensions | None = None
    git: GitInfo | None = None


# --- pages ----------------------------------------------------------------------------------------------------

PageType = OpenEnum  # known: document, group, link, computed
KNOWN_PAGE_TYPES = ("document", "group", "link", "computed")


class PageLayout(Model):
    width: OpenEnum | None = None
    cover: bool | None = None
    cover_size: OpenEnum | None = None
    title: bool | None = None
    description: bool | None = None
    table_of_contents: bool | None = None
    outline: bool | None = None
    pagination: bool | None = None
    metadata: bool | None = None


class PageCover(Model):
    ref: ContentRef | None = None
    ref_dark: ContentRef | None = None
    y_pos: float | None = None
    height: float | None = None


class PageMetaLinks(Model):
    canonical: ContentRef | None = None
    alternates: list[ContentRef] = []


class PageComputed(Model):
    type: OpenEnum
    dependencies: dict[str, Json] = {}
    props: dict[str, Json] = {}


class Page(Model):
    """A page of a revision. One model for the four variants (document, group, link, computed): the fields a
    variant lacks are simply absent; ``document`` is the rich-text body when the read asked for it."""

    id: str
    title: str = ""
    type: PageType = "document"
    kind: str | None = None
    emoji: str | None = None
    icon: str | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    markdown: str | None = None
    document: Json | None = None
    urls: Urls | None = None
    slug: str | None = None
    path: str | None = None
    description: str | None = None
    pages: list[Page] = []
    git: GitInfo | None = None
    layout: PageLayout | None = None
    cover: PageCover | None = None
    variables: dict[str, VariableValue] = {}
    hidden: bool | None = None
    no_index: bool | None = None
    no_robots_index: bool | None = None
    meta_links: PageMetaLinks | None = None
    computed: PageComputed | None = None
    computed_seed: str | None = None
    href: str | None = None
    target: Json | None = None

    def walk(self) -> list[Page]:
        """This page and all its descendants, depth first."""
        out = [self]
        for child in self.pages:
            out.extend(child.walk())
        return out


class PagesList(Model):
    """The body of the ``content/pages`` reads: ``{pages: [Page]}``."""

    pages: list[Page] = []

    def walk(self) -> list[Page]:
        out: list[Page] = []
        for page in self.pages:
            out.extend(page.walk())
        return out


# --- revisions ------------------------------------------------------------------------------------------------

RevisionType = OpenEnum  # known: edits, merge, rollback, update, computed
KNOWN_REVISION_TYPES = ("edits", "merge", "rollback", "update", "computed")


class RevisionGit(Model):
    oid: str | None = None
    message: str | None = None
    created_by_git_book: bool | None = Field(default=None, alias="createdByGitBook")
    url: str | None = None
    ref: str | None = None


class ReusableContent(Model):
    id: str
    title: str | None = None
    git: GitInfo | None = None


class Revision(Model):
    """A revision. One model for the five variants (``type``: edits, merge, rollback, update, computed); the fields
    only some variants carry (``mergedFrom``, ``rollbackTo``, ``updatedFrom``...) are kept as extras."""

    object: str = "revision"
    id: str
    type: RevisionType = "edits"
    parents: list[str] = []
    pages: list[Page] = []
    files: list[File] = []
    reusable_contents: list[ReusableContent] = []
    variables: dict[str, VariableValue] = {}
    created_at: Timestamp | None = None
    git: RevisionGit | None = None
    urls: Urls | None = None


class ApiInfo(Model):
    """What the API root says about itself."""

    version: str | None = None
    build: str | None = None
