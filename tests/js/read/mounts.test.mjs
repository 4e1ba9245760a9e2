// Several collections in one shell (`ChromaFs.connectMounts`, `--mount /DIR=COLLECTION`):
// every command prints what the reference prints over the same files (the real GNU tools
// for what a mount answered itself, just-bash in memory for what runs in just-bash), a
// command inside one mount asks only that mount's collection, access holds per mount, and
// `search` ranks across mounts or inside one.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { assertWithinQuotas, cloudChroma, newBash, reference as referenceOf, sameOutput } from "../helpers.mjs";

const DOCS = {
  "index.md": "welcome to the guides\nthe token lives in settings\n",
  "guides/setup.md": "setup\nset the token here\nthen restart\n",
  "internal/keys.md": "the admin token is rotated weekly\n",
};
const API = {
  "index.md": "the api reference\n",
  "v2/auth.md": "send the token in a header\nAuthorization: Bearer\n",
  "v2/errors.md": "401 means a bad token\n404 means no such page\n",
};
const ACCESS = { "internal/**": { isPublic: false, groups: ["admin"] } };
const MTIME = Date.UTC(2026, 0, 2);
let cloud;

const files = (pages) => Object.entries(pages).map(([path, content]) => ({ path, content: Buffer.from(content), mtime: MTIME }));

before(async () => {
  cloud = await cloudChroma();
  const embed = async (texts) => texts.map((t) => [t.length % 5, 1, t.includes("token") ? 1 : 0]);
  await ingest({ url: cloud.url, collection: "mount-docs", files: files(DOCS), access: ACCESS, embed, embedModel: "m" });
  await ingest({ url: cloud.url, collection: "mount-api", files: files(API), embed, embedModel: "m" });
});
after(() => cloud.close());

const connect = (groups = []) =>
  ChromaFs.connectMounts({ url: cloud.url, groups, mounts: { "/docs": "mount-docs", "/api": { collection: "mount-api" } } });

async function reference(groups) {
  const visible = Object.entries(DOCS).filter(([p]) => !p.startsWith("internal/") || groups.includes("admin"));
  const all = [...visible.map(([p, c]) => [`docs/${p}`, c]), ...Object.entries(API).map(([p, c]) => [`api/${p}`, c])];
  return referenceOf(all.map(([path, content]) => ({ path, content: Buffer.from(content), mtime: MTIME })));
}

const COMMANDS = [
  "ls /",
  "ls /docs /api/v2",
  "grep -rn token /",
  "grep -rn token /docs",
  "grep -rln token /api /docs/guides",
  "grep -c token /docs/index.md /api/v2/auth.md",
  "grep -rni AUTHORIZATION .",
  "cd /api && grep -rn token v2",
  "cd /docs && grep -rn token",
  "find / -name '*.md' | sort",
  "find /api -type f",
  "cat /docs/guides/setup.md /api/v2/errors.md",
  "wc -l /api/v2/errors.md",
  "head -n 1 /docs/index.md /api/index.md",
  "cat /docs/internal/keys.md",
  "grep -rn token /nope",
  "tree /",
  "grep -rc token /",
  "grep -rl token .",
  "grep -rl token ./",
  "grep -rl token //",
  "cd /docs && grep -rl token .. /",
  "grep -rn token / /api",
  "grep -rnw -e token -e page /",
  "grep -rn -A1 token /",
  "grep -rnC 1 token /",
  "grep -r token /docs/index.md /api/v2/auth.md",
  "grep -r token /docs/index.md",
  "grep token /docs/index.md /api/v2/auth.md",
  "grep -rh token / /docs/index.md",
  "grep -rh token /",
  "grep -rL token /",
  "grep -rn --include='*.md' -i TOKEN /",
  "grep -rn --exclude-dir v2 token /",
  "grep -rnv token / | head -3",
  "grep -rn token / | head -2",
  "grep -ro 'tok[a-z]*' /",
  "egrep -rn 'token|page' /",
  "fgrep -rln token / /nope",
  "echo a token | grep -n token",
  "grep -rn -- -nothing /",
  "grep -rn --no-such-option token /",
  "grep -rnE 'tok(' /",
  "grep -rnP 'the (?=token)' /",
  "grep -rhoP 'a \\K\\w+(?= token)' /",
  "cd /api && grep -rlP '(?<!bad )token' .",
];

