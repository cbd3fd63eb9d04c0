"""``folio.cache`` is the standard library and the config paths: it loads neither the API layer nor anything heavy,
so the first paint can come from the cache before httpx and pydantic are imported."""

from __future__ import annotations

import json
import subprocess
import sys


def test_importing_the_cache_loads_nothing_heavy() -> None:
    probe = "import json, sys\nimport folio.cache\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(json.loads(result.stdout))
    assert "folio.cache.responses" in loaded and "folio.cache.state" in loaded
    for heavy in ("textual", "httpx", "pydantic", "folio.api", "folio.models", "folio.services", "folio.tui"):
        assert heavy not in loaded, f"import folio.cache loaded {heavy}"
