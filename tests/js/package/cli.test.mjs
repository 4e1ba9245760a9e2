// The command-line tool: ingest a folder, run one command, or a shell fed on stdin.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, chromaUrl } from "../helpers.mjs";

const BIN = path.join(ROOT, "pkg/bin/chromafs.mjs");
const cli = (args, input) => spawnSync(process.execPath, [BIN, ...args], { input, encoding: "utf8", timeout: 120000 });
let dir;

before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "chromafs-cli-"));
  mkdirSync(path.join(dir, "guides"));
  mkdirSync(path.join(dir, "internal"));
  writeFileSync(path.join(dir, "index.md"), "# Welcome\nstart here\n");
  writeFileSync(path.join(dir, "guides/setup.md"), "install it\nrun it\n");
  writeFileSync(path.join(dir, "internal/plan.md"), "the confidential plan\n");
  writeFileSync(path.join(dir, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]));
  writeFileSync(path.join(dir, "access.json"), JSON.stringify({ "internal/**": { isPublic: false, groups: ["staff"] } }));
});

const conn = () => ["--url", chromaUrl(), "--collection", "cli"];

test("ingest writes the folder and reports what it wrote", () => {
  const r = cli(["ingest", dir, ...conn(), "--access", path.join(dir, "access.json")]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ingested 4 pages \(3 public, 1 restricted\) as 4 chunks, \d+ B, into collection cli; removed 0 stale records; tree \d+ B; \d+ requests\ngrep index: \d+ records?\naccess rule "internal\/\*\*": 1 page\n$/);
  assert.equal(r.stderr, "chromafs: skipped 1 file that is not UTF-8 text: logo.png\n");
});

test("exec runs one command and passes its exit code through", () => {
  let r = cli(["exec", "ls -R /", ...conn()]);
  assert.equal(r.status, 0, r.stderr);
  // As GNU ls spells them, the scratch directory in its place.
  assert.equal(r.stdout, "/:\naccess.json\nguides\nindex.md\ntmp\n\n/guides:\nsetup.md\n\n/tmp:\n");
  r = cli(["exec", "cat /internal/plan.md", ...conn()]);
  assert.equal(r.status, 1);
  assert.equal(r.stderr, "cat: /internal/plan.md: No such file or directory\n");
  r = cli(["exec", "grep -r confidential /", ...conn(), "--groups", "staff,other"]);
  assert.equal(r.stdout, "/internal/plan.md:the confidential plan\n");
  assert.equal(r.stderr, 'chromafs: note: no page of these docs names the group "other" (--groups): check the spelling\n', "said once");
  assert.equal(cli(["exec", "true", ...conn(), "--groups", "staff"]).stderr, "", "a group a page names is not mentioned");
  assert.equal(cli(["exec", "ls /nope", ...conn()]).status, 2);
});

test("the shell reads commands from stdin, keeps its directory, exits with the last status", () => {
  let r = cli(["shell", ...conn()], "cd /guides\npwd\ncat setup.md\n");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "/guides\ninstall it\nrun it\n");
  r = cli(["shell", ...conn()], "ls /\nls /missing\n");
  assert.equal(r.status, 2);
  assert.equal(r.stderr, "ls: cannot access '/missing': No such file or directory\n");
  r = cli(["shell", ...conn()], "grep -rl install / > /tmp/hits\ncat /tmp/hits\n");
  assert.equal(r.stdout, "/guides/setup.md\n", "the shell has a scratch /tmp");
  r = cli(["shell", ...conn()], "echo x > /index.md\necho after\n");
  assert.equal(r.stdout, "after\n");
  assert.equal(r.stderr, "bash: /index.md: Read-only file system\n");
});

test("a re-run removes pages that are gone", () => {
  unlinkSync(path.join(dir, "guides/setup.md"));
  const r = cli(["ingest", dir, ...conn()]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /removed 1 stale record;/);
  assert.equal(cli(["exec", "ls /", ...conn()]).stdout, "access.json\nindex.md\ninternal\ntmp\n", "without --access everything is public");
  assert.equal(cli(["exec", "ls /", ...conn(), "--scratch", "none"]).stdout, "access.json\nindex.md\ninternal\n");
});

