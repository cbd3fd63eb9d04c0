"""Parsing the service's variants of imported OpenAPI specs, conversations and translations (shapes from the
public OpenAPI description and api-spec.md): minimal and full objects, both content shapes, open enumerations,
unknown fields kept, the weekly pulse."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from folio.models.conversation import (
    Conversation,
    ConversationDetail,
    ConversationPart,
    IssuesCluster,
    IssueWithConversation,
)
from folio.models.openapi import (
    KNOWN_OPENAPI_PROCESS_ERROR_CODES,
    KNOWN_OPENAPI_PROCESSING_STATES,
    OpenAPISpec,
    OpenAPISpecContent,
    OpenAPISpecVersion,
)
from folio.models.translation import KNOWN_TRANSLATION_LANGUAGES, Translation

SPEC_MINIMAL: dict[str, Any] = {
    # The required fields of the description's OpenAPISpec.
    "object": "openapi-spec",
    "id": "spec1",
    "createdAt": "2026-01-02T03:04:05.000Z",
    "updatedAt": "2026-01-03T03:04:05.000Z",
    "slug": "petstore",
    "processingState": "pending",
    "lastProcessedErrorCount": 0,
    "permissions": {"view": True, "edit": False},
    "urls": {
        "location": "https://api.gitbook.com/v1/orgs/o/openapi/petstore",
        "app": "https://app.gitbook.com/x",
    },
}


def test_minimal_spec_parses_with_defaults() -> None:
    spec = OpenAPISpec.model_validate(SPEC_MINIMAL)
    assert spec.slug == "petstore" and spec.is_processing and not spec.has_errors
    assert spec.source_url is None and spec.visibility is None and spec.last_version is None
    assert spec.permissions is not None and spec.permissions.edit is False
    assert spec.error_count == 0


def test_full_spec_with_processing_errors() -> None:
    spec = OpenAPISpec.model_validate(
        {
            **SPEC_MINIMAL,
            "sourceURL": "https://example.com/openapi.yaml",
            "processingState": "complete",
            "visibility": "public",
            "lastVersion": "v3",
            "lastProcessedAt": "2026-01-03T03:05:00.000Z",
            "lastProcessErrorCode": "FETCH_TIMEOUT",
            "lastProcessedErrors": [
                {"message": "Timed out", "code": "FETCH_TIMEOUT"},
                {"message": "no code"},
            ],
            "lastProcessedErrorCount": 57,
            "urls": {**SPEC_MINIMAL["urls"], "published": "https://example.gitbook.io/spec"},
        }
    )
    assert spec.source_url == "https://example.com/openapi.yaml"
    assert spec.has_errors and spec.error_count == 57  # the list is cut short; the count is not
    assert spec.last_processed_errors[1].code is None
    assert spec.urls is not None and spec.urls.published == "https://example.gitbook.io/spec"
    assert spec.to_wire()["sourceURL"] == "https://example.com/openapi.yaml"


def test_spec_open_enumerations_take_new_values_and_unknown_fields_are_kept() -> None:
    spec = OpenAPISpec.model_validate(
        {
            **SPEC_MINIMAL,
            "processingState": "archived",
            "lastProcessErrorCode": "SCHEMA_TOO_LARGE",
            "futureField": {"x": 1},
        }
    )
    assert spec.processing_state == "archived"
    assert spec.processing_state not in KNOWN_OPENAPI_PROCESSING_STATES
    assert spec.last_process_error_code not in KNOWN_OPENAPI_PROCESS_ERROR_CODES
    assert (spec.model_extra or {})["futureField"] == {"x": 1}


def test_spec_visibility_is_one_of_two_and_the_id_is_required() -> None:
    with pytest.raises(ValidationError):
        OpenAPISpec.model_validate({**SPEC_MINIMAL, "visibility": "internal"})
    without_id = {k: v for k, v in SPEC_MINIMAL.items() if k != "id"}
    with pytest.raises(ValidationError):
        OpenAPISpec.model_validate(without_id)


def test_version_and_both_content_shapes() -> None:
    version = OpenAPISpecVersion.model_validate({
        "object": "openapi-spec-version", "id": "v1", "url": "https://example.com/a.json",
        "urls": {"location": "https://api.gitbook.com/v1/orgs/o/openapi/s/versions/v1"},
    })  # fmt: skip
    assert version.created_at is None and version.url == "https://example.com/a.json"
    described = OpenAPISpecContent.model_validate(
        {"filesystem": {"a": 1}, "urls": {"source": "https://example.com/a.json", "public": None}}
    )
    assert described.source_url == "https://example.com/a.json" and described.public_url is None
    documented = OpenAPISpecContent.model_validate({"filesystem": {}, "url": "https://example.com/b.json"})
    assert documented.source_url == "https://example.com/b.json"
    assert OpenAPISpecContent.model_validate({}).source_url is None


CLUSTER: dict[str, Any] = {
    "object": "issues-cluster", "id": "c1", "label": "Login loops", "createdAt": "2026-01-01T00:00:00Z",
    "updatedAt": "2026-01-02T00:00:00Z", "icon": "bolt", "muted": False, "impact": "high",
    "weeklyPulse": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], "sources": {"intercom": 3, "slack": 1.0},
    "stats": {"issues": 4, "conversations": 3}, "urls": {"location": "https://api.gitbook.com/v1/x"},
    "summary": {"object": "document", "data": {}, "nodes": []},
}  # fmt: skip


def test_cluster_parses_and_its_pulse_is_13_weeks() -> None:
    cluster = IssuesCluster.model_validate(CLUSTER)
    assert cluster.pulse == tuple(float(n) for n in range(1, 14))
    assert cluster.stats is not None and cluster.stats.issues == 4 and cluster.sources["intercom"] == 3
    short = IssuesCluster.model_validate({**CLUSTER, "weeklyPulse": [4, 5]})
    assert short.pulse == (0.0,) * 11 + (4.0, 5.0)
    long = IssuesCluster.model_validate({**CLUSTER, "weeklyPulse": list(range(20))})
    assert long.pulse == tuple(float(n) for n in range(7, 20))


@pytest.mark.parametrize("impact", ["low", "medium", "high"])
def test_cluster_impact_is_one_of_three(impact: str) -> None:
    assert IssuesCluster.model_validate({**CLUSTER, "impact": impact}).impact == impact


def test_cluster_impact_outside_the_three_is_refused() -> None:
    with pytest.raises(ValidationError):
        IssuesCluster.model_validate({**CLUSTER, "impact": "critical"})


def test_issue_entry_conversation_and_detail() -> None:
    conversation = {
        "object": "conversation", "id": "conv1", "subject": "Loop", "createdAt": "2026-01-01T00:00:00Z",
        "processedAt": "2026-01-01T00:01:00Z", "source": "intercom", "impact": "medium",
        "urls": {"location": "https://api.gitbook.com/v1/c", "source": "https://intercom.example/1"},
    }  # fmt: skip
    parsed = Conversation.model_validate(conversation)
    assert parsed.urls is not None and parsed.urls.source == "https://intercom.example/1"
    entry = IssueWithConversation.model_validate({
        "issue": {"object": "conversation-issue", "id": "i1", "title": "Loop", "impact": "low",
                  "details": {"object": "document", "data": {}, "nodes": []},
                  "createdAt": "2026-01-01T00:00:00Z", "ingestedAt": "2026-01-01T00:00:00Z",
                  "conversation": "conv1", "cluster": "c1"},
        "conversation": conversation,
    })  # fmt: skip
    assert entry.issue.cluster == "c1" and entry.conversation is not None and entry.conversation.id == "conv1"
    detail = ConversationDetail.model_validate({
        "conversation": conversation,
        "parts": [{"type": "message", "role": "user", "body": "Help"},
                  {"type": "message", "role": "assistant", "body": {"markdown": "Sure"}}, {"body": None}],
        "metadata": {"url": "https://x.example", "attributes": {"plan": "pro"},
                     "createdAt": "2026-01-01T00:00:00Z"},
    })  # fmt: skip
    assert [p.text for p in detail.parts] == ["Help", "Sure", ""]
    assert detail.metadata is not None and detail.metadata.attributes == {"plan": "pro"}
    assert ConversationPart().role == "user" and ConversationPart().type == "message"


TRANSLATION: dict[str, Any] = {
    # The required fields of the description's Translation.
    "object": "translation", "id": "t1", "status": "pending", "source": {"space": "s1", "language": "en"},
    "language": "fr", "instructions": {"object": "document", "data": {}, "nodes": []},
    "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z",
    "stats": {"runs": 0, "totalWords": 0, "totalPages": 0, "totalDuration": 0, "latestRunDuration": 0,
              "latestPages": 0, "latestWords": 0},
    "permissions": {"view": True, "edit": True}, "urls": {"location": "https://api.gitbook.com/v1/t"},
}  # fmt: skip


def test_translation_parses_with_and_without_result() -> None:
    pending = Translation.model_validate(TRANSLATION)
    assert pending.in_progress and pending.result is None and pending.stats.runs == 0
    assert pending.source is not None and pending.source.language == "en"
    done = Translation.model_validate({
        **TRANSLATION, "status": "completed",
        "result": {"space": "s2", "revision": "r9", "language": "fr"},
        "stats": {**TRANSLATION["stats"], "runs": 2, "totalWords": 900, "latestWords": 450},
    })  # fmt: skip
    assert not done.in_progress and done.result is not None and done.result.revision == "r9"
    assert done.stats.total_words == 900 and done.stats.latest_words == 450


def test_translation_takes_languages_and_statuses_the_service_may_add() -> None:
    assert len(KNOWN_TRANSLATION_LANGUAGES) == 39 and "pt-br" in KNOWN_TRANSLATION_LANGUAGES
    odd = Translation.model_validate({**TRANSLATION, "language": "eo", "status": "failed", "extra": 1})
    assert odd.language == "eo" and odd.status == "failed" and not odd.in_progress
    sparse = Translation.model_validate({"id": "t2"})
    assert sparse.stats.runs == 0 and sparse.source is None
