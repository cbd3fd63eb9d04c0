"""The official TypeScript client's side of the paging benchmark: ``@gitbook/api`` driven in a node process.

node, why_not = ensure_node_client()      # installs @gitbook/api@0.202.0 into .cache/bench/node if missing
client = NodeClient(node, url, org_id, limit=1000)
client.page(10)                           # {"ms": ..., "items": 10000, "pages": 10}, timed inside node
client.close()
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.bench.common import BENCH_TOKEN, DEFAULT_DIR

__all__ = ["NODE_PACKAGE", "NODE_PREFIX", "NODE_VERSION", "NodeClient", "ensure_node_client"]

NODE_PACKAGE, NODE_VERSION = "@gitbook/api", "0.202.0"
NODE_PREFIX = DEFAULT_DIR / "node"
NODE_SCRIPT = Path(__file__).with_name("node") / "paging.mjs"


def ensure_node_client() -> tuple[str | None, str]:
    """The node executable with ``@gitbook/api`` installed under ``.cache/bench/node``, or None and why not."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None:
        return None, "node is not installed"
    manifest = NODE_PREFIX / "node_modules" / NODE_PACKAGE / "package.json"
    installed = json.loads(manifest.read_text()).get("version") if manifest.exists() else None
    if installed != NODE_VERSION:
        if npm is None:
            return None, "npm is not installed"
        NODE_PREFIX.mkdir(parents=True, exist_ok=True)
        command = [npm, "install", "--prefix", str(NODE_PREFIX), "--no-audit", "--no-fund", "--save-exact"]
        print(f"Installing {NODE_PACKAGE}@{NODE_VERSION} into {NODE_PREFIX} ...", flush=True)
        try:
            out = subprocess.run(
                [*command, "--loglevel=error", f"{NODE_PACKAGE}@{NODE_VERSION}"],
                capture_output=True,
                text=True,
                timeout=300,
            )
        except subprocess.TimeoutExpired:
            return None, "npm install timed out"
        if out.returncode != 0:
            return None, f"npm install failed: {(out.stderr or out.stdout).strip()[-300:]}"
    return node, ""


class NodeClient:
    """``tests/bench/node/paging.mjs`` kept running: one line in (pages deep), one JSON line out."""

    def __init__(self, node: str, endpoint: str, org: str, limit: int) -> None:
        self.proc = subprocess.Popen(
            [
                node,
                str(NODE_SCRIPT),
                *("--prefix", str(NODE_PREFIX), "--endpoint", endpoint, "--token", BENCH_TOKEN),
                *("--org", org, "--limit", str(limit)),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        hello = self._read()
        self.version = str(hello.get("version"))

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the node client ended (exit status {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the node client failed: {answer['error']}")
        return answer

    def page(self, depth: int) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{depth}\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
