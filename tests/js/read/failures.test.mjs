// How failures of the server show. A server that is down, erroring, throttling, stalling or
// refusing, at the start, middle or end of a command; the per-command budget; a corrupt
// tree or a missing chunk. Whatever command hits a failure, its result says so — an I/O
// error naming the path and the cause, a failing exit code (2 for searches) — and never
// reads as "no such file", "no match" or a count; nothing crashes, and the session
// recovers once the server does. Faults are injected in front of a Chroma that enforces
// Chroma Cloud's quotas.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { ROOT, assertWithinQuotas, chromaUrl, cloudChroma, freePort, newBash } from "../helpers.mjs";
import { startProxy, chroma, collectionId } from "../../../support/proxy.mjs";
import { writeOtherTool } from "../../../support/other-tool.mjs";

// These tests watch how each session fails: pages shared by the sessions of this process would
// answer in Chroma's place (the process tier is tested in process-tier.test.mjs).
ChromaFs.setProcessCacheBytes(0);

const PAGES = 60;
const files = Array.from({ length: PAGES }, (_, i) => ({
  path: `${i % 2 ? "guides" : "api"}/p${String(i).padStart(2, "0")}.md`,
  content: `page ${i}\n${i % 3 === 0 ? "a token here\n" : "nothing\n"}`,
}));
const content = new Map(files.map((f) => [`/${f.path}`, f.content]));

const FAULT_FILES = [
  { path: "a.md", content: "alpha line\n" },
  { path: "b.md", content: "bravo line\n" },
  { path: "c.md", content: "charlie line\n" },
  { path: "long.md", content: "x".repeat(50) + "\n" + "y".repeat(50) + "\n" + "z".repeat(50) + "\n" },
];
let proxy, cloud;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "failures", files });
  // The same pages as another tool writes them: read by slug, several requests at once.
  await writeOtherTool(chromaUrl(), "failures-foreign", files, { chunkLength: () => 7, entry: () => ({ isPublic: true }) });
  await ingest({ url: chromaUrl(), collection: "faults", files: FAULT_FILES, chunkBytes: 64 });
  cloud = await cloudChroma();
  proxy = await startProxy(cloud.url);
});
after(() => Promise.all([proxy.close(), cloud.close()]));

// These look at failures of Chroma's text filter and the loads after it: the grep index (its
// own failures have a test of their own) is off unless a test turns it on.
async function session(extra = {}) {
  proxy.reset();
  const fs = await ChromaFs.connect({ url: proxy.url, collection: "failures", retries: 1, grepIndex: false, ...extra });
  proxy.reset();
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  return { fs, bash, exec: (cmd, options) => safeExec(bash, cmd, options) };
}

const IO = (cmd, path) => new RegExp(`^${cmd}: ${path.replaceAll("/", "\\/")}: Input/output error \\((.+)\\)$`, "m");

// Each command, its expected exit code when its read fails, and what it must not print.
// A search that cannot load its pages names the file, or the directory holding them all.
const READERS = [
  ["cat /api/p00.md", "cat", 1, "/api/p00.md"],
  ["head -n 1 /api/p00.md", "head", 1, "/api/p00.md"],
  ["wc -l /api/p00.md", "wc", 1, "/api/p00.md"],
  ["grep -c token /api/p00.md", "grep", 2, "/api/p00.md"],
  ["grep -l token /api/p00.md /api/p02.md", "grep", 2, "/api"],
];

