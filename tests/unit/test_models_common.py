"""The shared shapes parse every variant the service sends, keep unknown fields, and never crash on new values."""

from __future__ import annotations

import pytest

from folio.models.common import (
    Body,
    ContentRefFile,
    ContentRefOther,
    ContentRefPage,
    Document,
    ListEnvelope,
    Page,
    PageCover,
    PagesList,
    Revision,
    User,
    document_text,
    position,
)

USER = {
    "object": "user",
    "id": "u1",
    "displayName": "Ada",
    "photoURL": "https://x/a.png",
    "urls": {"location": "https://api/users/u1"},
}
BASE_REVISION = {
    "object": "revision",
    "id": "r2",
    "parents": ["r1"],
    "pages": [],
    "files": [],
    "reusableContents": [],
    "variables": {},
    "createdAt": "2026-11-01T09:00:00.000Z",
    "urls": {"app": "https://app/r2", "published": "https://docs/"},
}


@pytest.mark.parametrize(
    "variant",
    [
        {"type": "edits"},
        {"type": "merge", "mergedFrom": {"object": "change-request", "id": "cr1", "number": 3}},
        {"type": "rollback"},
        {"type": "update"},
        {"type": "computed", "sourceRevision": "r1"},
    ],
    ids=["edits", "merge", "rollback", "update", "computed"],
)
def test_the_five_revision_variants(variant: dict[str, object]) -> None:
    revision = Revision.model_validate({**BASE_REVISION, **variant})
    assert revision.type == variant["type"]
    assert revision.parents == ["r1"]
    extra = {k: v for k, v in variant.items() if k != "type"}
    for key, value in extra.items():
        assert (revision.model_extra or {})[key] == value


def test_an_unknown_revision_type_still_parses() -> None:
    assert Revision.model_validate({**BASE_REVISION, "type": "squash"}).type == "squash"


def test_page_variants_and_tree() -> None:
    tree = PagesList.model_validate(
        {
            "pages": [
                {
                    "id": "p1",
                    "title": "Guide",
                    "type": "document",
                    "kind": "sheet",
                    "slug": "guide",
                    "path": "guide",
                    "markdown": "# Guide",
                    "urls": {"app": "https://app/p1"},
                    "layout": {"width": "wide", "coverSize": "hero", "tableOfContents": True},
                    "cover": {"ref": {"kind": "file", "file": "f1"}, "yPos": 10},
                    "pages": [
                        {
                            "id": "p2",
                            "title": "Link",
                            "type": "link",
                            "kind": "link",
                            "target": {"kind": "url", "url": "https://x"},
                            "href": "https://x",
                        }
                    ],
                },
                {"id": "g1", "title": "Group", "type": "group", "kind": "group", "slug": "g", "pages": []},
                {
                    "id": "c1",
                    "title": "API",
                    "type": "computed",
                    "computed": {
                        "type": "builtin:openapi",
                        "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "petstore"}}},
                        "props": {"models": True},
                    },
                },
            ]
        }
    )
    assert [p.id for p in tree.walk()] == ["p1", "p2", "g1", "c1"]
    page = tree.pages[0]
    assert page.layout is not None and page.layout.table_of_contents is True
    assert isinstance(page.cover, PageCover) and isinstance(page.cover.ref, ContentRefFile)
    assert tree.pages[2].computed is not None and tree.pages[2].computed.type == "builtin:openapi"


def test_content_references_by_kind() -> None:
    page = Page.model_validate(
        {
            "id": "p",
            "metaLinks": {
                "canonical": {"kind": "page", "page": "p9", "space": "s1"},
                "alternates": [{"kind": "anchor", "anchor": "x", "page": "p2"}, {"kind": "page", "page": "p3"}],
            },
        }
    )
    assert page.meta_links is not None
    assert isinstance(page.meta_links.canonical, ContentRefPage)
    assert isinstance(page.meta_links.alternates[0], ContentRefOther)
    assert page.meta_links.alternates[0].kind == "anchor"


def test_bodies_markdown_and_document() -> None:
    assert Body.model_validate({"markdown": "**hi**"}).text() == "**hi**"
    doc = {
        "document": {
            "object": "document",
            "data": {},
            "nodes": [
                {
                    "object": "block",
                    "type": "paragraph",
                    "nodes": [
                        {
                            "object": "text",
                            "leaves": [
                                {"object": "leaf", "text": "Hello ", "marks": []},
                                {"object": "leaf", "text": "world", "marks": [{"type": "bold"}]},
                            ],
                        }
                    ],
                },
                {
                    "object": "block",
                    "type": "paragraph",
                    "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": "Second"}]}],
                },
            ],
        }
    }
    assert Body.model_validate(doc).text() == "Hello world\nSecond"
    assert Body.model_validate({}).text() == ""


def test_document_round_trip_from_text() -> None:
    doc = Document.from_text("one\ntwo")
    assert doc.plain_text() == "one\ntwo"
    assert document_text(doc.to_wire()) == "one\ntwo"


def test_unknown_fields_are_kept_and_aliases_work() -> None:
    user = User.model_validate({**USER, "brandNewField": {"x": 1}})
    assert user.photo_url == "https://x/a.png"
    assert (user.model_extra or {})["brandNewField"] == {"x": 1}
    assert user.to_wire()["photoURL"] == "https://x/a.png"


def test_list_envelope() -> None:
    env = ListEnvelope[User].model_validate({"items": [USER], "count": 3, "next": {"page": "abc"}})
    assert env.next_page == "abc" and env.count == 3 and env.items[0].display_name == "Ada"
    assert ListEnvelope[User].model_validate({"items": []}).next_page is None


def test_position_wire_form() -> None:
    assert position("site-section", before="s2") == {"before": {"type": "site-section", "siteSection": "s2"}}
    assert position("space", after="x") == {"after": {"type": "space", "space": "x"}}
