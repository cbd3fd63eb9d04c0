"""Use-cases over the API (and, later, the cache): what the screens ask for, in the product's words.

Services never import Textual; screens receive them in their constructors. :class:`Services` holds one of each,
built on first use over one client; ``folio.cli`` makes it and hands it to the app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from folio.services.changes import Changes
from folio.services.connection import Connection

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.common import User
    from folio.services.browse import BrowseService
    from folio.services.content.collections import CollectionsService
    from folio.services.content.search import SearchService
    from folio.services.content.space import SpaceService
    from folio.services.content.space_admin import SpaceAdminService
    from folio.services.content.translations import TranslationService
    from folio.services.content.trash import TrashService
    from folio.services.first_paint import CachedOrganizations, Prefetch
    from folio.services.insights.conversations import ConversationsService
    from folio.services.insights.references import ReferenceService
    from folio.services.links import LinkService
    from folio.services.local import Local
    from folio.services.people.access import AccessService
    from folio.services.people.people import PeopleService
    from folio.services.review.authoring import AuthoringService
    from folio.services.review.comments import CommentService
    from folio.services.review.detached import DetachedComments
    from folio.services.review.forecast import ForecastService
    from folio.services.review.mentions import MentionService
    from folio.services.review.outbox import OutboxService
    from folio.services.review.pending_review import PendingReviewService
    from folio.services.review.preflight import PreflightService
    from folio.services.review.review import ReviewService
    from folio.services.review.review_lint import ReviewLint
    from folio.services.review.since_review import SinceReviewService
    from folio.services.review.writing import WritingService
    from folio.services.sites.sites import SiteService
    from folio.services.sites.structure import StructureService

__all__ = ["BrowseService", "Connection", "Services"]


def __getattr__(name: str) -> object:
    # BrowseService is imported when first asked for (services.browse): not before the first frame
    if name == "BrowseService":
        from folio.services.browse import BrowseService

        return BrowseService
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Services:
    """Every service of the product over one client: ``services.browse``, ``.space``, ``.review``, ``.comments``,
    ``.sites``, ``.structure``; ``await services.me()`` is the signed-in user (asked once).

    ``client`` may be given later as ``connect``, a function that builds it: the client is then built when first
    used (``services.client``), so a start draws its first frame from the cache before httpx, pydantic and the
    models are imported (``where`` must then be given)."""

    def __init__(
        self,
        client: GitBookClient | None = None,
        *,
        where: str | None = None,
        local: Local | None = None,
        connect: Callable[[], GitBookClient] | None = None,
    ) -> None:
        if client is not None:
            where = where or client.host
        elif connect is None or not where:
            raise ValueError("Services needs a client, or a way to build one (connect) and where it leads (where)")
        self._client = client
        self._connect = connect
        self._connecting: asyncio.Future[GitBookClient] | None = None
        self.where: str = where or ""
        """Where the data comes from, in words for the header (``api.gitbook.com``, ``the demo sandbox``)."""
        self.local = local
        """The account's cache, drafts, outbox and session on this machine (None: nothing is kept)."""
        self._me: User | None = None
        self.connection = Connection(client, keeps_cache=local is not None)
        """The one owner of freshness: cache-first reads, offline state, the rate-limit pause, the probe."""
        self.ping = True
        """Whether opening an organization tells it the user is here (``ping = false`` in config.toml)."""
        self.approve_requires: tuple[str, ...] = ()
        """What approving a change request waits for (``[review] approve_requires``: ``viewed``, ``resolved``)."""
        self.changes = Changes()
        """What was written, for the lists that show it (a list reloads when its topic moved)."""
        self.prefetch: Prefetch | None = None
        """The organization list asked at process start when the cache had none (a first start's first frame)."""

    @property
    def client(self) -> GitBookClient:
        """The HTTP client (built on first use when it was given as ``connect``; :meth:`connect` builds it without
        holding up the event loop)."""
        if self._client is None:
            assert self._connect is not None
            self._use(self._connect())
        assert self._client is not None
        return self._client

    async def connect(self) -> None:
        """Build the HTTP client, if it is not yet, in a thread: importing httpx, pydantic and the models (and for
        the demo building its sandbox) is a few hundred ms that the screen keeps drawing and taking keys through.
        Its first read's modules (the organizations' resource and models) are imported there too."""
        if self._client is not None or self._connect is None:
            return
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(asyncio.to_thread(_build, self._connect))
        client = await asyncio.shield(self._connecting)
        if self._client is None:
            self._use(client)
        elif client is not self._client:  # built on the loop meanwhile (something could not wait): one is enough
            await client.aclose()

    def _use(self, client: GitBookClient) -> None:
        self._client = client
        if self.local is not None:
            self.local.attach(client)
        self.connection.attach(client)

    @property
    def connected(self) -> bool:
        """Whether the HTTP client is built (False until something is read from the service)."""
        return self._client is not None

    def cached_organizations(self) -> CachedOrganizations | None:
        """The organization list as the cache last kept it, read without the HTTP client and without validating
        it (:mod:`folio.services.first_paint`): what the first frame paints. None when there is none."""
        if self.local is None:
            return None
        from folio.services.first_paint import cached_organizations

        return cached_organizations(self.local.cached)

    def prefetch_organizations(self, base_url: str, token: str, *, demo: bool = False) -> None:
        """Ask for the organization list now, in a thread, when the cache has none to paint
        (:class:`folio.services.first_paint.Prefetch`): the answer travels while the TUI is imported. ``demo``: a
        sandbox seeded in a child process answers, as the demo's own will once it is built."""
        from folio import __version__
        from folio.services.first_paint import ORGANIZATIONS_KEY, Prefetch

        # (one row looked up, not the list read: the first screen reads it, when it is there)
        if self._client is not None or (self.local is not None and self.local.cached(ORGANIZATIONS_KEY) is not None):
            return
        if demo:
            self.prefetch = Prefetch.from_demo(base_url, token).start()
        elif Prefetch.applies(base_url):
            self.prefetch = Prefetch.over_http(base_url, token, user_agent=f"folio-tui/{__version__}").start()

    async def me(self) -> User:
        if self._me is None:
            me = await self.client.users.me()
            if self.local is not None:
                self.local.confirm(me.id, me.display_name or me.email or me.id)
            self._me = me
        return self._me

    @cached_property
    def browse(self) -> BrowseService:
        from folio.services.browse import BrowseService

        return BrowseService(self.client, where=self.where)

    @cached_property
    def links(self) -> LinkService:
        """GitBook links: the screen a URL names, looked up with the service where it must be."""
        from folio.services.links import LinkService

        return LinkService(self.client)

    @cached_property
    def space(self) -> SpaceService:
        from folio.services.content.space import SpaceService

        return SpaceService(self.client)

    @cached_property
    def collections(self) -> CollectionsService:
        """Creating, changing, moving and transferring collections; moving spaces."""
        from folio.services.content.collections import CollectionsService

        return CollectionsService(self.client, self)

    @cached_property
    def space_admin(self) -> SpaceAdminService:
        """Changes to a space (fields, edit mode, duplicate, transfer, delete) and the space screen's extra reads."""
        from folio.services.content.space_admin import SpaceAdminService

        return SpaceAdminService(self.client, self)

    @cached_property
    def review(self) -> ReviewService:
        from folio.services.review.review import ReviewService

        return ReviewService(self.client, self)

    @cached_property
    def review_lint(self) -> ReviewLint:
        """The review lint of a change request: broken links it introduces, and what else a reviewer checks."""
        from folio.services.review.review_lint import ReviewLint

        return ReviewLint(self.client, self)

    @cached_property
    def forecast(self) -> ForecastService:
        """Which open change requests of a space edit the same pages; one for the app (it keeps their pages)."""
        from folio.services.review.forecast import ForecastService

        return ForecastService(self.client, self)

    @cached_property
    def since_review(self) -> SinceReviewService:
        """What changed in a change request since the reviewer last reviewed it (or marked pages viewed)."""
        from folio.services.review.since_review import SinceReviewService

        return SinceReviewService(self.client, self)

    @cached_property
    def detached(self) -> DetachedComments:
        """Comments whose block is gone from their page: the block's text as it was, the most similar one now."""
        from folio.services.review.detached import DetachedComments

        return DetachedComments(self.client, self)

    @cached_property
    def comments(self) -> CommentService:
        from folio.services.review.comments import CommentService

        return CommentService(self.client, self)

    @cached_property
    def sites(self) -> SiteService:
        from folio.services.sites.sites import SiteService

        return SiteService(self.client, self)

    @cached_property
    def structure(self) -> StructureService:
        """One structure service for the app, so what it learned a service does not offer is learned once."""
        from folio.services.sites.structure import StructureService

        return StructureService(self.client)

    @cached_property
    def people(self) -> PeopleService:
        """Members and teams; one for the app, so the once-an-hour ping and the caller's access are kept once."""
        from folio.services.people.people import PeopleService

        return PeopleService(self.client, self)

    @cached_property
    def access(self) -> AccessService:
        """Single sign-on, organization settings, invite links, joining, agent instructions."""
        from folio.services.people.access import AccessService

        return AccessService(self.client, self)

    @cached_property
    def conversations(self) -> ConversationsService:
        """Issues clusters, conversations and ingesting (a service may not offer them: ``NotOfferedHere``)."""
        from folio.services.insights.conversations import ConversationsService

        return ConversationsService(self.client)

    @cached_property
    def references(self) -> ReferenceService:
        """The organization's imported OpenAPI specs, their versions and content."""
        from folio.services.insights.references import ReferenceService

        return ReferenceService(self.client, self)

    @cached_property
    def translations(self) -> TranslationService:
        """Translations of the organization's spaces."""
        from folio.services.content.translations import TranslationService

        return TranslationService(self.client)

    @cached_property
    def search(self) -> SearchService:
        """Searching an organization's or a space's content; the earlier searches per organization."""
        from folio.services.content.search import SearchService

        return SearchService(self.client)

    @cached_property
    def trash(self) -> TrashService:
        """Deleted spaces still restorable; one for the app, so the spaces it saw are known for the run."""
        from folio.services.content.trash import TrashService

        return TrashService(self.client, self)

    @cached_property
    def authoring(self) -> AuthoringService:
        """New change requests and review requests, each found again after a lost answer."""
        from folio.services.review.authoring import AuthoringService

        return AuthoringService(self.client, self)

    @cached_property
    def writing(self) -> WritingService:
        """Pages edited into change requests (one page's markdown, or a batch of tree edits), drafts kept until
        the service has them."""
        from folio.services.review.writing import WritingService

        return WritingService(self.client, self)

    @cached_property
    def pending_review(self) -> PendingReviewService:
        """Comments held on this machine during a review and sent with the verdict."""
        from folio.services.review.pending_review import PendingReviewService

        return PendingReviewService(self.client, self)

    @cached_property
    def mentions(self) -> MentionService:
        """Who can be mentioned with ``@`` in a space: its commenters and the organization's members."""
        from folio.services.review.mentions import MentionService

        return MentionService(self.client, self)

    @cached_property
    def preflight(self) -> PreflightService:
        """The merge pre-flight: a change request's merge rules and a careful reviewer's checks, before merging."""
        from folio.services.review.preflight import PreflightService

        return PreflightService(self.client, self)

    @cached_property
    def outbox(self) -> OutboxService | None:
        """The writes made offline, waiting to be sent (None when nothing is kept on this machine)."""
        from folio.services.review.outbox import outbox_of

        return outbox_of(self)

    async def aclose(self) -> None:
        if self._connecting is not None:  # a thread cannot be stopped: what it builds is closed
            try:
                built: GitBookClient | None = await self._connecting
            except Exception:
                built = None
            if built is not None and built is not self._client:
                await built.aclose()
        if self._client is not None:  # never built: nothing to close
            await self._client.aclose()


def _build(connect: Callable[[], GitBookClient]) -> GitBookClient:
    """``connect()`` and the first read's resource: run in a thread by :meth:`Services.connect`."""
    client = connect()
    client.organizations  # noqa: B018 - imports the resource and its models, off the event loop
    return client
