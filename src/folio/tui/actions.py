"""Actions that say why they cannot act now, instead of doing nothing.

A screen or widget mixes in :class:`Explains` and answers :meth:`Explains.why_not` (``"Only admins can change
roles."``); the binding is then greyed out in the footer and marked in ``?``, and pressing its key shows the
reason (the app calls :func:`why_unavailable` for every key no binding took).
"""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode

from folio.tui.textual_private import check_action_state, modal_binding_chain

__all__ = ["Explains", "action_name", "why_unavailable"]


def action_name(action: str) -> str:
    """``inbox_toggle('mine')`` -> ``inbox_toggle``; ``app.quit`` -> ``quit``."""
    return action.split("(", 1)[0].rsplit(".", 1)[-1]


class Explains(DOMNode):
    """Greys out, and explains, the actions :meth:`why_not` gives a reason for.

    Mix it in *after* the widget class (``class Panel(Vertical, Explains)``): Textual finds a widget's CSS type
    names by following the first base only, so a first base of ``Explains`` would hide ``Vertical`` or ``Screen``
    from the stylesheets."""

    def why_not(self, action: str) -> str | None:
        """Why ``action`` (its name, no parameters) cannot act now, in a sentence; None: it can."""
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if self.why_not(action) else True


def why_unavailable(screen: Any, key: str) -> str | None:
    """The reason the binding of ``key`` on ``screen`` is greyed out, if one says why.

    The binding is the one ``screen.active_bindings`` has for ``key`` (the footer's and ``?``'s), found among the
    key's own bindings only: building every active binding of the screen cost about 2 ms for each key typed (the
    app asks at every key no binding took). Down the screen's binding chain (the focused widget first, then its
    ancestors, the screen and the app), a priority binding comes first, then the first other one; a binding whose
    action is hidden here (``check_action`` False) is skipped."""
    try:
        app = screen.app
        found = [
            (binding.priority, node, binding)
            for node, bindings in modal_binding_chain(screen)
            for binding in bindings.key_to_bindings.get(key, ())
        ]
        greyed: tuple[Any, Any] | None = None
        for _priority, node, binding in sorted(found, key=lambda each: not each[0]):  # (stable: chain order kept)
            state = check_action_state(app, binding.action, node)
            if state is not False:  # (False: hidden here, not this key's binding)
                greyed = None if state else (node, binding)
                break
    # broad: this reads Textual's private binding chain; whatever a change there raises must not break a key press
    except Exception:
        return None
    if greyed is None:
        return None
    node, binding = greyed
    why = getattr(node, "why_not", None)
    return why(action_name(binding.action)) if callable(why) else None
