// Failures the agent sees: a server that is down, erroring or refusing, at the start,
// middle or end of a command, and the per-command budget. Whatever command hits a
// failure, its result says so — an I/O error naming the path and the cause, a failing
// exit code (2 for searches) — and never reads as "no such file", "no match" or a count.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash } from "just-bash";
import { assertWithinQuotas, chromaUrl, cloudChroma } from "./helpers.mjs";
import { startProxy } from "./proxy.mjs";

const PAGES = 60;
const files = Array.from({ length: PAGES }, (_, i) => ({
  path: `${i % 2 ? "guides" : "api"}/p${String(i).padStart(2, "0")}.md`,
  content: `page ${i}\n${i % 3 === 0 ? "a token here\n" : "nothing\n"}`,
}));
const content = new Map(files.map((f) => [`/${f.path}`, f.content]));
let proxy, cloud;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "failures", files });
  cloud = await cloudChroma();
  proxy = await startProxy(cloud.url);
});
after(() => Promise.all([proxy.close(), cloud.close()]));

async function session(extra = {}) {
  proxy.reset();
  const fs = await ChromaFs.connect({ url: proxy.url, collection: "failures", retries: 1, ...extra });
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
  proxy.state.failWhen = (req, body) => (body.includes('"ids"') ? 500 : null);
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

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
