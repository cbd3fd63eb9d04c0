"""The sandbox's domain: what the service's records are, how they render to the wire, and the rules and
transitions of api-spec.md, shared by the route modules and the seed.

Layering (checked by ``tests/sandbox/test_layout.py``): ``routes/<area>.py`` hold HTTP handlers only and import
from here, from :mod:`folio.sandbox.http`, :mod:`~folio.sandbox.paging` and :mod:`~folio.sandbox.errors`, never
from another route module; the modules here and the seed never import a route module.

    access          who the caller is in an organization: membership, roles and their ranks
    membership      whether a user is a member of an organization (no request, no models: the first answer)
    people          members and teams: rendering, the rules of membership (an organization keeps an admin)
    orgs            organizations: rendering, who may join
    spaces          spaces and collections: finding, rendering, the delete/restore lifecycle
    moves           moving and transferring spaces and collections (sidebar order)
    search          searching pages and sections of a space or an organization
    content         rendering revisions, pages and files; markdown to a rich-text document
    links           the links between pages and files of a revision
    change_requests change requests: finding, rendering, open, merge, update
    reviews         reviews, requested reviewers and the semantic change list
    comments        comments and replies: scope, reading bodies, rendering
    site_tree       a site's structure: siblings, order, moves; site-level access
    site_items      new site spaces and sections
    site_render     sites and their structure on the wire, published URLs
    openapi         imported OpenAPI specs: versions and the processing simulated over the clock
    conversations   conversations, issues and clusters: ingestion, the weekly pulse
    translations    translations and their runs
"""