for (const [fault, arm] of [
  ["the server is down", (p) => (p.state.down = true)],
  ["the server answers 500", (p) => (p.state.failWhen = () => 500)],
]) {
  test(`${fault}: every read says so, naming the path and the cause`, async () => {
    for (const [cmd, name, code, path] of READERS) {
      const { exec } = await session();
      arm(proxy);
      const r = await exec(cmd);
      assert.equal(r.stdout, "", `${cmd}: no output that reads as an answer (a count, an empty file)`);
      assert.equal(r.exitCode, code, cmd);
      const cause = IO(name, path).exec(r.stderr)?.[1];
      assert.ok(cause, `${cmd}: ${r.stderr}`);
      assert.match(cause, fault.includes("500") ? /HTTP 500/ : /cannot reach Chroma/);
      assert.doesNotMatch(r.stderr, /No such file/);
    }
  });

  test(`${fault}: a recursive search fails at once with one error, not one per page`, async () => {
    for (const cmd of ["grep -rn token /", "grep -rl token /api", "rg -n token /", "grep -rc token /"]) {
      const { exec } = await session();
      arm(proxy);
      const r = await exec(cmd);
      assert.equal(r.stdout, "", cmd);
      assert.equal(r.exitCode, 2, cmd);
      assert.equal(r.stderr.trim().split("\n").length, 1, `${cmd}: ${r.stderr}`);
      assert.match(r.stderr, /^(grep|rg): \/(api)?: Input\/output error \(/);
      assert.ok(proxy.state.requests.length <= 3, `${cmd}: ${proxy.state.requests.length} requests`);
    }
  });

  test(`${fault}: the tree in memory still answers find and ls; the next command works once it is back`, async () => {
    const { fs, exec } = await session();
    arm(proxy);
    assert.equal((await exec("find / -name 'p0*.md' | wc -l")).stdout.trim(), "10");
    assert.equal((await exec("ls /api | head -2")).stdout, "p00.md\np02.md\n");
    assert.equal((await exec("cat /api/p00.md")).exitCode, 1);
    proxy.reset();
    const r = await exec("cat /api/p00.md && grep -rl token / | wc -l");
    assert.equal(r.stdout, `${content.get("/api/p00.md")}20\n`);
    assert.equal(r.exitCode, 0);
    const all = await exec("cat /api/*.md /guides/*.md");
    assert.equal(all.stdout, [...content.keys()].sort().map((p) => content.get(p)).join(""), "no cache holds a partial page");
    assert.equal(fs.stats().cachedPages, PAGES);
  });
}

for (const [fault, arm] of [
  ["a connection reset", (p) => (p.state.down = true)],
  ["a 500", (p) => (p.state.failWhen = () => 500)],
  ["a hang", (p) => (p.state.delayMs = 1500)],
]) {
  test(`after ${fault} is over, the very next search in the same session works`, async () => {
    for (const [collection, cmd] of [
      ["failures", "grep -rl token /"],
      ["failures", "rg -l token /"],
      ["failures-foreign", "grep -rc token /"],
      ["failures-foreign", "rg -c token /"],
      ["failures-foreign", "grep -rli TOKEN /api"],
    ]) {
      const { exec } = await session({ timeoutMs: 500, collection });
      arm(proxy);
      const failed = await exec(cmd);
      assert.equal(failed.exitCode, 2, `${cmd} while ${fault}: ${failed.stderr}`);
      assert.match(failed.stderr, /Input\/output error/);
      proxy.reset();
      const r = await exec(cmd);
      const want = await (await session({ collection })).exec(cmd);
      assert.ok(want.stdout.split("\n").length > 10, want.stdout);
      assert.deepEqual([r.stdout, r.stderr, r.exitCode], [want.stdout, "", 0], `${cmd} after ${fault}`);
    }
  });
}

test("a failure in the middle of a command: what was read is printed, the rest is an error, and the output is marked incomplete", async () => {
  const { exec } = await session();
  let gets = 0;
  proxy.state.failWhen = (req) => (req.url.endsWith("/get") && ++gets > 1 ? 503 : null);
  const r = await exec("cat /api/p00.md /api/p02.md /api/p04.md");
  assert.equal(r.stdout, content.get("/api/p00.md"));
  assert.match(r.stderr, IO("cat", "/api/p02.md"));
  assert.match(r.stderr, IO("cat", "/api/p04.md"));
  assert.match(r.stderr, /^cat: output incomplete: 2 reads failed$/m);
  assert.equal(r.exitCode, 1);
  assert.ok(proxy.state.requests.length <= 4, "once the server failed, the last page is not retried");
});

test("a failure at the end of a search (the bulk load after the coarse query) stops it", async () => {
  const { exec } = await session();
  // Pages by id fail; the tree's own records (a check before an answer another session had
  // is used) do not.
  proxy.state.failWhen = (req, body) => (body.includes('"ids"') && !body.includes("__path_tree__") ? 500 : null);
  const r = await exec("grep -rn token /");
  assert.equal(r.stdout, "");
  assert.equal(r.exitCode, 2);
  assert.match(r.stderr, /^grep: \/: Input\/output error \(cannot load 20 pages: Chroma answered HTTP 500/);
});

test("a refused coarse query and a refused bulk load are an error, promptly; a refused coarse query alone falls back", async () => {
  const { exec } = await session();
  proxy.state.failWhen = () => 422;
  let r = await exec("grep -rn token /");
  assert.equal(r.exitCode, 2);
  assert.match(r.stderr, /^grep: \/: Input\/output error \(cannot load 60 pages: Chroma answered HTTP 422 .*injected 422\)\n$/);
  proxy.reset();
  proxy.state.failWhen = (req, body) => (body.includes("where_document") ? 422 : null);
  r = await exec("grep -rl token / | wc -l");
  assert.equal(r.stdout, "20\n");
  assert.equal(r.exitCode, 0);
});

test("a refused read of the grep index falls back to Chroma's text filter, with the same answer", async () => {
  // The process tier is off in this file (above): nothing is kept from earlier searches.
  const { fs, exec } = await session({ grepIndex: true });
  proxy.state.failWhen = (req, body) => (body.includes("__grams__") ? 422 : null);
  const r = await exec("grep -rli TOKEN / | wc -l");
  assert.deepEqual([r.stdout, r.exitCode], ["20\n", 0]);
  const c = fs.stats().commands.at(-1);
  assert.equal(c.index, false);
  assert.match(c.note, /^the grep index did not read \(.*422.*\): Chroma was asked which pages match$/);
  proxy.reset();
});

test("a read the shell itself makes (a redirection) is reported too", async () => {
  const { exec } = await session();
  proxy.state.down = true;
  const r = await exec("wc -l < /api/p00.md");
  assert.match(r.stderr, IO("bash", "/api/p00.md"));
  assert.equal(r.exitCode, 1);
  const piped = await exec("cat /api/p02.md | wc -l");
  assert.equal(piped.exitCode, 1, "a pipeline whose first command failed fails");
  assert.match(piped.stderr, /^bash: output incomplete: 1 read failed$/m);
});

test("maxRequestsPerCommand: a broad command over its budget stops cleanly; without it, it succeeds", async () => {
  const cmd = "find / -name '*.md' | xargs cat | wc -l";
  let { fs, exec } = await session({ maxRequestsPerCommand: 50 });
  const before = fs.stats().requests;
  let r = await exec(cmd);
  assert.notEqual(r.exitCode, 0);
  assert.match(r.stderr, /Input\/output error \(the command used its budget of 50 requests \(maxRequestsPerCommand\)\)/);
  assert.equal(fs.stats().requests - before, 50, "not one request more than the budget");
  r = await exec("cat /api/p00.md");
  assert.equal(r.stdout, content.get("/api/p00.md"), "the next command has a budget of its own");
  ({ exec } = await session());
  r = await exec(cmd);
  assert.deepEqual([r.stdout, r.exitCode], [`${PAGES * 2}\n`, 0]);
  ({ exec } = await session({ maxRequestsPerCommand: 2 }));
  r = await exec("grep -rl token / | wc -l");
  assert.deepEqual([r.stdout, r.exitCode], ["20\n", 0], "a search within its budget");
});

test("commandTimeoutMs: a slow server stops the command with the deadline as its cause", async () => {
  const { exec } = await session({ commandTimeoutMs: 300 });
  proxy.state.delayMs = 200;
  const r = await exec("cat /api/p00.md /api/p02.md /api/p04.md");
  assert.equal(r.exitCode, 1);
  assert.match(r.stderr, /Input\/output error \(the command ran out of time after 300 ms \(commandTimeoutMs\)\)/);
  proxy.reset();
  assert.equal((await exec("cat /api/p00.md")).exitCode, 0, "the next command has time of its own");
});

test("an aborted command sends nothing more and says it was aborted", async () => {
  const { exec } = await session();
  proxy.state.delayMs = 150;
  const controller = new AbortController();
  let sent;
  setTimeout(() => {
    sent = proxy.state.requests.length;
    controller.abort();
  }, 200);
  const r = await exec("cat /api/p00.md /api/p02.md /api/p04.md /api/p06.md /api/p08.md", { signal: controller.signal });
  assert.equal(r.exitCode, 124);
  assert.match(r.stderr, /aborted/);
  assert.doesNotMatch(r.stdout, /page 8/);
  await new Promise((res) => setTimeout(res, 400));
  assert.ok(proxy.state.requests.length <= sent, `${proxy.state.requests.length - sent} requests after the abort`);
});

// Faults of the server as the filesystem's own calls see them: retries, timeouts, damaged
// data, a server that stops mid-session. Each session starts with a healthy proxy.

const connect = (extra = {}) => {
  proxy.reset();
  return ChromaFs.connect({ url: proxy.url, collection: "faults", ...extra });
};

test("a 500 is retried; a persistent one is EIO naming the status and Chroma's message", async () => {
  const fs = await connect();
  proxy.state.failures = [500, 503];
  assert.equal(await fs.readFile("/a.md"), "alpha line\n");
  assert.equal(fs.stats().retries, 2);
  proxy.state.failWhen = () => 500;
  await assert.rejects(fs.readFile("/b.md"), (e) => {
    assert.equal(e.code, "EIO");
    assert.equal(e.message, `EIO: i/o error, open '/b.md': Chroma answered HTTP 500 to page "b.md": injected 500`);
    return true;
  });
  const bash = newBash(fs);
  const r = await bash.exec("cat /b.md; echo rc=$?");
  assert.equal(r.stdout, "rc=1\n");
  proxy.reset();
  assert.equal((await bash.exec("cat /b.md")).stdout, "bravo line\n", "works again once the server is healthy");
});

test("429 honours Retry-After", async () => {
  const fs = await connect();
  proxy.state.failures = [429];
  proxy.state.retryAfter = 0.3;
  const t0 = Date.now();
  assert.equal(await fs.readFile("/c.md"), "charlie line\n");
  assert.ok(Date.now() - t0 >= 290, "waited as asked");
  proxy.reset();
});

test("client errors are not retried", async () => {
  const fs = await connect();
  proxy.reset();
  proxy.state.failWhen = () => 400;
  await assert.rejects(fs.readFile("/a.md"), /HTTP 400 to page "a.md": injected 400/);
  assert.equal(fs.stats().retries, 0);
  assert.equal(proxy.state.requests.length, 1);
  proxy.reset();
});

test("a slow server times out with a clear error, and is not retried", async () => {
  const fs = await connect({ timeoutMs: 200 });
  proxy.state.delayMs = 1500;
  const t0 = Date.now();
  await assert.rejects(fs.readFile("/c.md"), (e) => {
    assert.equal(e.code, "EIO");
    assert.match(e.message, /^EIO: i\/o error, open '\/c.md': Chroma did not answer page "c.md" within 200 ms$/);
    return true;
  });
  assert.ok(Date.now() - t0 < 1200);
  proxy.reset();
});

test("a missing chunk, a duplicate or a changed page is EIO, never stitched", async () => {
  ChromaFs.forgetTrees();
  const fs = await connect();
  const id = await collectionId(chromaUrl(), "faults");
  const chunk = await chroma(chromaUrl(), "POST", `/collections/${id}/get`, { ids: ["long.md#1"], include: ["documents", "metadatas", "embeddings"] });
  await chroma(chromaUrl(), "POST", `/collections/${id}/delete`, { ids: ["long.md#1"] });
  try {
    // The read carries the session's access, so a missing chunk may also be a page made
    // private since: the error says so, and never shows stitched text.
    const changed = "(the docs may have changed since this session connected: reconnect)";
    await assert.rejects(fs.readFile("/long.md"), { code: "EIO", message: `EIO: i/o error, open '/long.md': page "long.md": chunk 1 is missing ${changed}` });
    const r = await newBash(fs).exec("cat /long.md; wc -l /a.md");
    assert.equal(r.exitCode, 0, "the last command still runs");
    assert.equal(r.stdout, "1 /a.md\n");
    // A stray duplicate of chunk 0 under another id never reaches a page read by chunk id.
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["long.md#1", "stray"],
      embeddings: [chunk.embeddings[0], chunk.embeddings[0]],
      documents: [chunk.documents[0], "x".repeat(50) + "\n"],
      metadatas: [chunk.metadatas[0], { ...chunk.metadatas[0], chunk_index: 0 }],
    });
    assert.equal(await fs.readFile("/long.md"), FAULT_FILES[3].content);
    await chroma(chromaUrl(), "POST", `/collections/${id}/delete`, { ids: ["stray"] });
    // Content that no longer matches the tree's size.
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["long.md#1"], embeddings: [chunk.embeddings[0]], documents: ["short\n"], metadatas: [chunk.metadatas[0]],
    });
    // A new session: the page read above is in this one's memory.
    await assert.rejects((await connect()).readFile("/long.md"), /the chunks hold 108 bytes but the path tree says 153/);
  } finally {
    await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["long.md#1"], embeddings: chunk.embeddings, documents: chunk.documents, metadatas: chunk.metadatas,
    });
  }
  assert.equal(await fs.readFile("/long.md"), FAULT_FILES[3].content, "repaired data reads again");
});

