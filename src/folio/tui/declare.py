"""How a screen declares itself: one :class:`Route` at the top level of its module, read by ``folio.tui.routes``
without importing the module (start-up imports no screen but the first). Everything that reaches a screen reads
this declaration: the ``:`` command line and its suggestions, the ``?`` help, the palette's go-to, the session,
``Open`` from any list, the organization screen's one-key shortcuts and the README's list of commands.

    TRASH = Route(
        "trash",
        "trash",
        screen="TrashScreen",
        verbs=("trash",),
        find="organization",
        key="X",
        label="Trash",
        summary="the organization's deleted spaces, restorable for 7 days: u restores one",
    )

The arguments are literals only (``folio.tui.routes`` reads them with :func:`ast.literal_eval`). The screen's
area (``people``, ``content``, ``review``, ``sites``, ``insights``) is the package its module is in.

How a verb finds what it opens (:attr:`Route.find`):

    title         a loaded thing whose title matches the argument (``:space getting started``)
    number        a change request of the open space by number (``:cr 12``)
    organization  the screen of the organization in view (or the only one loaded); the words after the verb, if
                  any, are handed to the screen as ``words`` (``:members ada``, ``:search webhooks``)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Find", "Route"]

Find = Literal["title", "number", "organization", "none"]


@dataclass(frozen=True)
class Route:
    kind: str
    """The name used everywhere else: ``Open(kind, ...)``, ``remember(kind, ...)``, the session."""
    noun: str
    screen: str
    """The screen's class, in the module that declares this route."""
    plural: str = ""
    """The noun's plural (by default the noun and an ``s``)."""
    ids: tuple[str, ...] = ()
    """The ids the screen is built from, which are also the screen's attributes the session saves (a screen of
    the organization in view: ``org_id``)."""
    optional: tuple[str, ...] = ()
    """Ids that may be missing (the screen's own default then); a screen of the organization in view: ``words``."""
    verbs: tuple[str, ...] = ()
    """The ``:`` verbs that reach it (the first is the one the help shows)."""
    find: Find = "none"
    session: bool = True
    go_to: bool = True
    """Whether the palette's go-to lists the things of this kind that were loaded."""
    summary: str = ""
    """What the screen shows, for the ``?`` help, the command line's suggestions and the README."""
    key: str = ""
    """The organization screen's one key for it (``M``, ``comma``), if it has one."""
    label: str = ""
    """That key's label in the help (``Members``)."""
    hint: str = ""
    """That key's tooltip (by default the summary)."""
    titled: bool = False
    """Whether the screen takes the title it was opened with (``title=``: its crumb until it has loaded)."""
    order: int = 50
    """Where the help and the README list it among the routes of its area (then by kind)."""
    module: str = field(default="", compare=False)
    """The module that declares it (set by ``folio.tui.routes``)."""
    area: str = field(default="", compare=False)
    """The area of the product it belongs to: the package of its module (set by ``folio.tui.routes``)."""

    def __post_init__(self) -> None:
        if not self.plural:
            object.__setattr__(self, "plural", self.noun + "s")
        if self.find == "organization":
            object.__setattr__(self, "ids", self.ids or ("org_id",))
            object.__setattr__(self, "optional", self.optional or ("words",))
            object.__setattr__(self, "go_to", False)  # one per organization: the go-to does not list it

    @property
    def title(self) -> str:
        """``Change request``: the noun as a heading."""
        return self.noun[:1].upper() + self.noun[1:]

    @property
    def key_hint(self) -> str:
        """The tooltip of its one key: ``Members of the organization: roles, SSO, removal (:members)``."""
        text = self.hint or (self.summary[:1].upper() + self.summary[1:])
        return f"{text} (:{self.verbs[0]})" if self.verbs else text

    def usage(self) -> str:
        """``:cr <number>``, ``:space <title>``, ``:members [words]``."""
        verb = f":{self.verbs[0]}" if self.verbs else ""
        argument = {"title": " <title>", "number": " <number>", "organization": " [words]", "none": ""}[self.find]
        return verb + argument