for (const groups of [[], ["admin"]]) {
  test(`commands over two mounts print what the reference prints (groups ${JSON.stringify(groups)})`, async () => {
    const fs = await connect(groups);
    const ours = newBash(fs, { customCommands: fs.commands() });
    const ref = await reference(groups);
    ref.gnu?.prepare(COMMANDS);
    for (const cmd of COMMANDS) await sameOutput(ours, ref, cmd, fs);
    ref.remove();
    fs.free();
  });
}

test("a command inside one mount asks only that mount's collection", async () => {
  const fs = await connect();
  const bash = newBash(fs, { customCommands: fs.commands() });
  const before = fs.stats().mounts;
  const r = await bash.exec("grep -rn token /api/v2");
  assert.equal(r.stdout, "/api/v2/auth.md:1:send the token in a header\n/api/v2/errors.md:1:401 means a bad token\n");
  const after = fs.stats().mounts;
  assert.equal(after["/docs"].requests, before["/docs"].requests, "the other mount is not asked");
  assert.ok(after["/api"].requests > before["/api"].requests);
  assert.equal(after["/api"].commands.at(-1).plan, "narrow", "pushed down to the mount's collection");
  fs.free();
});

test("a recursive grep over the root is each mount's own search, pushed down to its collection", async () => {
  const fs = await connect();
  const bash = newBash(fs, { customCommands: fs.commands() });
  await bash.exec("grep -rn token /");
  for (const dir of ["/docs", "/api"]) {
    const last = fs.stats().mounts[dir].commands.at(-1);
    assert.deepEqual([last.command, last.plan], [`grep -rn -- token /${dir.slice(1)}`, "narrow"], dir);
  }
  fs.free();
});

test("search ranks across the mounts, or inside one, and never shows a hidden page", async () => {
  const fs = await connect();
  const bash = newBash(fs, { customCommands: fs.commands() });
  const all = await bash.exec("search -l token");
  assert.equal(all.exitCode, 0, all.stderr);
  const paths = all.stdout.trim().split("\n");
  assert.ok(paths.some((p) => p.startsWith("/docs/")) && paths.some((p) => p.startsWith("/api/")), all.stdout);
  assert.ok(!all.stdout.includes("internal"), "a hidden page never appears");
  // Each mount's hits, as printed with their snippet lines, taken in turn by rank.
  const each = await Promise.all(fs.all.map((m) => m.searchCommand(["-n", "4", "token"], "/")));
  for (const r of each) assert.equal(r.blocks.join(""), r.stdout, "a mount's blocks are its output");
  assert.ok(each.every((r) => r.blocks.length >= 2) && each[0].blocks.every((b) => /^\/\S+:\d+-\d+\n  \d+: /.test(b)), each[0].stdout);
  const turns = [0, 1].flatMap((rank) => each.map((r) => r.blocks[rank]));
  const merged = await bash.exec("search -n 4 token");
  assert.equal(merged.stdout, turns.join(""), "the first of each mount, then the second of each");
  const help = await bash.exec("search --help");
  assert.equal(help.stdout, (await fs.all[0].searchCommand(["--help"], "/")).stdout, "the help, once");
  assert.match(help.stdout, /^Usage: search/);
  const one = await bash.exec("search -l --path /api token");
  assert.ok(one.stdout.trim().split("\n").every((p) => p.startsWith("/api/")), one.stdout);
  const hits = await fs.search("token", { k: 3 });
  assert.equal(hits.length, 3);
  const admin = await connect(["admin"]);
  assert.ok((await admin.search("admin token rotated", { path: "/docs" })).some((h) => h.path === "/docs/internal/keys.md"));
  admin.free();
  fs.free();
});

test("mounts are top-level directories, each given once", async () => {
  await assert.rejects(ChromaFs.connectMounts({ url: cloud.url, mounts: {} }), /at least one/);
  await assert.rejects(ChromaFs.connectMounts({ url: cloud.url, mounts: { "docs/x": "mount-docs" } }), /top-level directory/);
  await assert.rejects(ChromaFs.connectMounts({ url: cloud.url, mounts: { "/docs": "mount-docs", "/docs/": "mount-api" } }), /given twice/);
  await assert.rejects(ChromaFs.connectMounts({ url: cloud.url, mounts: { "/docs": "no-such-collection" } }), /does not exist/);
});

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
