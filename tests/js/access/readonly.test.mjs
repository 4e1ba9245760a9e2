// Writes: every mutation fails with EROFS and changes nothing; /dev/null works;
// safeExec turns just-bash's rejected exec() into a bash-like error line.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest, safeExec, bashErrorLine } from "chromafs";
import { chromaUrl, newBash } from "../helpers.mjs";

let fs, bash;
const files = [
  { path: "index.md", content: "# Home\nhello\n" },
  { path: "guides/setup.md", content: "step one\nstep two\n" },
];

before(async () => {
  await ingest({ url: chromaUrl(), collection: "readonly", files });
  fs = await ChromaFs.connect({ url: chromaUrl(), collection: "readonly" });
  bash = newBash(fs);
});

const snapshot = async () => {
  const r = await bash.exec("ls -laR / && cat /index.md /guides/setup.md");
  assert.equal(r.exitCode, 0);
  return r.stdout;
};

test("mutating commands fail with EROFS and nothing changes", async () => {
  const before = await snapshot();
  const cases = [
    ["rm /index.md", "rm: cannot remove '/index.md': EROFS: read-only file system, rm '/index.md'\n"],
    ["mkdir /new", "mkdir: cannot create directory '/new': EROFS: read-only file system, mkdir '/new'\n"],
    ["touch /index.md", "touch: cannot touch '/index.md': EROFS: read-only file system, utimes '/index.md'\n"],
    ["mv /index.md /moved.md", "mv: cannot move '/index.md': EROFS: read-only file system, mv '/moved.md'\n"],
    ["cp /index.md /copy.md", "cp: cannot copy '/index.md': EROFS: read-only file system, cp '/copy.md'\n"],
    ["ln -s /index.md /link.md", "ln: EROFS: read-only file system, symlink '/link.md'\n"],
    ["touch /new.md", "touch: cannot touch '/new.md': EROFS: read-only file system, write '/new.md'\n"],
  ];
  for (const [cmd, stderr] of cases) {
    const r = await bash.exec(cmd);
    assert.notEqual(r.exitCode, 0, cmd);
    assert.match(r.stderr, /EROFS: read-only file system/, cmd);
    if (stderr) assert.equal(r.stderr, stderr, cmd);
    // Through safeExec: one cause, one message, in the words bash and the GNU tools use.
    const s = await safeExec(newBash(fs), cmd);
    assert.equal(s.stderr, stderr.replace(/EROFS: read-only file system, \w+ '[^']*'/, "Read-only file system"), cmd);
    assert.equal(s.exitCode, r.exitCode, cmd);
  }
  // just-bash's chmod reports any failure as a missing file, and rm -f hides failures.
  assert.equal((await bash.exec("chmod 600 /index.md")).exitCode, 1);
  assert.equal((await bash.exec("rm -rf /guides")).stderr, "");
  const r = await bash.exec("{ echo x > /index.md; } ; echo rc=$?");
  assert.match(r.stderr, /EROFS/);
  assert.equal(r.stdout, "rc=1\n");
  assert.equal(await snapshot(), before);
});

test("the filesystem methods themselves reject with EROFS errors", async () => {
  for (const [call, message] of [
    [() => fs.writeFile("/a.md", "x"), "EROFS: read-only file system, write '/a.md'"],
    [() => fs.appendFile("/index.md", "x"), "EROFS: read-only file system, append '/index.md'"],
    [() => fs.mkdir("/d", { recursive: true }), "EROFS: read-only file system, mkdir '/d'"],
    [() => fs.rm("/index.md", { force: true }), "EROFS: read-only file system, rm '/index.md'"],
    [() => fs.cp("/index.md", "/b.md"), "EROFS: read-only file system, cp '/b.md'"],
    [() => fs.mv("/index.md", "/b.md"), "EROFS: read-only file system, mv '/b.md'"],
    [() => fs.chmod("/index.md", 0o600), "EROFS: read-only file system, chmod '/index.md'"],
    [() => fs.symlink("/index.md", "/l"), "EROFS: read-only file system, symlink '/l'"],
    [() => fs.link("/index.md", "/l"), "EROFS: read-only file system, link '/l'"],
    [() => fs.utimes("/index.md", new Date(), new Date()), "EROFS: read-only file system, utimes '/index.md'"],
  ]) {
    await assert.rejects(call(), (e) => e instanceof Error && e.code === "EROFS" && e.message === message);
  }
});

test("/dev/null accepts writes, so 2>/dev/null works", async () => {
  let r = await bash.exec("echo hi > /dev/null; echo rc=$?");
  assert.equal(r.stdout, "rc=0\n");
  assert.equal(r.stderr, "");
  r = await bash.exec("ls /nope 2>/dev/null; echo rc=$?");
  assert.equal(r.stdout, "rc=2\n");
  assert.equal(r.stderr, "");
  r = await bash.exec("grep step /guides/setup.md /nope 2>/dev/null");
  assert.equal(r.stdout, "/guides/setup.md:step one\n/guides/setup.md:step two\n");
  assert.equal(r.exitCode, 2);
  assert.equal(await fs.exists("/dev/null"), true);
  assert.equal((await fs.stat("/dev/null")).isFile, true);
  assert.equal(await fs.readFile("/dev/null"), "");
  r = await bash.exec("ls /");
  assert.equal(r.stdout, "guides\nindex.md\n", "no /dev directory appears");
});

test("a redirection that cannot open fails its command alone, as in bash", async () => {
  // just-bash alone lets the filesystem's error end the whole line.
  await assert.rejects(newBash(fs).exec("echo one; echo x > /a.md; echo two"), /EROFS: read-only file system, write '\/a.md'/);
  const r = await safeExec(newBash(fs), "echo one; echo x > /a.md; echo two");
  assert.deepEqual([r.stdout, r.stderr, r.exitCode], ["one\ntwo\n", "bash: /a.md: Read-only file system\n", 0]);
  const lines = [
    ["echo x > /a.md; echo rc=$?", "rc=1\n", "bash: /a.md: Read-only file system\n"],
    ["echo x >> /index.md || echo no", "no\n", "bash: /index.md: Read-only file system\n"],
    ["echo x > /nodir/a.md; echo $?", "1\n", "bash: /nodir/a.md: No such file or directory\n"],
    ["echo x > /index.md/a; echo $?", "1\n", "bash: /index.md/a: Not a directory\n"],
    ["echo x > /guides; echo $?", "1\n", "bash: /guides: Is a directory\n"],
    ["f=/guides/x.md; for i in 1 2; do echo $i > \"$f\"; echo $i; done", "1\n2\n", "bash: /guides/x.md: Read-only file system\n".repeat(2)],
    ["cd /guides && cat setup.md > ../x; echo $?", "1\n", "bash: ../x: Read-only file system\n"],
    ["echo x 2>/dev/null > /a.md; echo $?", "1\n", ""],
    ["echo x 2>&1 > /a.md | tr a-z A-Z", "BASH: /A.MD: READ-ONLY FILE SYSTEM\n", ""],
    ["{ echo a; echo b; } > /a.md; echo $?", "1\n", "bash: /a.md: Read-only file system\n"],
    ["echo a | cat > /a.md | wc -l; echo ${PIPESTATUS[@]}", "0\n0 1 0\n", "bash: /a.md: Read-only file system\n"],
    ["echo x > /dev/null; echo ok", "ok\n", ""],
  ];
  for (const [line, stdout, stderr] of lines) {
    const r = await safeExec(newBash(fs), line);
    assert.deepEqual([r.stdout, r.stderr, r.exitCode], [stdout, stderr, 0], line);
  }
  // A failed write that still escapes a command's own handling reads as bash's line.
  assert.deepEqual(await safeExec({ fs: {}, exec: () => Promise.reject(new Error("EROFS: read-only file system, write '/a.md'")) }, "x"), {
    stdout: "",
    stderr: "bash: /a.md: Read-only file system\n",
    exitCode: 1,
    env: {},
  });
  const ok = await safeExec(bash, "cat /index.md");
  assert.equal(ok.stdout, "# Home\nhello\n");
  assert.equal(ok.exitCode, 0);
  assert.equal(bashErrorLine(new Error("EIO: i/o error, open '/x.md': cannot reach Chroma")), "bash: /x.md: Input/output error (cannot reach Chroma)");
  assert.equal(bashErrorLine("weird"), "bash: weird");
});
