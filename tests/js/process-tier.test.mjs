// The process tier: a second session in the same process reads the pages the first one
// loaded without asking Chroma again, and never a page its own access would not give it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl, newBash, referenceFs, run, show } from "./helpers.mjs";
import { startProxy } from "../../support/proxy.mjs";

const PAGES = {
  "index.md": "welcome\nthe token lives in guides\n",
  "guides/a.md": "token a\n".repeat(50),
  "guides/b.md": "token b\n".repeat(50),
  "internal/keys.md": "the admin token\n",
};
const ACCESS = { "internal/**": { isPublic: false, groups: ["admin"] } };
let front;

before(async () => {
  const files = Object.entries(PAGES).map(([path, content]) => ({ path, content }));
  await ingest({ url: chromaUrl(), collection: "tier", files, access: ACCESS });
  front = await startProxy(chromaUrl());
});

after(() => front.close());

const connect = (extra = {}) => ChromaFs.connect({ url: front.url, collection: "tier", ...extra });

test("a second session reads what the first loaded, with no request", async () => {
  const first = await connect();
  const a = newBash(first, { customCommands: first.commands() });
  assert.equal((await run(a, "cat /guides/a.md /guides/b.md /index.md | wc -l")).stdout.trim(), "102");
  const second = await connect();
  const b = newBash(second, { customCommands: second.commands() });
  const before = front.requests.length;
  const r = await run(b, "cat /guides/a.md | head -1; cat /index.md | wc -l");
  assert.equal(r.stdout, "token a\n2\n", show(r));
  assert.equal(front.requests.length, before, "no request for pages the process holds");
  assert.equal(second.stats().processHits, 2);
  const ref = newBash(await referenceFs(Object.entries(PAGES).filter(([p]) => !p.startsWith("internal/")).map(([path, t]) => ({ path, content: Buffer.from(t), mtime: 0 }))));
  for (const cmd of ["grep -rn token /", "rg -c token /", "cat /guides/b.md | tail -2"]) {
    const [ours, theirs] = [await run(b, cmd), await run(ref, cmd)];
    assert.deepEqual([ours.stdout, ours.exitCode], [theirs.stdout, theirs.exitCode], cmd);
  }
});

test("an admin's pages do not reach a public session, and other credentials share nothing", async () => {
  const admin = await connect({ groups: ["admin"] });
  assert.equal(await admin.readFile("/internal/keys.md"), "the admin token\n");
  const pub = await connect();
  const b = newBash(pub, { customCommands: pub.commands() });
  const r = await run(b, "cat /internal/keys.md; grep -rl admin /");
  assert.equal(r.stdout, "", show(r));
  assert.match(r.stderr, /No such file or directory/);
  const other = await connect({ headers: { "x-tenant-key": "another" } });
  const before = front.requests.length;
  await other.readFile("/guides/a.md");
  assert.ok(front.requests.length > before, "a session with other credentials reads through Chroma");
  assert.equal(other.stats().processHits, 0);
});

test("processCacheBytes: 0 keeps nothing for the process", async () => {
  await connect({ processCacheBytes: 0 });
  const fresh = await connect();
  const before = front.requests.length;
  await fresh.readFile("/guides/a.md");
  assert.ok(front.requests.length > before);
  await connect({ processCacheBytes: 64 << 20 });
});
