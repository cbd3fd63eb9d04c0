"""Textual takes a node's default CSS, CSS type names and component classes from its chain of *first* DOM bases
only. A screen whose first base is a mixin (even one that is a ``DOMNode``) loses ``Screen``'s: its
``screen--selection`` style is then missing and the first text selection on it ends Folio with a ``KeyError``
(the organization screen did, on a mouse drag in the collections tree). Every screen and widget of ``folio.tui``
keeps its Textual base in that chain."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.screen import Screen
from textual.widget import Widget

import folio.tui


def _classes() -> list[type]:
    found: list[type] = []
    for module in pkgutil.walk_packages(folio.tui.__path__, "folio.tui."):
        loaded = importlib.import_module(module.name)
        found += [c for _, c in inspect.getmembers(loaded, inspect.isclass) if c.__module__ == module.name]
    return found


def test_every_screen_keeps_the_styles_of_textuals_screen() -> None:
    screens = [c for c in _classes() if issubclass(c, Screen)]
    assert screens
    lost = [c.__qualname__ for c in screens if Screen not in c._css_bases(c)]
    assert lost == []
    assert all("screen--selection" in c._get_component_classes() for c in screens)


def test_every_widget_keeps_the_styles_of_textuals_widget() -> None:
    widgets = [c for c in _classes() if issubclass(c, Widget)]
    lost = [c.__qualname__ for c in widgets if Widget not in c._css_bases(c)]
    assert lost == []
