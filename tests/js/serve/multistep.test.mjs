// Multi-step agent work, as sequences of calls: an intermediate result written to /tmp in
// one call and read in the next, `cd` and then relative paths, here-docs, process
// substitution, `tee`, a second pass with sed, awk or sort. Each task runs on every surface
// that keeps a shell between calls — the library with a scratch directory, a mount set,
// and the MCP server's bash tool through the SDK's client over stdio and over HTTP — and
// each call is compared with GNU bash 5 over a read-only copy of the same pages and a
// writable /tmp (support/bash-reference.mjs): the same stdout and exit status, and
// stderr in bash's words. The docs are at /docs on both sides, so every path is the same.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Bash } from "just-bash";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { serveHttp, tokenAuthorizer } from "chromafs/mcp";
import { ROOT, chromaUrl } from "../helpers.mjs";
import { bashReferenceMissing, bashSession } from "../../../support/bash-reference.mjs";

const PAGES = {
  "index.md": "---\ntitle: Acme\n---\n# Acme docs\nStart with the quickstart.\n",
  "guides/quickstart.md": "---\ntitle: Quickstart\nsidebar: 1\n---\n# Quickstart\nInstall the CLI.\n\n```bash\nnpm install acme\nacme login --token $TOKEN\n```\n\nThen add middleware to your app.\n",
  "guides/middleware.md": "# Middleware\nMiddleware runs before each request.\nUse middleware for auth and logging.\n\n```js\napp.use(authMiddleware)\n```\n",
  "guides/deploy.md": "# Deploy\nDeploy with `acme deploy`.\nSet the token first.\n",
  "api/auth.md": "# Auth\nSend the token in the Authorization header.\nTokens expire after an hour.\nRefresh a token with /auth/refresh.\n",
  "api/errors.md": "# Errors\n401 means the token is missing.\n403 means the token lacks a scope.\n429 means too many requests.\n",
  "api/webhooks.md": "# Webhooks\nWebhooks retry with backoff.\nVerify the signature header.\n",
  "api/v2/users.md": "# Users v2\nList users with GET /v2/users.\nThe token needs the users scope.\n",
  "changelog.md": "# Changelog\n## 2.1\nAdded middleware hooks.\n## 2.0\nNew auth flow with tokens.\n## 1.9\nWebhooks retry.\n",
};
const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content: Buffer.from(content), mtime: 1_700_000_000_000 }));

