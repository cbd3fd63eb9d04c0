"""Use-cases over the API (and, later, the cache): what the screens ask for, in the product's words.

Services never import Textual; screens receive them in their constructors.
"""

from folio.services.browse import BrowseService

__all__ = ["BrowseService"]