test("a tree that is not one makes connect fail with the reason; so does a missing one", async () => {
  await ingest({ url: chromaUrl(), collection: "faults-tree", files: FAULT_FILES });
  const id = await collectionId(chromaUrl(), "faults-tree");
  const setTree = (doc) =>
    chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], documents: [doc], metadatas: [{ chromafs: "path-tree" }],
    });
  const open = () => {
    ChromaFs.forgetTrees();
    return ChromaFs.connect({ url: chromaUrl(), collection: "faults-tree" });
  };
  for (const [doc, message] of [
    ["H4sIAAAAAAAA/wMAAAAAAAAAAAA=!!", "corrupt path tree: neither JSON nor base64: invalid base64 character at offset 28"],
    ["aGVsbG8gd29ybGQ=", "corrupt path tree: not gzip data"],
    ['{"a.md": {"isPublic": true}', "corrupt path tree: invalid JSON: "],
  ]) {
    await setTree(doc);
    await assert.rejects(open(), (e) => {
      assert.equal(e.code, "EIO");
      assert.ok(e.message.startsWith(`EIO: i/o error, connect 'faults-tree': ${message}`), `${e.message}\n≠ ${message}`);
      return true;
    });
  }
  await chroma(chromaUrl(), "POST", `/collections/${id}/delete`, { ids: ["__path_tree__"] });
  await assert.rejects(open(), { message: `EIO: i/o error, connect 'faults-tree': collection "faults-tree" has no path tree record "__path_tree__"` });
  await assert.rejects(ChromaFs.connect({ url: chromaUrl(), collection: "no-such-collection" }), {
    message: `EIO: i/o error, connect 'no-such-collection': collection "no-such-collection" does not exist`,
  });
});