/** The tasks: each a sequence of calls, as an agent makes them. */
const TASKS = [
  ["hits to /tmp, counted in the next call", ["grep -rl middleware /docs > /tmp/hits.txt", "wc -l < /tmp/hits.txt", "cat /tmp/hits.txt | sort -r"]],
  ["cd, then relative paths", ["cd /docs/guides", "pwd; ls", "grep -n token *.md", "cd ../api && grep -c token *.md"]],
  ["a failed redirect fails its command alone", ["echo one; echo hi > /docs/foo.md; echo two", "echo rc=$?", "echo x >> /docs/index.md || echo refused"]],
  ["writes under a missing directory", ["echo a > /tmp/nodir/x.txt; echo \"rc=$?\"", "mkdir -p /tmp/nodir && echo a > /tmp/nodir/x.txt && cat /tmp/nodir/x.txt"]],
  ["tee into the docs and into /tmp", ["echo hi | tee /tmp/a /docs/x /tmp/no/y /tmp; echo rc=$?", "cat /tmp/a; echo more | tee -a /tmp/a > /dev/null; cat /tmp/a"]],
  ["tee into /tmp, read back", ["grep -rh '^# ' /docs/api | tee /tmp/titles | head -2", "sort /tmp/titles"]],
  ["here-doc to /tmp, then grep -f", ["cat > /tmp/words <<'EOF'\ntoken\nscope\nEOF", "grep -rl -f /tmp/words /docs | sort"]],
  ["comm of two sorted lists", ["grep -rl token /docs | sort > /tmp/t", "grep -rl middleware /docs | sort > /tmp/m", "comm -12 /tmp/t /tmp/m; comm -23 /tmp/t /tmp/m"]],
  ["process substitution", ["diff <(grep -rl token /docs/api | sort) <(grep -rl scope /docs/api | sort); echo rc=$?"]],
  ["sed second pass over a hit", ["grep -rn 'npm install' /docs > /tmp/h", "cut -d: -f1,2 /tmp/h", "sed -n '5,10p' /docs/guides/quickstart.md"]],
  ["front matter", ["sed -n '2,3p' /docs/guides/quickstart.md", "awk 'NR>1 && /^---$/{exit} NR>1{print}' /docs/index.md"]],
  ["sort | uniq counts", ["grep -rhoi 'token[s]*' /docs | sort | uniq > /tmp/u; cat /tmp/u", "wc -l /tmp/u | cut -d' ' -f1"]],
  ["grep output file is not read back", ["grep -rn token /docs > /tmp/all; echo rc=$?", "grep -rn token /docs /tmp > /tmp/all; echo rc=$?; wc -l < /tmp/all", "grep -rl token /docs /tmp > /tmp/l; cat /tmp/l"]],
  ["rg into /tmp", ["rg -n token /docs/api > /tmp/r; echo rc=$?", "rg -c token /tmp /docs/api | sort"]],
  ["a loop writing per-file results", ["for f in /docs/api/*.md; do grep -c token \"$f\" > \"/tmp/$(basename \"$f\").n\"; done", "cd /tmp && grep -H . *.n"]],
  ["find into /tmp, then read each", ["find /docs -name '*.md' -newer /docs/index.md | sort > /tmp/newer; wc -l < /tmp/newer", "find /docs/api -name '*.md' | sort > /tmp/api", "head -1 $(head -2 /tmp/api)"]],
  ["cd into /tmp and work there", ["mkdir -p /tmp/work && cd /tmp/work", "grep -rl token /docs > list && wc -l list", "pwd && ls"]],
  ["a cd that fails keeps the directory", ["cd /docs/api", "cd /docs/nope; echo rc=$?", "pwd"]],
  ["appending across calls", ["echo first > /tmp/log", "echo second >> /tmp/log", "cat /tmp/log; wc -l < /tmp/log"]],
  ["2>/dev/null and 2>&1 into files", ["grep -rn token /docs/nope /docs/api/auth.md 2>/dev/null > /tmp/o; echo rc=$?; cat /tmp/o", "cat /docs/nope 2>&1 > /tmp/e; echo rc=$?; wc -c < /tmp/e"]],
  ["subshells and groups writing to /tmp", ["{ echo a; echo b; } > /tmp/g; (cd /docs/api && ls) > /tmp/s", "cat /tmp/g /tmp/s; pwd"]],
  ["awk over saved hits", ["grep -rc token /docs > /tmp/c", "awk -F: '$2 > 0 {print $1}' /tmp/c | sort"]],
  ["directories by glob", ["ls -d /docs/*/", "echo /docs/*/ /docs/api/*/", "for d in /docs/*/; do echo \"$d\"; done", "cd /docs && ls -d */ && echo */"]],
  ["both streams in one", ["ls /docs/api /docs/nope 2>&1", "grep -c token /docs/api/auth.md /docs/nope 2>&1; echo rc=$?"]],
  ["xargs over saved names", ["grep -rl token /docs/api | sort > /tmp/f", "xargs grep -c token < /tmp/f", "xargs -n1 basename < /tmp/f"]],
  ["a temporary file", ["f=$(mktemp) && echo hi > \"$f\" && cat \"$f\" && rm \"$f\"; echo rc=$?"]],
  ["mktemp's forms and failures", ["d=$(mktemp -d) && echo x > \"$d/f\" && ls \"$d\" && cat \"$d/f\"", "mktemp /tmp/fooXX; echo rc=$?", "mktemp -p /docs >/dev/null; echo rc=$?", "t=$(mktemp /tmp/note.XXXX) && test -f \"$t\" && echo made && mktemp -u -t abcXXX | wc -c"]],
  ["a file written then moved and removed", ["echo x > /tmp/a && mv /tmp/a /tmp/b", "ls /tmp; rm /tmp/b; ls /tmp | wc -l"]],
];