test("errors are one clear line; usage errors exit 2", () => {
  let r = cli(["exec", "ls", "--url", chromaUrl(), "--collection", "no-such-collection"]);
  assert.equal(r.status, 1);
  // The operator is told which collections there are (here, among others, the one this file wrote).
  const listed = /^chromafs: EIO: i\/o error, connect 'no-such-collection': collection "no-such-collection" does not exist; database "default_database" of tenant "default_tenant" has (one:|these:|more than 20 collections, among them) (.*)\n$/.exec(r.stderr);
  assert.ok(listed, r.stderr);
  // With 20 or fewer, every one is named, this file's among them.
  if (!listed[1].startsWith("more")) assert.match(listed[2], /(^|, )"cli"(,|$)/);
  assert.equal(r.stderr.split("\n").length, 2, "one line");
  r = cli(["exec", "ls", ...conn(), "--tenant", "no-such-tenant"]);
  assert.deepEqual([r.status, r.stderr], [1, `chromafs: tenant "no-such-tenant" does not exist on ${chromaUrl()} (--tenant)\n`]);
  r = cli(["exec", "ls", ...conn(), "--database", "no-such-database"]);
  assert.deepEqual([r.status, r.stderr], [1, `chromafs: database "no-such-database" does not exist in tenant "default_tenant" on ${chromaUrl()} (--database)\n`]);
  r = cli(["ingest", path.join(dir, "missing"), ...conn()]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^chromafs: .*missing: no such directory\n$/);
  r = cli(["frobnicate"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command 'frobnicate'/);
  r = cli(["exec", "ls", ...conn(), "--bogus"]);
  assert.equal(r.status, 2);
  r = cli(["--help"]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: chromafs <command> \[options\]/);
  rmSync(dir, { recursive: true, force: true });
});

test("a tree with a bad entry: exec tells the operator once, escaped, and serves the rest", async () => {
  const { writeOtherTool } = await import("../../../support/other-tool.mjs");
  const files = [{ path: "ok.md", content: "fine\n" }, { path: "x\ny.md", content: "forged\n" }];
  await writeOtherTool(chromaUrl(), "cli-broken", files, {
    chunkLength: () => 100,
    entry: (f) => (f.path === "ok.md" ? { isPublic: true } : { isPublic: true, chunks: 3 }),
  });
  const r = cli(["exec", "cat /ok.md; ls /", "--url", chromaUrl(), "--collection", "cli-broken", "--scratch", "none"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "fine\nok.md\n");
  const [broken, shape] = [r.stderr.split("\n").slice(0, 2).join("\n") + "\n", r.stderr.split("\n").slice(2).join("\n")];
  assert.equal(broken, `chromafs: 1 entry of the path tree cannot be shown or read:\n  corrupt path tree: entry "x\\ny.md": path contains the control character '\\n'\n`);
  assert.match(shape, /^chromafs: the chunks of collection cli-broken carry no access.*\n$/, "the entry set aside may hold text: searches read their scope");
});

test("a collection whose searches read their scope: the operator is told once what fixes it, the agent nothing", async () => {
  const { writeOtherTool } = await import("../../../support/other-tool.mjs");
  const files = [{ path: "guide.md", content: "the token\n" }, { path: "staff/keys.md", content: "the admin token\n" }];
  await writeOtherTool(chromaUrl(), "cli-foreign", files, {
    chunkLength: () => 100,
    entry: (f) => (f.path === "guide.md" ? { isPublic: true } : { isPublic: false, groups: ["staff"] }),
  });
  const exec = (...extra) => cli(["exec", "grep -r token /", "--url", chromaUrl(), "--collection", "cli-foreign", "--scratch", "none", ...extra]);
  let r = exec();
  assert.equal(r.stdout, "/guide.md:the token\n", "the agent's output is the search's alone");
  assert.equal(r.stderr.match(/chromafs annotate/g)?.length, 1, r.stderr);
  assert.match(r.stderr, /carry no access.*reads 1 page, about 1 request.*chromafs annotate --url http:\/\/127\.0\.0\.1:\d+ --collection cli-foreign\n$/s);
  r = exec("--groups", "staff");
  // A session that sees every page asks Chroma: only that the collection has no grep index.
  assert.equal(
    r.stderr,
    "chromafs: note: collection cli-foreign: case-insensitive and regex greps ask Chroma, which may read every record for them: " +
      "the collection has no grep index (`chromafs ingest` writes one with the tree, and `chromafs annotate --grep-index` adds one to a collection another tool wrote)\n",
  );
  assert.equal(cli(["annotate", "--url", chromaUrl(), "--collection", "cli-foreign", "--grep-index"]).status, 0);
  r = exec();
  assert.equal([r.stdout, r.stderr].join(""), "/guide.md:the token\n", "annotated: searches are scoped inside Chroma");
  const search = (...extra) => cli(["exec", "search --json token", "--url", chromaUrl(), "--collection", "cli-foreign", ...extra]);
  r = search("--base-url", "https://docs.example.com/v2");
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split("\n").map((l) => [JSON.parse(l).path, JSON.parse(l).url]), [["/guide.md", "https://docs.example.com/v2/guide"]]);
  assert.equal(JSON.parse(search().stdout).url, undefined, "no address without a base URL");
  assert.equal(search("--base-url", "ftp://x").status, 2);
});

test("ingest leaves out dotfiles, what .gitignore ignores and symbolic links, and says so", async () => {
  const { symlinkSync } = await import("node:fs");
  const d = mkdtempSync(path.join(os.tmpdir(), "chromafs-cli-walk-"));
  try {
    const put = (p, text) => {
      mkdirSync(path.dirname(path.join(d, p)), { recursive: true });
      writeFileSync(path.join(d, p), text);
    };
    put("index.md", "home\n");
    put(".env", "API_KEY=secret\n");
    put(".github/workflow.yml", "on: push\n");
    put("guides/.draft.md", "draft\n");
    put(".gitignore", "build/\n*.log\n!keep.log\n");
    put("build/out.md", "generated\n");
    put("notes/debug.log", "noise\n");
    put("notes/keep.log", "kept\n");
    put("notes/.gitignore", "secret.md\n");
    put("notes/secret.md", "ignored below notes\n");
    put("guides/secret.md", "not ignored here\n");
    symlinkSync("/etc/passwd", path.join(d, "passwd.md"));
    const conn = ["--url", chromaUrl(), "--collection", "cli-walk"];
    let r = cli(["ingest", d, ...conn]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stderr,
      "chromafs: skipped 5 hidden files and directories (--hidden includes them): .env, .github/, .gitignore, guides/.draft.md, notes/.gitignore\n" +
        "chromafs: skipped 3 paths that .gitignore ignores (--no-ignore includes them): build/, notes/debug.log, notes/secret.md\n" +
        "chromafs: skipped 1 symbolic link (not followed): passwd.md\n",
    );
    r = cli(["exec", "find / -type f | sort", ...conn, "--scratch", "none"]);
    assert.equal(r.stdout, "/guides/secret.md\n/index.md\n/notes/keep.log\n");
    r = cli(["ingest", d, ...conn, "--hidden", "--no-ignore"]);
    assert.equal(r.status, 0, r.stderr);
    r = cli(["exec", "find / -type f | wc -l", ...conn, "--scratch", "none"]);
    assert.equal(r.stdout, "11\n", "everything but the link: .env, .gitignore files, ignored paths");
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
});

test("mcp refuses a tokens file that is not an object of real tokens, and warns when others can read it", async () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "chromafs-cli-tokens-"));
  try {
    const file = path.join(d, "tokens.json");
    for (const [tokens, message] of [
      [[["admin"]], /--tokens: .*tokens\.json: tokens must be a JSON object/],
      [{ x: ["admin"] }, /at least 16 characters/],
    ]) {
      writeFileSync(file, JSON.stringify(tokens), { mode: 0o600 });
      const r = cli(["mcp", "--http", "0", "--tokens", file, "--url", chromaUrl(), "--collection", "cli"]);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, message);
    }
    const { spawn } = await import("node:child_process");
    writeFileSync(file, JSON.stringify({ "a-token-of-twenty-chars": ["staff"] }));
    const { chmodSync } = await import("node:fs");
    chmodSync(file, 0o644);
    const server = spawn(process.execPath, [BIN, "mcp", "--http", "0", "--tokens", file, "--url", chromaUrl(), "--collection", "cli"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    await new Promise((resolve) => {
      server.stderr.on("data", (b) => {
        stderr += b;
        if (/MCP server: http/.test(stderr)) resolve();
      });
      server.on("exit", resolve);
    });
    server.kill();
    assert.match(stderr, /warning: .*tokens\.json can be read by other users \(mode 644\): chmod 600/);
    const r = cli(["mcp", "--url", "http://127.0.0.1:1/?api_key=hunter2", "--collection", "cli", "--http", "0"]);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, "chromafs: --url must not have a query string (pass credentials with --token)\nTry 'chromafs --help'.\n");
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
});

