"""Review: change requests, their diffs, comments and threads, verdicts and merges."""