const RESET = "cd /; rm -rf /tmp/* /tmp/.[!.]* 2>/dev/null; true";
const missing = bashReferenceMissing();
const text = (r) => r.content.map((c) => c.text).join("");
/** What the MCP bash tool shows for a result (limits.mjs's `shown`). */
const shown = (r) => r.stdout + r.stderr + (r.exitCode ? `[exit code ${r.exitCode}]` : "") || "(no output)";
/** bash -c names the line in its messages; an agent's shell (and chromafs) do not. */
const bashWords = (stderr) => stderr.replace(/^bash: line \d+: /gm, "bash: ");

let ref;
let expected; // task name → the reference's results, call by call
const servers = [];

before(async () => {
  await ingest({ url: chromaUrl(), collection: "multistep", files });
  if (missing) return;
  ref = bashSession(files.map((f) => ({ ...f })));
  expected = new Map();
  for (const [name, calls] of TASKS) {
    ref.run(RESET);
    expected.set(name, calls.map((line) => ref.run(line)));
  }
});
after(async () => {
  ref?.close();
  for (const s of servers) await s.close();
});

/** A surface that keeps a shell between calls: `call(line)` → `{ stdout, stderr, exitCode }` or the MCP text. */
/** A shell over `fs` as a host keeps one: a Bash a line, in the directory the last line left. */
function libraryShell(fs) {
  let cwd = "/";
  return {
    async call(line) {
      const r = await safeExec(new Bash({ fs, cwd, customCommands: fs.commands() }), line);
      cwd = r.env?.PWD ?? cwd;
      return r;
    },
    close: () => fs.free?.(),
  };
}

const SURFACES = {
  library: async () => libraryShell(await ChromaFs.connect({ url: chromaUrl(), collection: "multistep", mountAt: "/docs", scratch: "/tmp" })),
  mounts: async () => libraryShell(await ChromaFs.connectMounts({ url: chromaUrl(), mounts: { "/docs": "multistep" }, scratch: "/tmp" })),
  async "MCP over stdio"() {
    const client = new Client({ name: "multistep", version: "1" });
    const args = [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--mount", "/docs=multistep"];
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
    return { call: async (command) => text(await client.callTool({ name: "bash", arguments: { command } })), close: () => client.close() };
  },
  async "MCP over HTTP"() {
    const token = "multistep-token-0123456789";
    const server = await serveHttp({ url: chromaUrl(), mounts: { "/docs": "multistep" } }, { authorize: tokenAuthorizer({ [token]: [] }) });
    servers.push(server);
    const client = new Client({ name: "multistep", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return { call: async (command) => text(await client.callTool({ name: "bash", arguments: { command } })), close: () => client.close() };
  },
};

for (const [surface, open] of Object.entries(SURFACES)) {
  test(`every task answers as GNU bash does: ${surface}`, { skip: missing ?? false }, async () => {
    const shell = await open();
    try {
      for (const [name, calls] of TASKS) {
        await shell.call(RESET);
        for (const [i, line] of calls.entries()) {
          const want = expected.get(name)[i];
          const got = await shell.call(line);
          const where = `${surface}, task "${name}", call ${i + 1}: ${line}`;
          if (typeof got === "string") {
            assert.equal(got, shown({ ...want, stderr: bashWords(want.stderr) }), where);
          } else {
            assert.deepEqual(
              { stdout: got.stdout, exitCode: got.exitCode, stderr: got.stderr },
              { stdout: want.stdout, exitCode: want.exitCode, stderr: bashWords(want.stderr) },
              where,
            );
          }
        }
      }
    } finally {
      await shell.close();
    }
  });
}

test("the reference itself: calls share /tmp and the directory, the docs are read-only", { skip: missing ?? false }, () => {
  const own = bashSession([{ path: "a.md", content: "x\n" }]);
  try {
    assert.equal(own.run("cd /docs && echo hi > /tmp/f").exitCode, 0);
    assert.deepEqual(own.run("pwd; cat /tmp/f; echo x > a.md; echo $?"), {
      stdout: "/docs\nhi\n1\n",
      stderr: "bash: line 1: a.md: Read-only file system\n",
      exitCode: 0,
      cwd: "/docs",
    });
  } finally {
    own.close();
  }
});