test("mcp --tokens reads its file again when it changes: a removed token is refused, an unreadable file refuses every token", async () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "chromafs-cli-reload-"));
  const file = path.join(d, "tokens.json");
  const [keep, drop] = ["a-token-kept-0123456789", "a-token-dropped-0123456"];
  writeFileSync(file, JSON.stringify({ [keep]: ["staff"], [drop]: [] }), { mode: 0o600 });
  const { spawn } = await import("node:child_process");
  const args = ["mcp", "--http", "0", "--tokens", file, "--require-token", "--url", chromaUrl(), "--collection", "cli"];
  const server = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  try {
    const url = await new Promise((resolve, reject) => {
      server.stderr.on("data", (b) => {
        stderr += b;
        const m = /MCP server: (http\S+)/.exec(stderr);
        if (m) resolve(m[1]);
      });
      server.on("exit", () => reject(new Error(stderr)));
    });
    const status = (token) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }).then((r) => r.status);
    /** Polls until `token` gets `want` (the file is looked at every second). */
    const becomes = async (token, want) => {
      for (let i = 0; i < 50 && (await status(token)) !== want; i++) await new Promise((r) => setTimeout(r, 100));
      return status(token);
    };
    assert.deepEqual([await status(keep), await status(drop)], [200, 200]);
    writeFileSync(file, JSON.stringify({ [keep]: ["staff"] }));
    assert.equal(await becomes(drop, 401), 401, "the removed token is refused");
    assert.equal(await status(keep), 200);
    writeFileSync(file, '{"a-token-kept-0123456789": ["sta');
    assert.equal(await becomes(keep, 401), 401, "a file that cannot be read refuses every token");
    assert.match(stderr, /tokens\.json is not JSON .*: every token is refused until the file is fixed/);
    writeFileSync(file, JSON.stringify({ [keep]: ["staff"] }));
    assert.equal(await becomes(keep, 200), 200, "fixed, the file's tokens work again");
  } finally {
    server.kill();
    rmSync(d, { recursive: true, force: true });
  }
});

