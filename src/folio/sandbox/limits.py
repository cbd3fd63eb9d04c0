"""The request limits the sandbox enforces beyond the field limits of api-spec.md section 8, which leaves
request size limits unshown ("Default page size, rate limits and request size limits: not shown"). Each is
answered with the service's error body ``{"error": {"code", "message"}}``:

- a body over its size cap: 413, before it is read when ``Content-Length`` says so, else as soon as the bytes
  read pass the cap;
- a body that is not JSON, is not an object, nests deeper than :data:`MAX_JSON_DEPTH` or holds ``NaN`` or
  ``Infinity`` (not JSON, though Python's reader takes them): 400;
- an integer query parameter (``limit``) that is not written as a plain integer (``1e3``, ``10.0``, ``abc``):
  400.
"""

from __future__ import annotations

MAX_BODY_BYTES = 1_048_576
"""The largest JSON request body (1 MiB): a comment, a reply, a change request's description or a page's
markdown fits many times over; anything larger is refused with 413."""

MAX_SPEC_BODY_BYTES = 8 * MAX_BODY_BYTES
"""The largest body that adds or replaces an OpenAPI spec (8 MiB): ``source.text`` holds a whole description,
and real ones run to several megabytes."""

MAX_JSON_DEPTH = 100
"""How deeply arrays and objects may nest in a request body. The deepest shapes of the API (rich-text documents
with nested lists) need a few dozen levels; past this the body is refused with 400, never read into a
RecursionError."""

MAX_INT_DIGITS = 9
"""Digits an integer query parameter may have: enough for any ``limit``, and no integer-parsing surprises."""
