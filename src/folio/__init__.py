"""Folio: a keyboard-driven terminal client for the GitBook API."""

__version__ = "0.1.0"
