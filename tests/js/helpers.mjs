import assert from "node:assert/strict";
// Shared by the Node test files: the server under test, corpus loading, and the
// reference shell (just-bash over an InMemoryFs holding the same files).
import { readdir, readFile, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Bash, InMemoryFs } from "just-bash";
import { safeExec } from "chromafs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CORPUS = path.resolve(ROOT, "../shared/corpus/mintlify-docs");

/**
 * A Chroma that behaves like Chroma Cloud: the local server behind a proxy that refuses
 * what Cloud's quotas refuse. Each suite that uses it ends with a test that no request
 * broke a quota (`assertWithinQuotas`).
 */
export async function cloudChroma() {
  const { startCloudProxy } = await import("./proxy.mjs");
  return startCloudProxy(chromaUrl());
}

/** Every request a Cloud-shaped proxy saw stayed within Chroma Cloud's quotas. */
export function assertWithinQuotas(cloud) {
  const shown = cloud.violations.slice(0, 3).map((v) => `${v.path}: ${v.message}\n  ${v.body?.slice?.(0, 300) ?? ""}`);
  if (cloud.violations.length) throw new Error(`${cloud.violations.length} requests broke Chroma Cloud's quotas:\n${shown.join("\n")}`);
}

/** The local Chroma the test script started. */
export function chromaUrl() {
  const url = process.env.CHROMAFS_TEST_URL;
  if (!url) throw new Error("CHROMAFS_TEST_URL is not set: run the tests with `npm test`");
  return url;
}

export function corpusPresent() {
  if (existsSync(CORPUS)) return true;
  console.error(`\n!!! ${CORPUS} is missing: the corpus-based tests are SKIPPED !!!\n`);
  return false;
}

/** Every regular file below `dir`: `{ path: "a/b.md", content: Buffer, mtime }`, sorted by path. */
export async function readDocs(dir) {
  const out = [];
  async function walk(rel) {
    for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else if (e.isFile()) {
        const full = path.join(dir, r);
        out.push({ path: r, content: await readFile(full), mtime: Math.floor((await stat(full)).mtimeMs) });
      }
    }
  }
  await walk("");
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const isDevNull = (p) => typeof p === "string" && p.replace(/\/+/g, "/").replace(/\/$/, "") === "/dev/null";

/**
 * The reference: just-bash's own InMemoryFs with the same files and mtimes (directories
 * get the newest mtime below them, as chromafs reports). It is wrapped in a plain object
 * so Bash does not add its default /bin, /tmp… layout, and it has a /dev/null, as every
 * system does.
 */
export async function referenceFs(files) {
  const init = {};
  const dirTimes = new Map();
  for (const f of files) {
    init[`/${f.path}`] = { content: new Uint8Array(f.content), mtime: new Date(f.mtime) };
    dirTimes.set("/", Math.max(dirTimes.get("/") ?? 0, f.mtime));
    const parts = f.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const d = `/${parts.slice(0, i).join("/")}`;
      dirTimes.set(d, Math.max(dirTimes.get(d) ?? 0, f.mtime));
    }
  }
  const mem = new InMemoryFs(init);
  for (const [d, t] of dirTimes) await mem.utimes(d, new Date(t), new Date(t));
  const fs = {};
  for (const name of [
    "readFile", "readFileBuffer", "readFileBytes", "writeFile", "appendFile", "exists", "stat", "lstat", "mkdir",
    "readdir", "readdirWithFileTypes", "rm", "cp", "mv", "resolvePath", "getAllPaths", "chmod", "symlink", "link",
    "readlink", "realpath", "utimes",
  ]) {
    fs[name] = (...args) => mem[name](...args);
  }
  const devNull = { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o666, size: 0, mtime: new Date(0) };
  fs.writeFile = (p, ...rest) => (isDevNull(p) ? Promise.resolve() : mem.writeFile(p, ...rest));
  fs.appendFile = (p, ...rest) => (isDevNull(p) ? Promise.resolve() : mem.appendFile(p, ...rest));
  fs.exists = async (p) => isDevNull(p) || mem.exists(p);
  fs.stat = (p) => (isDevNull(p) ? Promise.resolve({ ...devNull }) : mem.stat(p));
  fs.lstat = (p) => (isDevNull(p) ? Promise.resolve({ ...devNull }) : mem.lstat(p));
  fs.readFile = (p, ...rest) => (isDevNull(p) ? Promise.resolve("") : mem.readFile(p, ...rest));
  fs.readFileBuffer = (p) => (isDevNull(p) ? Promise.resolve(new Uint8Array()) : mem.readFileBuffer(p));
  fs.readFileBytes = (p) => (isDevNull(p) ? Promise.resolve("") : mem.readFileBytes(p));
  return fs;
}

/** Runs a command line; never rejects (see safeExec). */
export function run(bash, command, options) {
  return safeExec(bash, command, options);
}

export function newBash(fs, extra = {}) {
  return new Bash({ fs, cwd: "/", ...extra });
}

/** A short, readable diff hint for assertion messages. */
export function show(r) {
  return JSON.stringify({ stdout: r.stdout.slice(0, 600), stderr: r.stderr.slice(0, 600), exitCode: r.exitCode });
}

/** A TCP port nobody listens on right now, for servers a test starts. */
export async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/** A small seeded generator, so a failing generated case can be reproduced. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Runs `cmd` through both shells and asserts the same stdout, stderr and exit code. */
export async function sameOutput(ours, ref, cmd) {
  const [a, b] = [await run(ours, cmd), await run(ref, cmd)];
  assert.deepEqual(
    { stdout: a.stdout, stderr: a.stderr, exitCode: a.exitCode },
    { stdout: b.stdout, stderr: b.stderr, exitCode: b.exitCode },
    `${cmd}\nchromafs ${show(a)}\nreference ${show(b)}`,
  );
}