test("one bad tree entry costs its own page only: the rest is served, the page is an error where it is used", async () => {
  await ingest({ url: chromaUrl(), collection: "faults-entry", files: FAULT_FILES });
  const id = await collectionId(chromaUrl(), "faults-entry");
  const good = Object.fromEntries(FAULT_FILES.map((f) => [f.path, { isPublic: true, size: Buffer.byteLength(f.content) }]));
  const setTree = (tree) =>
    chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
      ids: ["__path_tree__"], embeddings: [new Array(32).fill(0)], documents: [JSON.stringify(tree)], metadatas: [{ chromafs: "path-tree" }],
    });
  const open = (groups) => {
    ChromaFs.forgetTrees();
    return ChromaFs.connect({ url: chromaUrl(), collection: "faults-entry", groups });
  };
  for (const [extra, listed, problem] of [
    [{ "huge.md": { isPublic: true, chunks: 1e12 } }, true, 'corrupt path tree: entry "huge.md": chunks is more than 100000'],
    [{ "neg.md": { isPublic: true, size: -4 } }, true, 'corrupt path tree: entry "neg.md": size must be a non-negative integer'],
    [{ "x\ny.md": { isPublic: true } }, false, String.raw`corrupt path tree: entry "x\ny.md": path contains the control character '\n'`],
    [{ "../etc/passwd": { isPublic: true } }, false, `corrupt path tree: entry "../etc/passwd": '..' is not allowed in a path`],
    [{ "a.md/b.md": { isPublic: true } }, false, 'corrupt path tree: entry "a.md": is a file, and also the directory of "a.md/b.md"'],
  ]) {
    await setTree({ ...good, ...extra });
    const fs = await open();
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    assert.deepEqual(fs.info().brokenPages, [problem], "the operator is told what is wrong, escaped");
    const r = await safeExec(bash, "cat /b.md /c.md");
    assert.deepEqual([r.stdout, r.exitCode], ["bravo line\ncharlie line\n", 0], "the other pages are served");
    if (listed) {
      const name = Object.keys(extra)[0];
      const cat = await safeExec(bash, `cat /${name}`);
      assert.deepEqual([cat.stdout, cat.exitCode], ["", 1]);
      assert.equal(cat.stderr, `cat: /${name}: Input/output error (${problem})\n`);
      const grep = await safeExec(bash, "grep -r line /");
      assert.equal(grep.exitCode, 2, "a search over it says a page could not be read");
      assert.match(grep.stderr, new RegExp(`^grep: //?${name}: Input/output error`, "m"));
      assert.match(grep.stdout, /^\/\/?b.md:bravo line$/m, "and prints what the other pages hold");
    } else {
      const find = await safeExec(bash, "find / -type f | sort");
      const files = ["/a.md", "/b.md", "/c.md", "/long.md"].map((p) => (extra["a.md/b.md"] && p === "/a.md" ? "/a.md/b.md" : p));
      assert.equal(find.stdout, files.map((p) => `${p}\n`).join(""), "the entry set aside is in no listing");
      assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(find.stdout + find.stderr), "no control character reaches the output");
    }
  }
  // Access that cannot be read hides the page from everyone, and names it to no session.
  await setTree({ ...good, "odd.md": { isPublic: "yes" }, "internal/x.md": { isPublic: false, groups: ["admin"], chunks: -1 } });
  const pub = await open();
  assert.deepEqual(pub.info().brokenPages, [], "a hidden page leaves no trace");
  assert.equal(await pub.exists("/odd.md"), false);
  const admin = await open(["admin"]);
  assert.deepEqual(admin.info().brokenPages, ['corrupt path tree: entry "internal/x.md": chunks must be a non-negative integer']);
});

