// The official TypeScript client (@gitbook/api) paging an organization's spaces, for bench_paging.py.
//
//   node tests/bench/node/paging.mjs --prefix .cache/bench/node --endpoint http://127.0.0.1:PORT \
//        --token TOKEN --org ORG_ID --limit 1000
//
// Prints one JSON line {"ready": true, "version": "..."} once loaded, then reads commands on stdin, one a line:
// a number N pages the spaces list N pages deep (following next.page, `limit` items a page) and prints
// {"ms": <time of the paging alone>, "items": <items read>, "pages": <pages read>}; "quit" (or end of input) ends.
// The client parses each page's JSON and validates nothing, as it does for any caller.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

function options(argv) {
    const out = {};
    for (let i = 0; i < argv.length; i += 2) {
        if (!argv[i].startsWith("--")) throw new Error(`unexpected argument ${argv[i]}`);
        out[argv[i].slice(2)] = argv[i + 1];
    }
    for (const name of ["prefix", "endpoint", "token", "org", "limit"]) {
        if (!out[name]) throw new Error(`--${name} is required`);
    }
    return out;
}

const opts = options(process.argv.slice(2));
const packageDir = join(opts.prefix, "node_modules", "@gitbook", "api");
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const entry = manifest.exports?.["."]?.import ?? manifest.module ?? manifest.main;
const { GitBookAPI } = await import(pathToFileURL(join(packageDir, entry)).href);
const api = new GitBookAPI({ authToken: opts.token, endpoint: opts.endpoint });
const limit = Number(opts.limit);

async function page(depth) {
    let items = 0;
    let pages = 0;
    let cursor;
    const t0 = performance.now();
    while (pages < depth) {
        const query = cursor ? { limit, page: cursor } : { limit };
        const { data } = await api.orgs.listSpacesInOrganizationById(opts.org, query);
        items += data.items.length;
        pages += 1;
        cursor = data.next?.page;
        if (!cursor) break;
    }
    return { ms: performance.now() - t0, items, pages };
}

process.stdout.write(JSON.stringify({ ready: true, version: manifest.version }) + "\n");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
    const command = line.trim();
    if (command === "quit") break;
    if (!command) continue;
    try {
        process.stdout.write(JSON.stringify(await page(Number(command))) + "\n");
    } catch (error) {
        process.stdout.write(JSON.stringify({ error: String(error?.message ?? error) }) + "\n");
    }
}
process.exit(0);
