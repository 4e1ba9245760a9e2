// llms.txt and llms-full.txt: the HTTP server's /llms.txt and /llms-full.txt for an anonymous
// caller and for one whose token gives a group, and `chromafs llms-txt` (the real bin)
// writing them for a static site. A hidden page leaves no trace: for an anonymous caller the
// files are byte for byte those of a collection that never held it (titles, counts,
// sections, caps and their notes); what they cost in requests stays within Chroma Cloud's
// quotas and does not grow a request a page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ingest } from "chromafs";
import { serveHttp, tokenAuthorizer } from "chromafs/mcp";
import { ROOT, chromaUrl } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

const run = promisify(execFile);

// Public pages in three places (directly under /, guides/, many/), descriptions in front
// matter, and hidden pages among them: one in a public folder, one in a folder of its own,
// one directly under / (its section would be the first).
const PUBLIC = {
  "index.md": "---\ntitle: Acme docs\ndescription: Where to start with Acme\n---\n# Acme\nStart here.\n",
  "changelog.md": "# Changelog\n- 1.0\n",
  "guides/install.mdx": '---\ntitle: "Install [the] CLI"\ndescription: Two commands, one minute\n---\nRun it.\n',
  "guides/rotate-api_keys.mdx": "# Rotating keys\nRotate them yearly.\n",
  "api/spec.json": '{"openapi":"3.1.0"}\n',
  ...Object.fromEntries(Array.from({ length: 140 }, (_, i) => [`many/p${String(i).padStart(3, "0")}.md`, `# Page ${i}\n${"text ".repeat(40)}\n`])),
};
const HIDDEN = {
  "guides/escalation.md": "---\ntitle: Escalation rota\ndescription: Who to page at night\n---\nthe escalation rota\n",
  "internal/oncall.md": "# On call\nPage the escalation rota.\n",
  "aaa-secret.md": "# Launch codes\n0000\n",
};
const ACCESS = {
  "internal/**": { isPublic: false, groups: ["staff"] },
  "guides/escalation.md": { isPublic: false, groups: ["staff"] },
  "aaa-secret.md": { isPublic: false, groups: ["staff"] },
};
const TOKENS = { "staff-secret-token": ["staff"], "public-token-0123456": [] };
const BASE = "https://docs.acme.test";
const files = (pages) => Object.entries(pages).map(([p, content]) => ({ path: p, content }));
const SECRETS = /escalation|oncall|On call|Launch codes|aaa-secret|internal|Who to page/;
const servers = [];

/** A server over `collection`, answering bearer tokens, with `llms` caps. */
async function serve(collection, options = {}) {
  const server = await serveHttp({ url: options.url ?? chromaUrl(), collection }, { authorize: tokenAuthorizer(TOKENS), docs: "the Acme docs", baseUrl: BASE, ...options.server });
  servers.push(server);
  return server;
}

/** GET `file` from `server` with `token` (none: anonymous): `{ status, headers, text }`. */
async function get(server, file, { token, method = "GET", headers = {} } = {}) {
  const res = await fetch(new URL(file, server.url), { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

let both;
let publicOnly;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "llms-txt", files: files({ ...PUBLIC, ...HIDDEN }), access: ACCESS });
  await ingest({ url: chromaUrl(), collection: "llms-txt-public", files: files(PUBLIC) });
  both = await serve("llms-txt");
  publicOnly = await serve("llms-txt-public");
});
after(async () => {
  for (const s of servers) await s.close();
});

test("llms.txt: titles, sources and descriptions, a section a top-level folder, the pages under / first", async () => {
  const { status, headers, text } = await get(both, "/llms.txt");
  assert.equal(status, 200);
  assert.match(headers.get("content-type"), /^text\/plain; charset=utf-8/);
  assert.match(headers.get("cache-control"), /private/);
  const lines = text.split("\n");
  assert.equal(lines[0], "# The Acme docs");
  assert.match(text, /^> 145 pages, each with its source/m);
  assert.ok(lines.includes(`- [Acme docs](${BASE}/): Where to start with Acme`), "front matter title and description; index is its directory");
  assert.ok(lines.includes(`- [Install \\[the\\] CLI](${BASE}/guides/install): Two commands, one minute`), "brackets escaped");
  assert.ok(lines.includes(`- [Rotating keys](${BASE}/guides/rotate-api_keys)`), "the first heading; no description");
  assert.ok(lines.includes(`- [Spec](${BASE}/api/spec)`), "a page stating no title is titled from its file name");
  const sections = lines.filter((l) => l.startsWith("## "));
  assert.deepEqual(sections, ["## /", "## /api/", "## /guides/", "## /many/"]);
  const first = lines.indexOf("## /");
  assert.deepEqual(lines.slice(first + 2, first + 4), [`- [Changelog](${BASE}/changelog)`, `- [Acme docs](${BASE}/): Where to start with Acme`]);
  assert.equal(lines.filter((l) => l.startsWith("- [")).length, 145, "every page listed");
  assert.doesNotMatch(text, /not listed/);
});

