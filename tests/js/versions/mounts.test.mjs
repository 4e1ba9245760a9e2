// Versions over mounts: a session scoped to a version (`connect({ version })` of
// connectMounts, the CLI's `--docs-version` with `--mount`) shows, in each mount, that
// version's pages and those of no version: a mount without versions all its pages, a mount
// whose versions are others its pages of no version alone. A version no mount has is an
// error naming each mount's versions. `search --version` over the mounts reads them alike.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Bash } from "just-bash";
import { ChromaFs, safeExec } from "chromafs";
import { chromaUrl, chromafsCli, tempDir, writeTree } from "../helpers.mjs";

const DOCS = {
  "versions-mount-api": {
    folders: true,
    pages: { "v1/keys.md": "# Keys v1\nRotate the key with keys-rotate.\n", "v2/keys.md": "# Keys v2\nRotate the key with key rotate.\n", "errors.md": "# Errors\nA key that expired answers 401.\n" },
  },
  "versions-mount-guides": { folders: false, pages: { "start.md": "# Start\nCreate a key first.\n", "deploy.md": "# Deploy\nShip it.\n" } },
  "versions-mount-sdk": {
    folders: true,
    pages: { "2024/client.md": "# Client 2024\nPass the key to the client.\n", "2025/client.md": "# Client 2025\nThe client reads the key from the env.\n", "faq.md": "# FAQ\nWhere is my key?\n" },
  },
};
const MOUNTS = { "/api": "versions-mount-api", "/guides": "versions-mount-guides", "/sdk": "versions-mount-sdk" };

before(async () => {
  for (const [collection, { folders, pages }] of Object.entries(DOCS)) {
    const dir = tempDir(collection);
    await writeTree(dir, pages);
    const r = await chromafsCli("ingest", dir, "--url", chromaUrl(), "--collection", collection, ...(folders ? ["--version-folders"] : []));
    assert.equal(r.status, 0, r.stderr);
  }
});

const connect = (options = {}) => ChromaFs.connectMounts({ url: chromaUrl(), mounts: MOUNTS, ...options });
const exec = (fs, line) => safeExec(new Bash({ fs, cwd: "/", customCommands: fs.commands() }), line);

test("scoped to v2, each mount shows v2's pages and its pages of no version; a mount without versions, all of its pages", async () => {
  const fs = await connect({ version: "v2" });
  try {
    const listed = await exec(fs, "find /api /guides /sdk -type f | sort");
    assert.equal(listed.stdout, "/api/errors.md\n/api/v2/keys.md\n/guides/deploy.md\n/guides/start.md\n/sdk/faq.md\n");
    const grep = await exec(fs, "grep -rl key /");
    assert.equal(grep.stdout, "/api/errors.md\n/api/v2/keys.md\n/guides/start.md\n/sdk/faq.md\n");
    const gone = await exec(fs, "cat /sdk/2025/client.md");
    assert.deepEqual([gone.exitCode, gone.stderr], [1, "cat: /sdk/2025/client.md: No such file or directory\n"]);
    const hits = await fs.search("rotate the key", { k: 20 });
    assert.ok(hits.every((h) => h.version === undefined || h.version === "v2"), JSON.stringify(hits));
    assert.ok(hits.some((h) => h.path === "/api/v2/keys.md"));
    const other = await exec(fs, "search --version 2025 the client reads the key");
    assert.deepEqual([other.exitCode, other.stderr], [2, 'search: version "2025" does not exist; the versions are v2\n'], "scoped to v2, no other version");
  } finally {
    fs.free();
  }
  const sdk = await connect({ version: "2025" });
  try {
    assert.equal((await exec(sdk, "find /api /sdk -type f | sort")).stdout, "/api/errors.md\n/sdk/2025/client.md\n/sdk/faq.md\n");
  } finally {
    sdk.free();
  }
});

test("a version no mount has is an error naming each mount's versions", async () => {
  await assert.rejects(connect({ version: "v9" }), (e) => {
    assert.equal(e.code, "EINVAL");
    assert.match(e.message, /version "v9" does not exist in any mount; the versions of each are \/api: v1, v2; \/guides: none; \/sdk: 2024, 2025$/);
    return true;
  });
});

test("one collection under a directory of its own (connect with mountAt) refuses a version it lacks, as without mountAt", async () => {
  const one = (collection, version) => ChromaFs.connect({ url: chromaUrl(), collection, mountAt: "/docs", version });
  await assert.rejects(one("versions-mount-api", "2025"), (e) => {
    assert.equal(e.code, "EINVAL");
    assert.match(e.message, /: version "2025" does not exist; the versions are v1, v2$/);
    return true;
  });
  await assert.rejects(one("versions-mount-guides", "v1"), (e) => e.code === "EINVAL" && /version "v1" does not exist: these docs have no versions$/.test(e.message));
  const fs = await one("versions-mount-api", "v2");
  try {
    assert.equal((await exec(fs, "find /docs -type f | sort")).stdout, "/docs/errors.md\n/docs/v2/keys.md\n");
    assert.equal(await fs.ofVersion("v2"), fs);
  } finally {
    fs.free();
  }
});

test("search --version over unscoped mounts: the version's pages where a mount has it, the pages of no version elsewhere", async () => {
  const fs = await connect();
  try {
    const r = await exec(fs, "search --json -n 20 --version v1 rotate the key");
    assert.equal(r.exitCode, 0, r.stderr);
    const found = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(found.some((h) => h.path === "/api/v1/keys.md"), r.stdout);
    assert.ok(found.every((h) => h.version === undefined || h.version === "v1"), r.stdout);
    const hits = await fs.search("the client reads the key from the env", { version: "2025", k: 20 });
    assert.equal(hits[0].path, "/sdk/2025/client.md");
    assert.ok(hits.every((h) => h.version === undefined || h.version === "2025"), JSON.stringify(hits));
    const missing = await exec(fs, "search --version v9 rotate the key");
    assert.deepEqual([missing.exitCode, missing.stdout], [2, ""]);
    assert.equal(missing.stderr, 'search: version "v9" does not exist in any mount; the versions of each are /api: v1, v2; /guides: none; /sdk: 2024, 2025\n');
    await assert.rejects(fs.search("key", { version: "v9" }), (e) => e.code === "EINVAL" && /does not exist in any mount/.test(e.message));
  } finally {
    fs.free();
  }
});

test("the CLI: --docs-version with --mount, and a version no mount has", async () => {
  const mounts = Object.entries(MOUNTS).flatMap(([dir, c]) => ["--mount", `${dir}=${c}`]);
  const r = await chromafsCli("exec", "find / -type f | sort", "--url", chromaUrl(), ...mounts, "--docs-version", "2024");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "/api/errors.md\n/guides/deploy.md\n/guides/start.md\n/sdk/2024/client.md\n/sdk/faq.md\n");
  const bad = await chromafsCli("exec", "ls", "--url", chromaUrl(), ...mounts, "--docs-version", "v9");
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /version "v9" does not exist in any mount; the versions of each are \/api: v1, v2; \/guides: none; \/sdk: 2024, 2025\n$/);
});
