// What a session must not learn or be shown: another group set's listing through a name
// that holds a separator, lines forged by control characters in a tree, the session's own
// credentials echoed back by a server, or — through what a search costs — text that only
// hidden pages hold. Real Chroma, with a proxy playing the hostile server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { chromaUrl } from "../helpers.mjs";
import { chroma, collectionId, startProxy } from "../../../support/proxy.mjs";

const TOKEN = "ck-live-7f3a9c1e5b";
const HEADER = "gw-key-4d2b8e6a";

/**
 * A new collection as another tool writes it: chunks with a slug and an index only, one
 * tree record. Returns its name.
 */
let made = 0;
async function foreign(prefix, pages) {
  const collection = `${prefix}-${made++}`;
  const { id } = await chroma(chromaUrl(), "POST", "/collections", { name: collection, get_or_create: true });
  const records = [];
  const tree = {};
  for (const [slug, chunks, access] of pages) {
    chunks.forEach((doc, i) => records.push({ id: `${slug}#${i}`, doc, meta: { page_slug: slug, chunk_index: i } }));
    tree[slug] = { ...access, size: Buffer.byteLength(chunks.join("")), chunks: chunks.length };
  }
  records.push({ id: "__path_tree__", doc: JSON.stringify(tree), meta: { chromafs: "path-tree", line_aligned: true } });
  for (let i = 0; i < records.length; i += 300) {
    const batch = records.slice(i, i + 300);
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: batch.map((r) => r.id), embeddings: batch.map(() => [0, 1]), documents: batch.map((r) => r.doc), metadatas: batch.map((r) => r.meta),
    });
  }
  return collection;
}

async function shell(collection, options = {}) {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection, ...options });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  return { fs, exec: (cmd) => safeExec(bash, cmd) };
}

test("a group whose name holds a separator is one group, whichever session connects first", async () => {
  const collection = await foreign("leaks-groups", [
    ["index.md", ["welcome\n"], { isPublic: true }],
    ["internal/secret.md", ["the launch code\n"], { isPublic: false, groups: ["admin"] }],
  ]);
  for (const order of [["pair", "joined"], ["joined", "pair"]]) {
    ChromaFs.forgetTrees();
    for (const who of order) {
      const groups = who === "pair" ? ["admin", "zzz"] : ["admin\u001fzzz"];
      const { exec } = await shell(collection, { groups });
      const find = await exec("find / -type f");
      const cat = await exec("cat /internal/secret.md");
      if (who === "pair") {
        assert.equal(find.stdout, "/index.md\n/internal/secret.md\n", `${order}: ${who}`);
        assert.equal(cat.stdout, "the launch code\n");
      } else {
        assert.equal(find.stdout, "/index.md\n", `${order}: ${who}`);
        assert.equal(cat.stderr, "cat: /internal/secret.md: No such file or directory\n");
      }
    }
  }
});

test("a tree slug holding a control character is set aside: never printed, named escaped to the operator", async () => {
  for (const [slug, shown] of [
    ["a\nb.md", String.raw`"a\nb.md"`],
    ["d\nforged/page.md", String.raw`"d\nforged/page.md"`],
    ["a\rb.md", String.raw`"a\rb.md"`],
    ["\u001b[2Jclear.md", String.raw`"\u{1b}[2Jclear.md"`],
    ["c1\u009b31m.md", String.raw`"c1\u{9b}31m.md"`],
  ]) {
    const collection = await foreign("leaks-slugs", [["ok.md", ["fine\n"], { isPublic: true }], [slug, ["forged\n"], { isPublic: true }]]);
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection });
    const [problem] = fs.info().brokenPages;
    assert.ok(problem.includes(`corrupt path tree: entry ${shown}: path contains the control character`), problem);
    assert.ok(!/[\u0000-\u001f\u007f-\u009f]/.test(problem), `a raw control character in ${JSON.stringify(problem)}`);
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    for (const cmd of ["find /", "ls -R /", "grep -r forged /", "grep -rl . /", "tree /"]) {
      const r = await safeExec(bash, cmd);
      assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(r.stdout + r.stderr), `${cmd}: ${JSON.stringify(r)}`);
      assert.doesNotMatch(r.stdout, /forged|clear|c1/, cmd);
    }
    assert.equal((await safeExec(bash, "cat /ok.md")).stdout, "fine\n", "the rest of the collection is served");
  }
  const r = await ingest({ url: chromaUrl(), collection: "leaks-slugs-ingest", files: [{ path: "a\nb.md", content: "x\n" }] }).then(
    () => "written",
    (e) => e.message,
  );
  assert.match(r, /"a\\nb.md": not a usable page path \(path contains the control character '\\n'\)/);
});

