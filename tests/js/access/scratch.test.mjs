// A scratch /tmp beside the read-only docs: agents write intermediate results there.
// Output must be byte-identical to the reference over the same docs and an empty /tmp
// (the real tools for what chromafs answers itself, just-bash over an InMemoryFs for the
// rest), whichever path a command takes (narrowed search, bulk load, plain read).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { Bash, InMemoryFs, MountableFs } from "just-bash";
import { assertWithinQuotas, chromaUrl, cloudChroma, reference, sameOutput } from "../helpers.mjs";

const files = [
  ...Array.from({ length: 12 }, (_, i) => ({
    path: `${i % 2 ? "guides" : "api"}/p${String(i).padStart(2, "0")}.md`,
    content: Buffer.from(`page ${i}\n${i % 3 === 0 ? "a token here\n" : "nothing\n"}`),
    mtime: 1_700_000_000_000 + i,
  })),
  { path: "index.md", content: Buffer.from("# Home\ntoken index\n"), mtime: 1_700_000_000_000 },
];
const access = { "internal/**": { isPublic: false, groups: ["admin"] } };
const secret = { path: "internal/secret.md", content: Buffer.from("the token of admins\n"), mtime: 1_700_000_000_000 };
let cloud;

before(async () => {
  await ingest({ url: chromaUrl(), collection: "scratch", files: [...files, secret], access });
  cloud = await cloudChroma();
});
after(() => cloud.close());

const connect = (extra = {}) => ChromaFs.connect({ url: cloud.url, collection: "scratch", scratch: "/tmp", ...extra });

/** Runs `script` through chromafs and the reference that applies (a fresh copy each). */
async function same(script) {
  const fs = await connect();
  const ref = await reference(files, { dirs: ["tmp"] });
  try {
    await sameOutput(new Bash({ fs, cwd: "/", customCommands: fs.commands() }), ref, script, fs);
  } finally {
    ref.remove();
  }
}

const SCRIPTS = [
  "grep -rn token / > /tmp/hits; wc -l /tmp/hits; cat /tmp/hits",
  "grep -rn token / > /tmp/hits && wc -l /tmp/hits; grep -rl token / >> /tmp/l; echo $?; cat /tmp/l",
  "rg -n token / > /tmp/r; echo $?; rg -c token / > /tmp/r; cat /tmp/r",
  "echo token > /tmp/t; mkdir /tmp/d; echo 'a token' > /tmp/d/x; grep -rl token; grep -rc token /tmp; grep -c token /tmp/t /tmp/nope",
  "echo token > /tmp/t; cd /tmp && grep -rn token . && rg -l token && rg --files | sort; grep -r token /tmp/d",
  "echo token > /tmp/.h; grep -rl token /tmp; rg -l token /tmp; rg -l --hidden token /tmp",
  "grep -rl token / | sort -r > /tmp/a && head -2 /tmp/a",
  "mkdir -p /tmp/d/e && echo hi > /tmp/d/e/f && cat /tmp/d/e/f && ls /tmp/d && ls -R /tmp",
  "echo one > /tmp/x; echo two >> /tmp/x; cat /tmp/x; mv /tmp/x /tmp/y; cat /tmp/y; ls /tmp",
  "cp /api/p00.md /tmp/ && cat /tmp/p00.md && cp -r /guides /tmp/g && ls /tmp/g | head -3",
  "echo 'a token in scratch' > /tmp/t; grep -rn token /",
  "echo 'a token in scratch' > /tmp/t; grep -rn token .; grep -rl token /tmp /api",
  "echo 'a token' > /tmp/t; rg -n token /; rg -l token",
  "echo 'token' > /tmp/t; grep -rc token /",
  "echo x > /tmp/t; ls /; find / -name 't*'; tree /tmp",
  "echo x > /tmp/t; rm /tmp/t; ls /tmp; rm /tmp/t; echo rc=$?",
  "sort <(grep -rl token /api) | head -3",
  "echo x > /tmp/a; cat /tmp/a /tmp/nope; echo rc=$?",
  "touch /tmp/new; ls /tmp; grep -rn token /tmp; echo rc=$?",
  "mkdir /tmp/q; mkdir /tmp/q; rmdir /tmp/q; echo rc=$?",
  "cd /tmp && echo hi > rel && cat /tmp/rel && pwd",
];

for (const script of SCRIPTS) {
  test(`same as the reference: ${script}`, () => same(script));
}