test("llms.txt for an anonymous caller is the one of docs that never held the hidden pages; a staff token lists them", async () => {
  const anonymous = await get(both, "/llms.txt");
  const groupless = await get(both, "/llms.txt", { token: "public-token-0123456" });
  const reference = await get(publicOnly, "/llms.txt");
  assert.equal(anonymous.text, reference.text, "not listed, not counted, no section of their own");
  assert.equal(groupless.text, reference.text);
  assert.doesNotMatch(anonymous.text, SECRETS);
  const staff = await get(both, "/llms.txt", { token: "staff-secret-token" });
  assert.equal(staff.status, 200);
  assert.match(staff.text, /^> 148 pages/m);
  assert.match(staff.text, /- \[Escalation rota\]\(https:\/\/docs\.acme\.test\/guides\/escalation\): Who to page at night/);
  assert.match(staff.text, /## \/internal\/\n\n- \[On call\]/);
  const unknown = await get(both, "/llms.txt", { token: "not-a-token-we-know-of" });
  assert.equal(unknown.text, reference.text, "a token the server does not know reads the public pages, as at /mcp");
  const well = await get(both, "/.well-known/llms.txt");
  assert.equal(well.text, anonymous.text);
});

test("llms-full.txt: each page's title, source and text; hidden pages are neither read nor counted", async () => {
  const anonymous = await get(both, "/llms-full.txt");
  assert.equal(anonymous.status, 200);
  assert.equal(anonymous.text, (await get(publicOnly, "/llms-full.txt")).text);
  assert.doesNotMatch(anonymous.text, SECRETS);
  assert.match(anonymous.text, /^> The text of 145 pages/m);
  assert.ok(anonymous.text.includes(`\n# Install [the] CLI\nSource: ${BASE}/guides/install\n\n${PUBLIC["guides/install.mdx"]}`));
  assert.ok(anonymous.text.includes(`\n# Page 139\nSource: ${BASE}/many/p139\n\n${PUBLIC["many/p139.md"]}`));
  assert.doesNotMatch(anonymous.text, /capped/);
  const staff = await get(both, "/llms-full.txt", { token: "staff-secret-token" });
  assert.match(staff.text, /^> The text of 148 pages/m);
  assert.ok(staff.text.includes("Page the escalation rota."));
  const head = await get(both, "/llms-full.txt", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(Number(head.headers.get("content-length")), Buffer.byteLength(anonymous.text));
  assert.equal(head.text, "");
});

test("the caps: llms.txt and llms-full.txt stop at whole pages with a note that counts visible pages only", async () => {
  const server = { llms: { maxChars: 3000, maxBytes: 6000 } };
  // Made in the server's own thread here, in a worker for the reference: the same files.
  const capped = await serve("llms-txt", { server: { ...server, workers: 0 } });
  const reference = await serve("llms-txt-public", { server });
  const index = await get(capped, "/llms.txt");
  assert.ok(index.text.length <= 3000, `${index.text.length} characters`);
  const listed = index.text.split("\n").filter((l) => l.startsWith("- [")).length;
  assert.ok(listed > 5 && listed < 145, `${listed} listed`);
  assert.ok(index.text.endsWith(`\n> ${145 - listed} more pages are not listed: this file is capped at 3,000 characters. llms-full.txt has the pages' text.\n`), index.text.slice(-300));
  assert.equal(index.text, (await get(reference, "/llms.txt")).text, "the cap and its note are the same without the hidden pages");
  const full = await get(capped, "/llms-full.txt");
  assert.ok(Buffer.byteLength(full.text) <= 6000, `${Buffer.byteLength(full.text)} bytes`);
  const included = full.text.split("\nSource: ").length - 1;
  assert.match(full.text, new RegExp(`\\n> This file is capped at 6,000 bytes: it holds the first ${included} pages of 145, in llms\\.txt's order\\.\\n$`));
  assert.equal(full.text, (await get(reference, "/llms-full.txt")).text);
  const staff = await get(capped, "/llms-full.txt", { token: "staff-secret-token" });
  assert.match(staff.text, /pages of 148, in llms\.txt's order\.\n$/);
});

test("the endpoint's rules hold: a foreign Origin gets 403, other methods 405, a missing token 401 with --require-token", async () => {
  const foreign = await get(both, "/llms.txt", { headers: { origin: "https://evil.example" } });
  assert.equal(foreign.status, 403);
  const post = await get(both, "/llms.txt", { method: "POST" });
  assert.equal(post.status, 405);
  const strict = await serve("llms-txt", { server: { requireToken: true } });
  const refused = await get(strict, "/llms-full.txt");
  assert.equal(refused.status, 401);
  assert.match(refused.headers.get("www-authenticate"), /^Bearer/);
  const allowed = await get(strict, "/llms-full.txt", { token: "public-token-0123456" });
  assert.equal(allowed.text, (await get(publicOnly, "/llms-full.txt")).text);
});

test("what the files cost does not grow a request a page, stays within Cloud's quotas, and a hidden page costs nothing", async () => {
  const front = await startProxy(chromaUrl(), { quotas: true });
  try {
    const server = await serve("llms-txt", { url: front.url, server: { workers: 1 } });
    await get(server, "/llms.txt"); // the worker's session opens
    const cost = async (file, token) => {
      front.reset();
      const { status } = await get(server, file, { token });
      assert.equal(status, 200);
      return front.requests.map((r) => `${r.method} ${r.path}`);
    };
    const index = await cost("/llms.txt");
    // The freshness check, then the headings of 145 pages: two requests of 100 first chunks.
    assert.equal(index.length, 3, index.join("\n"));
    const full = await cost("/llms-full.txt");
    assert.ok(full.length <= 5, `145 pages in bulk, not a request each: ${full.join("\n")}`);
    const bodies = front.requests.map((r) => r.body ?? "").join("\n");
    assert.doesNotMatch(bodies, SECRETS, "no request names a hidden page");
    assert.deepEqual(front.violations, []);
  } finally {
    await front.close();
  }
});

test("chromafs llms-txt writes the public pages' files, as the server answers an anonymous caller", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "chromafs-llms-"));
  try {
    const cli = path.join(ROOT, "pkg/bin/chromafs.mjs");
    const common = ["--url", chromaUrl(), "--collection", "llms-txt", "--base-url", BASE, "--docs", "the Acme docs"];
    const out = path.join(dir, "site");
    const { stdout } = await run(process.execPath, [cli, "llms-txt", ...common, "--out", out]);
    assert.match(stdout, /llms\.txt \(145 of 145 pages listed/);
    assert.match(stdout, /llms-full\.txt \(145 of 145 pages/);
    assert.doesNotMatch(stdout, SECRETS);
    assert.equal(await readFile(path.join(out, "llms.txt"), "utf8"), (await get(both, "/llms.txt")).text);
    assert.equal(await readFile(path.join(out, "llms-full.txt"), "utf8"), (await get(both, "/llms-full.txt")).text);
    const staff = path.join(dir, "staff");
    await run(process.execPath, [cli, "llms-txt", ...common, "--groups", "staff", "--out", staff, "--llms-max-chars", "3000"]);
    const index = await readFile(path.join(staff, "llms.txt"), "utf8");
    assert.ok(index.length <= 3000);
    assert.match(index, /^> 148 pages/m);
    assert.match(index, /- \[Launch codes\]/, "the first page under / is the staff's hidden one");
    const mounted = path.join(dir, "mounted");
    const mounts = ["--mount", "/docs=llms-txt", "--mount", "/pub=llms-txt-public@https://pub.acme.test"];
    await run(process.execPath, [cli, "llms-txt", "--url", chromaUrl(), ...mounts, "--out", mounted]);
    const listed = await readFile(path.join(mounted, "llms.txt"), "utf8");
    assert.deepEqual(listed.split("\n").filter((l) => l.startsWith("## ")), ["## /docs/", "## /pub/"], "each mount is a section");
    assert.match(listed, /^> 290 pages/m);
    assert.ok(listed.includes("- [Acme docs](chromafs://docs/index.md): Where to start with Acme"), "a mount without a site links its resource");
    assert.ok(listed.includes("- [Acme docs](https://pub.acme.test/): Where to start with Acme"), "a mount's site");
    assert.doesNotMatch(listed, SECRETS);
    const help = await run(process.execPath, [cli, "llms-txt", "--help"]);
    assert.match(help.stdout, /--out DIR/);
    const wrong = await run(process.execPath, [cli, "llms-txt", ...common, "extra"]).catch((e) => e);
    assert.equal(wrong.code, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