test("a server that echoes the request shows the agent no credential, in one short line", async (t) => {
  await ingest({ url: chromaUrl(), collection: "leaks-echo", files: [{ path: "a.md", content: "alpha\n" }] });
  const proxy = await startProxy(chromaUrl());
  t.after(() => proxy.close());
  const connect = () => ChromaFs.connect({ url: proxy.url, collection: "leaks-echo", token: TOKEN, headers: { "x-gateway-key": HEADER }, retries: 0 });
  const fs = await connect();
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const echo = (req) => `request rejected\n${JSON.stringify(req.headers)}\n${"padding ".repeat(100)}`;
  for (const [status, body] of [
    [500, (req) => JSON.stringify({ error: "InternalError", message: echo(req) })],
    [401, (req) => JSON.stringify({ error: "Unauthorized", message: echo(req) })],
    [422, (req) => JSON.stringify({ message: echo(req) })],
    [400, (req) => echo(req)],
  ]) {
    proxy.state.respond = (req) => (req.url.endsWith("/get") ? { status, headers: { "content-type": "text/plain" }, body: body(req) } : null);
    const r = await safeExec(bash, "cat /a.md");
    assert.notEqual(r.exitCode, 0);
    for (const text of [r.stderr, JSON.stringify(fs.stats())]) {
      assert.ok(!text.includes(TOKEN) && !text.includes(HEADER), `HTTP ${status}: ${text.slice(0, 400)}`);
    }
    assert.ok(r.stderr.includes(`"x-chroma-token":"[redacted]"`) && r.stderr.includes(`"x-gateway-key":"[redacted]"`), r.stderr);
    assert.equal(r.stderr.split("\n").length, 2, "one line");
    assert.ok(r.stderr.length < 500, r.stderr);
    proxy.state.respond = (req) => ({ status, body: body(req) });
    ChromaFs.forgetTrees();
    await assert.rejects(connect(), (e) => {
      assert.ok(!e.message.includes(TOKEN) && !e.message.includes(HEADER) && !e.message.includes("\n"), e.message);
      return true;
    });
    proxy.reset();
  }
});

test("a header fetch cannot send is refused at connect, naming the header and never its value", async () => {
  for (const [options, message] of [
    [{ headers: { "x-gateway-key": `${HEADER}\r\nx-injected: 1` } }, `header "x-gateway-key" has a value fetch cannot send`],
    [{ token: `${TOKEN}\n` }, "option token has a value fetch cannot send"],
  ]) {
    await assert.rejects(ChromaFs.connect({ url: chromaUrl(), collection: "leaks-echo", ...options }), (e) => {
      assert.ok(e.message.includes(message), e.message);
      assert.ok(!e.message.includes(HEADER) && !e.message.includes(TOKEN), e.message);
      return true;
    });
  }
});

test("what a search costs does not depend on text only hidden pages hold", async () => {
  // Twelve visible pages, more than one query's slug list may name, and one hidden page of
  // 400 chunks: holding the word, or not.
  const visible = Array.from({ length: 12 }, (_, i) => [`p${String(i).padStart(2, "0")}.md`, [`page ${i}\n`], { isPublic: true }]);
  const footprint = async (hiddenText, options = {}) => {
    const collection = await foreign("leaks-cost", [...visible, ["hidden.md", Array(400).fill(hiddenText), { isPublic: false, groups: ["admin"] }]]);
    const { fs, exec } = await shell(collection, options);
    const before = fs.stats().requests;
    const t0 = performance.now();
    const { stdout, stderr, exitCode } = await exec("grep -r zebra /");
    const r = { stdout, stderr, exitCode };
    const ms = performance.now() - t0;
    const { command, ...cs } = fs.stats().commands.at(-1);
    return { r, requests: fs.stats().requests - before, cs, prefetched: fs.stats().prefetchedPages, ms };
  };
  const there = await footprint("zebra stripes\n");
  const absent = await footprint("plain stripes\n");
  assert.deepEqual({ ...there, ms: 0 }, { ...absent, ms: 0 });
  assert.deepEqual(there.r, { stdout: "", stderr: "", exitCode: 1 });
  assert.match(there.cs.note, /chromafs annotate/);
  const budget = { maxRequestsPerCommand: 1 };
  const [a, b] = [await footprint("zebra stripes\n", budget), await footprint("plain stripes\n", budget)];
  assert.deepEqual({ ...a, ms: 0 }, { ...b, ms: 0 }, "the same answer within a budget of one request");
  // The host may accept the dependence for speed: then the cost does tell them apart.
  const [c, d] = [await footprint("zebra stripes\n", { searchHiddenTextCost: "accept" }), await footprint("plain stripes\n", { searchHiddenTextCost: "accept" })];
  assert.notDeepEqual({ ...c, ms: 0 }, { ...d, ms: 0 });
});