test("the docs stay read-only, and their paths are the docs' own", async () => {
  const fs = await connect();
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  let r = await safeExec(bash, "echo x > /api/p00.md");
  assert.deepEqual([r.stderr, r.exitCode], ["bash: /api/p00.md: Read-only file system\n", 1]);
  r = await safeExec(bash, "mkdir /api/new; rm /index.md; mv /index.md /tmp/i");
  assert.match(r.stderr, /^mkdir: cannot create directory '\/api\/new': Read-only file system$/m);
  assert.match(r.stderr, /^rm: cannot remove '\/index.md': Read-only file system$/m);
  assert.match(r.stderr, /^mv: cannot move '\/index.md': Read-only file system$/m);
  assert.equal((await safeExec(bash, "cat /index.md")).stdout, "# Home\ntoken index\n");
});

test("scratchBytes bounds it: a write past it is ENOSPC and changes nothing", async () => {
  const fs = await connect({ scratchBytes: 100 });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  let r = await safeExec(bash, "echo small > /tmp/a; seq 1 100 > /tmp/n; echo rc=$?");
  assert.equal(r.stdout, "rc=1\n");
  assert.match(r.stderr, /^bash: \/tmp\/n: No space left on device \(\/tmp holds at most 100 bytes \(scratchBytes\)\)\n$/);
  // As in bash, the redirection created the file before the write failed: it is empty.
  r = await safeExec(bash, "cat /tmp/a; ls /tmp; wc -c < /tmp/n");
  assert.equal(r.stdout, "small\na\nn\n0\n");
});

test("each session has its own; hidden pages cannot be copied in; stats count the docs", async () => {
  const a = await connect();
  const b = await connect();
  const bashA = new Bash({ fs: a, cwd: "/", customCommands: a.commands() });
  await safeExec(bashA, "echo mine > /tmp/note");
  assert.equal(await b.exists("/tmp/note"), false);
  const r = await safeExec(bashA, "cp /internal/secret.md /tmp/s; cat /tmp/s; grep -r admins / /tmp");
  assert.equal(r.stdout, "");
  assert.doesNotMatch(r.stderr, /admins/);
  assert.equal(a.stats().files, files.length);
  const admin = await connect({ groups: ["admin"] });
  const bashAdmin = new Bash({ fs: admin, cwd: "/", customCommands: admin.commands() });
  assert.equal((await safeExec(bashAdmin, "cp /internal/secret.md /tmp/s && cat /tmp/s")).stdout, "the token of admins\n");
});

test("a search over / with a scratch file still narrows the docs in Chroma", async () => {
  const fs = await connect();
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  await safeExec(bash, "echo 'token' > /tmp/t");
  const before = fs.stats().requests;
  const r = await safeExec(bash, "grep -rl token /");
  assert.equal(r.stdout, "/api/p00.md\n/api/p06.md\n/guides/p03.md\n/guides/p09.md\n/index.md\n/tmp/t\n", "as GNU grep spells them");
  const last = fs.stats().commands.at(-1);
  assert.equal(last.plan, "narrow");
  assert.equal(last.native, true, "the scratch directory is walked and read in Rust beside the docs");
  assert.ok(fs.stats().requests - before <= 2, "one coarse query and one bulk load");
});

test("a scratch directory that is a docs path is refused at connect", async () => {
  await assert.rejects(connect({ scratch: "/api" }), /EINVAL: invalid argument, connect '\/api': option scratch names a path in the docs/);
  await assert.rejects(connect({ scratch: "/a/b" }), /option scratch "\/a\/b" must be a top-level directory/);
});

test("the docs can be mounted elsewhere with just-bash's MountableFs (not at /)", async () => {
  const docs = await ChromaFs.connect({ url: cloud.url, collection: "scratch" });
  assert.throws(() => new MountableFs({ mounts: [{ mountPoint: "/", filesystem: docs }] }));
  const fs = new MountableFs({ base: new InMemoryFs(), mounts: [{ mountPoint: "/docs", filesystem: docs }] });
  const bash = new Bash({ fs, cwd: "/", customCommands: docs.commands() });
  const r = await safeExec(bash, "cat /docs/index.md; grep -rl token /docs | wc -l; echo note > /notes; cat /notes");
  assert.equal(r.stdout, "# Home\ntoken index\n5\nnote\n");
  assert.equal((await safeExec(bash, "echo x > /docs/a.md")).stderr, "bash: /a.md: Read-only file system\n", "MountableFs names the path inside the mount");
});

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