test("a server stopped mid-session: EIO with the cause, then recovery once it is back", { timeout: 120000 }, async () => {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "chromafs-stop-"));
  const chromaSh = path.join(ROOT, "scripts/chroma.sh");
  const url = `http://127.0.0.1:${port}`;
  execFileSync("bash", [chromaSh, "start", String(port), dir], { stdio: "inherit" });
  try {
    await ingest({ url, collection: "stopping", files: FAULT_FILES });
    const fs = await ChromaFs.connect({ url, collection: "stopping", retries: 1 });
    const bash = newBash(fs);
    assert.equal((await bash.exec("cat /a.md")).stdout, "alpha line\n");
    execFileSync("bash", [chromaSh, "stop", String(port)]);
    await assert.rejects(fs.readFile("/b.md"), (e) => {
      assert.equal(e.code, "EIO");
      assert.match(e.message, /^EIO: i\/o error, open '\/b.md': cannot reach Chroma for page "b.md": fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
      return true;
    });
    let r = await bash.exec("cat /a.md; cat /b.md; ls /");
    assert.equal(r.stdout, "alpha line\na.md\nb.md\nc.md\nlong.md\n", "cached pages and listings keep working");
    assert.equal(r.exitCode, 0);
    execFileSync("bash", [chromaSh, "start", String(port), dir], { stdio: "inherit" });
    r = await bash.exec("cat /b.md");
    assert.equal(r.stdout, "bravo line\n");
  } finally {
    execFileSync("bash", [chromaSh, "stop", String(port)]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
