"""Content: organizations, collections, spaces and their pages, search, trash, translations."""