test("annotate of a collection ingest wrote has nothing to do and exits 0; a --url that is not Chroma is said to be so", async () => {
  const r = cli(["annotate", "--url", chromaUrl(), "--collection", "cli"]);
  assert.deepEqual([r.status, r.stdout], [0, `collection "cli" was written by chromafs ingest: its chunks already carry access and directories; nothing to annotate\n`], r.stderr);
  // A web server that is not Chroma answers 404 to the collection: the operator is told.
  const { spawn } = await import("node:child_process");
  const { freePort } = await import("../../../support/ports.mjs");
  const port = await freePort();
  const web = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1"], { stdio: "ignore" });
  try {
    let answered = false;
    for (let i = 0; i < 100 && !answered; i++) {
      answered = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
      if (!answered) await new Promise((res) => setTimeout(res, 50));
    }
    const notChroma = cli(["exec", "ls", "--url", `http://127.0.0.1:${port}`, "--collection", "cli"]);
    assert.equal(notChroma.status, 1);
    assert.equal(notChroma.stderr, `chromafs: http://127.0.0.1:${port} does not answer as a Chroma server does (GET /api/v2/heartbeat: 404): is --url Chroma's address?\n`);
  } finally {
    web.kill();
  }
});

test("chromafs COMMAND --help prints that command's part of the help; --help alone, all of it", () => {
  const all = cli(["--help"]);
  assert.equal(all.status, 0);
  for (const command of ["ingest", "annotate", "shell", "exec", "mcp"]) {
    for (const args of [[command, "--help"], [command, "-h"], ["help", command]]) {
      const r = cli(args);
      assert.equal(r.status, 0, args.join(" "));
      assert.match(r.stdout, new RegExp(`^Usage: chromafs ${command}\\b`), args.join(" "));
      assert.match(r.stdout, /^Connection options \(every command\):$/m);
      assert.ok(r.stdout.length < all.stdout.length, `${args.join(" ")}: shorter than the whole help`);
      for (const other of ["ingest", "annotate", "mcp"].filter((c) => c !== command)) {
        assert.doesNotMatch(r.stdout, new RegExp(`^${other} options:$`, "m"), `${args.join(" ")}: not ${other}'s options`);
      }
    }
  }
  assert.match(cli(["mcp", "--help"]).stdout, /^ {2}--tokens FILE/m);
  assert.match(cli(["ingest", "--help"]).stdout, /^Usage: chromafs ingest DIR \[options\]\n[\s\S]*^ {2}--lease-ms N/m);
});
