"""Parsing the service's shapes for spaces, collections, content and links: the variants the public OpenAPI
description gives (page document/group/link/computed, revision types, content references), extra fields kept,
and the wire forms Folio sends (positions, template requests)."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from folio.models.common import ContentRefFile, ContentRefOther, ContentRefPage, Page, PagesList, Revision
from folio.models.content import BacklinkRecord, ContentLink, LinksList, PageLinksList, TemplateRequest
from folio.models.space import Collection, ContentPointer, OrgSpaceItem, Space, content_position

LAYOUT = {
    "width": "default",
    "cover": True,
    "coverSize": "hero",
    "coverMask": "none",
    "title": True,
    "description": True,
    "tableOfContents": True,
    "outline": True,
    "pagination": True,
    "metadata": True,
    "tags": True,
    "actions": True,
    "anchors": True,
}

DOCUMENT_PAGE = {
    "id": "p1",
    "title": "Welcome",
    "kind": "sheet",
    "type": "document",
    "emoji": "1f44b",
    "createdAt": "2026-01-05T09:00:00.000Z",
    "urls": {"app": "https://app.gitbook.com/o/o/s/s/welcome"},
    "slug": "welcome",
    "path": "welcome",
    "description": "Start here",
    "layout": LAYOUT,
    "tags": [],
    "pages": [
        {
            "id": "p2",
            "title": "Child",
            "kind": "sheet",
            "type": "document",
            "slug": "child",
            "path": "welcome/child",
            "pages": [],
            "layout": LAYOUT,
            "tags": [],
            "urls": {"app": "https://x"},
            "documentId": "doc2",
        }
    ],
    "git": {"oid": "abc", "path": "welcome.md"},
    "variables": {"product": "Northwind"},
    "hidden": False,
    "noIndex": False,
    "noRobotsIndex": True,
    "cover": {
        "ref": {"kind": "file", "file": "f1"},
        "refDark": {"kind": "url", "url": "https://x/d.png"},
        "yPos": 12,
        "height": 240,
    },
    "metaLinks": {"canonical": {"kind": "page", "page": "p9"}, "alternates": [{"kind": "url", "url": "https://a"}]},
    "markdown": "# Welcome\n",
}
GROUP_PAGE = {
    "id": "g1",
    "title": "Guides",
    "kind": "group",
    "type": "group",
    "slug": "guides",
    "path": "guides",
    "pages": [DOCUMENT_PAGE],
    "hidden": False,
}
LINK_PAGE = {
    "id": "l1",
    "title": "Status",
    "kind": "link",
    "type": "link",
    "target": {"kind": "url", "url": "https://status.example.com"},
    "href": "https://status.example.com",
}
COMPUTED_PAGE = {
    "id": "c1",
    "title": "API",
    "type": "computed",
    "computedSeed": "seed",
    "computed": {
        "type": "builtin:openapi",
        "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "petstore"}}},
        "props": {"models": True},
    },
}


@pytest.mark.parametrize(
    "raw", [DOCUMENT_PAGE, GROUP_PAGE, LINK_PAGE, COMPUTED_PAGE], ids=["document", "group", "link", "computed"]
)
def test_page_variants_parse(raw: dict) -> None:  # type: ignore[type-arg]
    page = Page.model_validate(raw)
    assert page.id == raw["id"] and page.type == raw["type"] and page.title == raw["title"]


def test_document_page_fields() -> None:
    page = Page.model_validate(DOCUMENT_PAGE)
    assert page.markdown == "# Welcome\n" and page.git is not None and page.git.path == "welcome.md"
    assert page.layout is not None and page.layout.cover_size == "hero"
    assert page.cover is not None and isinstance(page.cover.ref, ContentRefFile)
    assert isinstance(page.cover.ref_dark, ContentRefOther) and page.cover.ref_dark.kind == "url"
    assert page.meta_links is not None and isinstance(page.meta_links.canonical, ContentRefPage)
    assert page.no_robots_index is True and page.variables == {"product": "Northwind"}
    assert [p.id for p in page.walk()] == ["p1", "p2"]
    assert page.model_extra is not None and page.model_extra["tags"] == []  # unknown fields are kept


def test_link_and_computed_pages() -> None:
    link = Page.model_validate(LINK_PAGE)
    assert link.href == "https://status.example.com" and link.target == LINK_PAGE["target"]
    computed = Page.model_validate(COMPUTED_PAGE)
    assert computed.computed is not None and computed.computed.type == "builtin:openapi"
    assert computed.computed_seed == "seed"


def test_pages_list_walks_groups() -> None:
    tree = PagesList.model_validate({"pages": [GROUP_PAGE, LINK_PAGE]})
    assert [p.id for p in tree.walk()] == ["g1", "p1", "p2", "l1"]


@pytest.mark.parametrize("rev_type", ["edits", "merge", "rollback", "update", "computed"])
def test_revision_variants_parse(rev_type: str) -> None:
    raw = {
        "object": "revision",
        "id": "r1",
        "type": rev_type,
        "parents": ["r0"],
        "pages": [DOCUMENT_PAGE],
        "files": [
            {
                "id": "f1",
                "name": "a.png",
                "contentType": "image/png",
                "downloadURL": "https://f/a.png",
                "size": 10,
                "dimensions": {"width": 1, "height": 2},
            }
        ],
        "reusableContents": [{"id": "rc", "title": "Snippet"}],
        "tags": [],
        "variables": {"v": "1"},
        "createdAt": "2026-11-01T09:00:00.000Z",
        "urls": {"app": "https://app/r1"},
        "git": {"oid": "1", "message": "m", "createdByGitBook": True},
    }
    if rev_type in ("merge", "computed"):
        raw["mergedFrom"] = {"object": "change-request", "id": "cr1", "number": 3}
    if rev_type == "computed":
        raw["sourceRevision"] = "r0"
    rev = Revision.model_validate(raw)
    assert rev.type == rev_type and rev.files[0].dimensions is not None
    assert rev.git is not None and rev.git.created_by_git_book is True
    if rev_type == "merge":
        assert rev.model_extra is not None and rev.model_extra["mergedFrom"]["number"] == 3


SPACE = {
    "object": "space",
    "id": "s1",
    "title": "Guide",
    "emoji": "📘",
    "visibility": "in-collection",
    "createdAt": "2026-01-01T00:00:00.000Z",
    "updatedAt": "2026-01-02T00:00:00.000Z",
    "deletedAt": "2026-10-30T00:00:00.000Z",
    "editMode": "locked",
    "mergeRules": {"type": "rules", "rules": [{"rule": "require_specific_reviewers", "users": ["u1"]}]},
    "urls": {"location": "https://api/s1", "app": "https://app/s1", "published": "https://p/s1"},
    "organization": "o1",
    "parent": "c1",
    "language": "pt-br",
    "gitSync": {
        "repoName": "a/b",
        "installationProvider": "github",
        "installationStatus": "active",
        "installationId": "i1",
    },
    "visitorAuth": {"backend": "custom"},
    "revision": "r1",
    "defaultLevel": "inherit",
    "comments": 2,
    "changeRequests": 5,
    "changeRequestsOpen": 3,
    "changeRequestsDraft": 1,
    "permissions": {
        "view": True,
        "access": True,
        "admin": False,
        "viewInviteLinks": False,
        "edit": True,
        "triggerGitSync": False,
        "comment": True,
        "merge": False,
        "review": True,
        "installIntegration": False,
    },
    "internal_poweredByV2": True,
}


def test_space_parses_every_field() -> None:
    space = Space.model_validate(SPACE)
    assert space.deleted and space.locked and space.parent == "c1" and space.language == "pt-br"
    assert space.merge_rules is not None and space.merge_rules.rules[0].users == ["u1"]
    assert space.git_sync is not None and space.git_sync.repo_name == "a/b"
    assert (space.comments, space.change_requests, space.change_requests_open) == (2, 5, 3)
    assert space.permissions is not None and space.permissions.review and not space.permissions.merge
    assert space.model_extra == {"internal_poweredByV2": True}


def test_space_enumerations_given_in_full_are_strict() -> None:
    with pytest.raises(ValidationError):
        Space.model_validate({**SPACE, "visibility": "secret"})
    with pytest.raises(ValidationError):
        Space.model_validate({**SPACE, "editMode": "frozen"})
    with pytest.raises(ValidationError):
        Space.model_validate({k: v for k, v in SPACE.items() if k != "id"})


def test_minimal_space_and_collection() -> None:
    space = Space.model_validate({"id": "s2"})
    assert space.visibility == "private" and space.edit_mode == "live" and not space.deleted
    coll = Collection.model_validate(
        {
            "object": "collection",
            "id": "c1",
            "title": "Guides",
            "organization": "o",
            "defaultLevel": None,
            "urls": {"location": "l", "app": "a"},
            "permissions": {"view": True, "admin": True, "viewInviteLinks": False, "create": True},
        }
    )
    assert coll.default_level is None and coll.permissions is not None and coll.permissions.create


def test_org_space_items_accept_both_shapes() -> None:
    adapter: TypeAdapter[list[Space]] = TypeAdapter(list[OrgSpaceItem])
    items = adapter.validate_python([SPACE, {"permission": "admin", "space": {**SPACE, "id": "s9"}}])
    assert [s.id for s in items] == ["s1", "s9"]


def test_content_position_wire_form() -> None:
    assert content_position("s1") == {"before": {"type": "space", "space": "s1"}}
    assert content_position(after=ContentPointer.to_collection("c1"), before="s2") == {
        "before": {"type": "space", "space": "s2"},
        "after": {"type": "collection", "collection": "c1"},
    }
    assert content_position() == {}
    assert ContentPointer.to_collection("c1").ref_id == "c1"


def test_links_list_with_stats() -> None:
    raw = {
        "next": {"page": "n"},
        "count": 3,
        "stats": {"total": 3, "broken": {"total": 1, "changeRequest": 2}},
        "items": [
            {
                "status": "broken",
                "relation": "reference",
                "targetReference": {"kind": "page", "page": "p"},
                "locationReferences": [{"kind": "page", "page": "q"}],
            },
            {"status": "in-app", "relation": "reference", "targetReference": {"kind": "url", "url": "https://a"}},
            {"status": "ok", "targetReference": {"kind": "file", "file": "f"}},
        ],
    }
    links = LinksList.model_validate(raw)
    assert links.next_page == "n" and links.stats is not None and links.stats.broken.change_request == 2
    assert links.items[0].broken and isinstance(links.items[0].target_reference, ContentRefPage)
    assert isinstance(links.items[2].target_reference, ContentRefFile)
    page_links = PageLinksList.model_validate({"items": raw["items"][1:]})
    assert page_links.stats is None and page_links.items[0].location_references == []
    assert ContentLink.model_validate({"status": "redirected"}).status == "redirected"


def test_backlink_record_version_context_variants() -> None:
    base = {
        "kind": "file",
        "organization": {"object": "organization", "id": "o"},
        "space": SPACE,
        "file": {"id": "f1", "name": "a.png", "contentType": "image/png", "downloadURL": "u", "size": 1},
    }
    by_id = BacklinkRecord.model_validate({**base, "versionContext": {"type": "revision", "revision": "r1"}})
    as_object = BacklinkRecord.model_validate(
        {**base, "versionContext": {"type": "revision", "revision": {"object": "revision", "id": "r2"}}}
    )
    by_cr = BacklinkRecord.model_validate(
        {**base, "versionContext": {"type": "changeRequest", "changeRequest": {"id": "cr"}}}
    )
    assert by_id.version_context is not None and by_id.version_context.revision_id == "r1"
    assert as_object.version_context is not None and as_object.version_context.revision_id == "r2"
    assert by_cr.version_context is not None and by_cr.version_context.revision_id is None
    assert by_id.space is not None and by_id.space.id == "s1" and by_id.file is not None


def test_template_request_wire_form() -> None:
    request = TemplateRequest(
        id="faq", params={"content_refs": {"cover": ContentRefFile(file="f1")}}, change_request_id="cr1"
    )
    assert request.model_dump(mode="json", by_alias=True, exclude_none=True) == {
        "id": "faq",
        "params": {"contentRefs": {"cover": {"kind": "file", "file": "f1"}}},
        "changeRequestId": "cr1",
    }
