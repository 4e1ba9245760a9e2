// The process tier: a second session in the same process reads the pages the first one
// loaded without asking Chroma again, and never a page its own access would not give it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl, newBash, reference, run, sameOutput, show } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

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

test("a second session reads what the first loaded, with one small request that checks the tree is current", async () => {
  const first = await connect();
  const a = newBash(first, { customCommands: first.commands() });
  assert.equal((await run(a, "cat /guides/a.md /guides/b.md /index.md | wc -l")).stdout.trim(), "102");
  const second = await connect();
  const b = newBash(second, { customCommands: second.commands() });
  const before = front.requests.length;
  const r = await run(b, "cat /guides/a.md | head -1; cat /index.md | wc -l");
  assert.equal(r.stdout, "token a\n2\n", show(r));
  const sent = front.requests.slice(before);
  assert.equal(sent.length, 1, "one request for the command, whatever it reads from the process");
  assert.match(sent[0].body, /"ids":\["__path_tree__"/, "the check a connect makes, not a page read");
  assert.equal(second.stats().processHits, 2);
  const ref = await reference(Object.entries(PAGES).filter(([p]) => !p.startsWith("internal/")).map(([path, t]) => ({ path, content: Buffer.from(t), mtime: 0 })));
  for (const cmd of ["grep -rn token /", "rg -c token /", "cat /guides/b.md | tail -2"]) await sameOutput(b, ref, cmd, second);
  ref.remove();
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

test("a page a re-ingest made private is not served from the tier to a session opened before", async () => {
  const files = Object.entries(PAGES).map(([path, content]) => ({ path, content }));
  const reingest = (access) => ingest({ url: chromaUrl(), collection: "tier-revoked", files, access });
  await reingest(ACCESS);
  const connectHere = () => ChromaFs.connect({ url: front.url, collection: "tier-revoked" });
  const [a, b] = [await connectHere(), await connectHere()];
  assert.equal(await a.readFile("/guides/a.md"), PAGES["guides/a.md"]);
  await reingest({ ...ACCESS, "guides/a.md": { isPublic: false, groups: ["admin"] } });
  const bash = newBash(b, { customCommands: b.commands() });
  const r = await run(bash, "cat /guides/a.md");
  assert.equal(r.stdout, "", show(r));
  assert.match(r.stderr, /^cat: \/guides\/a.md: Input\/output error \(page "guides\/a.md" is not readable by this session any more/);
  assert.equal(b.stats().processHits, 0);
  const grep = await run(bash, "grep -rl token /guides");
  assert.doesNotMatch(grep.stdout, /a\.md/, show(grep));
  const c = await connectHere();
  assert.equal(await c.exists("/guides/a.md"), false, "a new session does not list it");
  const d = newBash(c, { customCommands: c.commands() });
  assert.equal((await run(d, "cat /guides/b.md | head -1")).stdout, "token b\n", "other pages are still shared");
});

test("processCacheBytes: 0 keeps nothing for the process", async () => {
  await connect({ processCacheBytes: 0 });
  const fresh = await connect();
  const before = front.requests.length;
  await fresh.readFile("/guides/a.md");
  assert.ok(front.requests.length > before);
  await connect({ processCacheBytes: 64 << 20 });
});
