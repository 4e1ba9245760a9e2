// An ingest killed (SIGKILL, a real `chromafs ingest` process) or refused by Chroma at each
// of its steps, then run again: every grep through the grep index prints what GNU grep
// and ripgrep print over the folder. And two ingests of one collection at once: the second
// is refused while the first holds its lease.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Bash } from "just-bash";
import { ChromaFs, safeExec } from "chromafs";
import { gnuReference, gnuToolsMissing } from "../../../support/gnu-reference.mjs";
import { startProxy } from "../../../support/proxy.mjs";
import { ROOT, chromaUrl, chromafsCli, writeTree } from "../helpers.mjs";

const CLI = path.join(ROOT, "pkg/bin/chromafs.mjs");
const LEASE_MS = 1000;

/** Forty pages in four folders; `edited` adds "omega" to six, rewrites one and drops two. */
function site(edited) {
  const pages = {};
  for (let i = 0; i < 40; i++) {
    const lines = [`# Page ${i}`, "", `Setting ${i} controls the rollout.`, `See page ${(i * 7) % 40} for more.`];
    if (edited && i % 7 === 0 && i > 0) lines.push("The omega release changes this default.");
    if (edited && i === 3) lines.splice(2, 1, "Rewritten: the Omega flag replaces the setting.");
    if (edited && (i === 5 || i === 6)) continue;
    pages[`${["guides", "api", "concepts", "api/v2"][i % 4]}/p${String(i).padStart(2, "0")}.md`] = lines.join("\n") + "\n";
  }
  return pages;
}

const LINES = ["grep -rn omega /", "grep -rli OMEGA /api", "rg -n 'omega|Omega' /", "grep -rl 'Setting 5 ' /", "grep -rc rollout /guides"];

let dir;
let gnu;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "chromafs-durability-"));
  if (!gnuToolsMissing()) gnu = gnuReference(Object.entries(site(true)).map(([p, content]) => ({ path: p, content })));
});
after(async () => {
  gnu?.remove();
  await rm(dir, { recursive: true, force: true });
});

/** `chromafs ingest` of the folder into `collection` through `url`; `onChild` gets the process. */
function ingestProcess(url, collection, onChild, lease = ["--lease-ms", String(LEASE_MS)]) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "ingest", dir, "--url", url, "--collection", collection, ...lease], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    onChild?.(child);
    child.on("exit", (code, signal) => resolve({ code, signal, out }));
  });
}

/** What the greps print through the grep index, beside what they print without it. */
async function greps(collection) {
  const answers = {};
  for (const grepIndex of [true, false]) {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection, grepIndex });
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    for (const line of LINES) {
      const r = await safeExec(bash, line);
      (answers[line] ??= {})[grepIndex ? "indexed" : "plain"] = { stdout: r.stdout, exitCode: r.exitCode };
    }
  }
  return answers;
}

// Each step: which request ends the run, and how (killed before Chroma sees it, killed
// once Chroma took it, or refused with a 500), and whether that is before any of the tree.
const STEPS = [
  ["killed just after Chroma took the chunks", (b) => b.includes('"page_slug"'), "after", true],
  ["killed at the first index write", (b) => b.includes('"__grams__'), "before", true],
  ["killed at the tree's write", (b) => b.includes('"__path_tree__#'), "before", true],
  ["killed at the stale records' delete", (b, p) => p.endsWith("/delete"), "before", false],
  ["the index writes answered 500", (b) => b.includes('"__grams__'), "500", true],
  ["the tree's write answered 500", (b) => b.includes('"__path_tree__"'), "500", false],
];

