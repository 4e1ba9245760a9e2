// Revocation: a page made private by a re-ingest — by another tool, by chromafs's ingest
// in another process, or by re-creating the collection — is gone for every session that
// connects afterwards, and a session that connected before never reads its new text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChromaFs, ingest } from "chromafs";
import { ROOT, chromaUrl, newBash, rng } from "../helpers.mjs";
import { chroma, collectionId } from "../../../support/proxy.mjs";

const connect = (collection, groups = []) => ChromaFs.connect({ url: chromaUrl(), collection, groups });
const withCommands = (fs) => newBash(fs, { customCommands: fs.commands() });

test("a page made private in place by another tool is gone for new sessions, at once", async () => {
  const files = [
    { path: "index.md", content: "home\n" },
    { path: "plans/q3.md", content: "public plan text\n" },
  ];
  await ingest({ url: chromaUrl(), collection: "revoke-other", files });
  const before = await connect("revoke-other");
  assert.equal(await before.readFile("/plans/q3.md"), "public plan text\n");
  // Another tool rewrites the tree (plain JSON, no version) and the chunk: same byte length.
  const id = await collectionId(chromaUrl(), "revoke-other");
  const secret = "SECRET plan text\n";
  assert.equal(secret.length, files[1].content.length);
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: ["plans/q3.md#0", "__path_tree__"],
    embeddings: [new Array(32).fill(0.1), new Array(32).fill(0)],
    documents: [secret, JSON.stringify({ "index.md": { isPublic: true, size: 5 }, "plans/q3.md": { isPublic: false, groups: ["exec"], size: 17 } })],
    metadatas: [{ page_slug: "plans/q3.md", chunk_index: 0 }, { chromafs: "path-tree" }],
  });
  for (let round = 0; round < 2; round++) {
    const fs = await connect("revoke-other");
    const r = await withCommands(fs).exec("cat /plans/q3.md; grep -r SECRET /; ls -R /");
    assert.equal(r.stdout, "/:\nindex.md\n");
    assert.equal(r.stderr, "cat: /plans/q3.md: No such file or directory\n");
    assert.ok(!JSON.stringify(fs.stats()).includes("q3"));
  }
  const exec = await connect("revoke-other", ["exec"]);
  assert.equal(await exec.readFile("/plans/q3.md"), secret, "the page is there for its group");
  // The session from before keeps what it read, and Chroma gives it nothing new.
  assert.equal(await before.readFile("/plans/q3.md"), "public plan text\n");
  const old = await withCommands(before).exec("grep -r SECRET /; echo rc=$?");
  assert.equal(old.stdout, "rc=1\n");
});

test("an old session never reads text made private by chromafs's ingest in another process", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "chromafs-revoke-"));
  try {
    mkdirSync(path.join(dir, "plans"));
    writeFileSync(path.join(dir, "index.md"), "home\n");
    writeFileSync(path.join(dir, "plans/q3.md"), "draft one\n");
    const cli = (...args) => spawnSync(process.execPath, [path.join(ROOT, "pkg/bin/chromafs.mjs"), "ingest", dir, "--url", chromaUrl(), "--collection", "revoke-cli", ...args], { encoding: "utf8" });
    assert.equal(cli().status, 0);
    const old = await connect("revoke-cli");
    assert.ok((await old.readdir("/plans")).includes("q3.md"));
    writeFileSync(path.join(dir, "plans/q3.md"), "SECRET two\n");
    writeFileSync(path.join(dir, "access.json"), JSON.stringify({ "plans/**": { isPublic: false, groups: ["exec"] } }));
    const r = cli("--access", path.join(dir, "access.json"));
    assert.equal(r.status, 0, r.stderr);
    await assert.rejects(old.readFile("/plans/q3.md"), {
      code: "EIO",
      message: `EIO: i/o error, open '/plans/q3.md': page "plans/q3.md" is not readable by this session any more: the docs changed since it connected (reconnect)`,
    });
    const out = await withCommands(old).exec("cat /plans/q3.md; grep -r SECRET /; echo rc=$?");
    assert.ok(!out.stdout.includes("SECRET") && !out.stderr.includes("SECRET"), JSON.stringify(out));
    const fresh = await connect("revoke-cli");
    assert.equal(await fresh.exists("/plans/q3.md"), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a collection deleted and created again is what new sessions see", async () => {
  await ingest({ url: chromaUrl(), collection: "revoke-recreated", files: [{ path: "old.md", content: "old\n" }] });
  assert.deepEqual((await connect("revoke-recreated")).getAllPaths(), ["/", "/old.md"]);
  await chroma(chromaUrl(), "DELETE", "/collections/revoke-recreated");
  await ingest({ url: chromaUrl(), collection: "revoke-recreated", files: [{ path: "new.md", content: "new\n" }] });
  const fs = await connect("revoke-recreated");
  assert.deepEqual(fs.getAllPaths(), ["/", "/new.md"]);
  assert.equal(await fs.readFile("/new.md"), "new\n");
});

// ---------------------------------------------------------------------------------------
// Generated: random trees, group sets and re-ingests; after each step no session shows
// text its groups could not see when that text was written, and sessions that connect
// after the step list exactly the pages they may see now.

const GROUPS = ["a", "b", "c"];

function randomDocs(r, step) {
  const pages = [];
  for (let i = 0; i < 12; i++) {
    if (r() < 0.15) continue; // some pages come and go
    const access = r() < 0.4 ? { isPublic: true } : { isPublic: false, groups: GROUPS.filter(() => r() < 0.5) };
    pages.push({ slug: `d${i % 3}/p${i}.md`, access, token: `TOKEN-${i}-${step}` });
  }
  return pages;
}

const canSee = (access, groups) => access.isPublic || (access.groups ?? []).some((g) => groups.includes(g));

test("generated re-ingests never show a session what its groups could not see", { timeout: 300000 }, async () => {
  const r = rng(20261122);
  const collection = "revoke-generated";
  const written = new Map(); // token → access of the page when that text was written
  const sessions = [];
  let current = [];
  for (let step = 0; step < 6; step++) {
    current = randomDocs(r, step);
    const files = current.map((p) => ({ path: p.slug, content: `${p.token} body of ${p.slug}\n` }));
    const access = Object.fromEntries(current.map((p) => [p.slug, p.access]));
    for (const p of current) written.set(p.token, p.access);
    if (step % 3 === 2) await chroma(chromaUrl(), "DELETE", `/collections/${collection}`).catch(() => {});
    await ingest({ url: chromaUrl(), collection, files, access: JSON.stringify(access) });
    for (const groups of [[], ["a"], ["b", "c"]]) sessions.push({ groups, fs: await connect(collection, groups), step });
    for (const s of sessions) {
      const bash = withCommands(s.fs);
      const out = await bash.exec("find / -type f; grep -r TOKEN /; cat $(find / -type f) 2>&1");
      const seen = [out.stdout, out.stderr, JSON.stringify(s.fs.stats())].join("\n");
      for (const token of seen.match(/TOKEN-\d+-\d+/g) ?? []) {
        assert.ok(canSee(written.get(token), s.groups), `step ${step}: a session with [${s.groups}] from step ${s.step} saw ${token}`);
      }
      if (s.step === step) {
        const listed = out.stdout.split("\n").filter((l) => l.startsWith("/") && !l.includes(":")).sort();
        const visible = current.filter((p) => canSee(p.access, s.groups)).map((p) => `/${p.slug}`).sort();
        assert.deepEqual(listed, visible, `step ${step}, groups [${s.groups}]`);
      }
    }
  }
});
