// The repository and the docs corpus on disk, for the tests and the benchmarks: where they
// are, whether the corpus is present, and a docs folder read as the files to ingest.
import { readdir, readFile, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CORPUS = path.resolve(ROOT, "../shared/corpus/mintlify-docs");

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