for (const [what, matches, how, beforeTree] of STEPS) {
  test(`an ingest ${what}, then run again: every grep prints what GNU grep prints over the folder`, { skip: gnuToolsMissing() ?? false }, async () => {
    const collection = `durable-${STEPS.findIndex((s) => s[0] === what)}`;
    await writeTree(dir, site(false));
    assert.equal((await ingestProcess(chromaUrl(), collection)).code, 0);
    await writeTree(dir, site(true));
    const proxy = await startProxy(chromaUrl());
    try {
      let child;
      let hit = false;
      const writes = (req, body) => req.method === "POST" && /\/(upsert|delete)$/.test(req.url) && matches(body, req.url);
      if (how === "500") proxy.state.failWhen = (req, body) => (writes(req, body) ? 500 : null);
      if (how === "before") {
        proxy.state.handle = (req, body, res) => {
          if (hit || !writes(req, body)) return false;
          hit = true;
          child.kill("SIGKILL");
          res.destroy();
          return true;
        };
      }
      if (how === "after") {
        proxy.state.transform = (body, answer) => {
          if (!hit && /"ids"/.test(body) && matches(body, "")) {
            hit = true;
            child.kill("SIGKILL");
          }
          return answer;
        };
      }
      const failed = await ingestProcess(proxy.url, collection, (c) => (child = c));
      if (how === "500") assert.equal(failed.code, 1, failed.out);
      else assert.equal(failed.signal, "SIGKILL", `the run was killed: ${failed.out}`);
    } finally {
      await proxy.close();
    }
    if (beforeTree) {
      // Until the run that stopped before its tree is run again, sessions read the tree as
      // it was: the pages the edit removes are still whole (their chunks go only after a
      // new tree is written).
      const old = site(false);
      const fs = await ChromaFs.connect({ url: chromaUrl(), collection });
      const shell = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
      for (const gone of ["api/p05.md", "concepts/p06.md"]) {
        const r = await safeExec(shell, `cat /${gone}`);
        assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, old[gone], ""], `${gone} before the re-run`);
      }
    }
    // A killed run's lease lapses by itself; a failed run's was marked expired.
    if (how !== "500") await new Promise((r) => setTimeout(r, LEASE_MS + 100));
    const again = await ingestProcess(chromaUrl(), collection);
    assert.equal(again.code, 0, again.out);
    const answers = await greps(collection);
    for (const line of LINES) {
      const want = gnu.expect(line);
      assert.equal(answers[line].indexed.stdout, want.stdout, `${line}: through the index`);
      assert.equal(answers[line].indexed.exitCode, want.exitCode, line);
      assert.deepEqual(answers[line].plain, answers[line].indexed, `${line}: the same without the index`);
    }
    assert.match(answers["grep -rn omega /"].indexed.stdout, /omega release/, "the edit is found");
  });
}

test("a second ingest of a collection is refused while the first holds it, and runs once it is done", async () => {
  await writeTree(dir, site(false));
  const proxy = await startProxy(chromaUrl());
  try {
    // The first run's first write is its lease; each of its requests after that is slowed,
    // so that the second run starts while the first writes.
    proxy.state.transform = (body, answer) => {
      if (body.includes('"ingest-lease"')) proxy.state.delayMs = 300;
      return answer;
    };
    const first = ingestProcess(proxy.url, "durable-concurrent", null, []);
    const deadline = Date.now() + 30_000;
    while (!proxy.state.delayMs) {
      assert.ok(Date.now() < deadline, "the first run took its lease");
      await new Promise((r) => setTimeout(r, 20));
    }
    const second = await chromafsCli("ingest", dir, "--url", chromaUrl(), "--collection", "durable-concurrent");
    proxy.state.delayMs = 0;
    proxy.state.transform = null;
    assert.equal(second.status, 1, second.stderr);
    assert.match(second.stderr, /another ingest is writing collection "durable-concurrent": its lease runs \d+ s more/);
    const done = await first;
    assert.equal(done.code, 0, done.out);
    const third = await chromafsCli("ingest", dir, "--url", chromaUrl(), "--collection", "durable-concurrent");
    assert.equal(third.status, 0, third.stderr);
    assert.match(third.stdout + third.stderr, /unchanged since the last run/);
  } finally {
    await proxy.close();
  }
});
