// The tools' differential suite: every line of lines.mjs run by GNU bash 5 with coreutils 9,
// sed 4.9, gawk 5 and diffutils 3 over a read-only copy of the pages and a writable /tmp
// (support/bash-reference.mjs), and by chromafs through fs.commands() with a scratch /tmp
// and through the MCP server's bash tool (the SDK's client over stdio), each side in one
// shell that keeps /tmp from line to line. At least 98 % of the lines print the same
// standard output with the same exit status, and no line answers "invalid option" or
// "command not found" where GNU's tool runs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { Bash } from "just-bash";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ChromaFs, ingest, safeExec } from "chromafs";
import { ROOT, chromaUrl } from "../helpers.mjs";
import { bashReferenceMissing, bashSession } from "../../../support/bash-reference.mjs";
import { PAGES, SETUP, LINES } from "./lines.mjs";

const COLLECTION = "gnu-tools";
const files = Object.entries(PAGES).map(([p, content]) => ({ path: p, content: Buffer.from(content), mtime: 1_700_000_000_000 }));
const missing = bashReferenceMissing();
/** The share of lines that must match GNU's stdout and status. */
const AT_LEAST = 0.98;
/** What says an option or a command is not there. */
const REFUSED = /invalid option|unrecognized option|command not found|unknown option|not supported/;

let expected;
before(async () => {
  await ingest({ url: chromaUrl(), collection: COLLECTION, files });
  if (missing) return;
  const ref = bashSession(files.map((f) => ({ ...f })));
  try {
    for (const line of SETUP) ref.run(line);
    expected = LINES.map((line) => ref.run(line));
  } finally {
    ref.close();
  }
});

/** One shell over the docs at /docs with a writable /tmp: `call(line)` → `{ stdout, stderr, exitCode }`. */
const SURFACES = {
  async "fs.commands() with scratch"() {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: COLLECTION, mountAt: "/docs", scratch: "/tmp" });
    let cwd = "/";
    return {
      async call(line) {
        const r = await safeExec(new Bash({ fs, cwd, customCommands: fs.commands() }), line);
        cwd = r.env?.PWD ?? cwd;
        return r;
      },
      close: () => fs.free(),
    };
  },
  async "the MCP bash tool (stdio)"() {
    const client = new Client({ name: "gnu-tools", version: "1" });
    const args = [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--mount", `/docs=${COLLECTION}`];
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
    return {
      // The tool's text is stdout, then stderr, then "[exit code N]" when it is not 0.
      async call(command) {
        const r = await client.callTool({ name: "bash", arguments: { command } });
        const text = r.content.map((c) => c.text).join("");
        const code = /\[exit code (\d+)\]$/.exec(text);
        return { shown: text, exitCode: code ? Number(code[1]) : 0 };
      },
      close: () => client.close(),
    };
  },
};

/** What the MCP tool shows for a result (limits.mjs's `shown`). */
const shown = (r) => r.stdout + r.stderr + (r.exitCode ? `[exit code ${r.exitCode}]` : "") || "(no output)";

for (const [surface, open] of Object.entries(SURFACES)) {
  test(`the tools answer as GNU's: ${surface}`, { skip: missing ?? false, timeout: 900_000 }, async () => {
    const shell = await open();
    const differ = [];
    const refused = [];
    try {
      for (const line of SETUP) await shell.call(line);
      for (const [i, line] of LINES.entries()) {
        const want = expected[i];
        const got = await shell.call(line);
        // Over MCP, standard output and error come as one text: the line matches when the
        // text starts with GNU's stdout and the status is GNU's.
        const same = got.shown !== undefined
          ? got.exitCode === want.exitCode && (got.shown === shown(want) || got.shown.startsWith(want.stdout))
          : got.stdout === want.stdout && got.exitCode === want.exitCode;
        if (!same) differ.push(`${line}\n    GNU:  ${JSON.stringify(want.stdout.slice(0, 300))} (${want.exitCode}) ${JSON.stringify(want.stderr.slice(0, 200))}\n    ours: ${JSON.stringify((got.stdout ?? got.shown).slice(0, 300))} (${got.exitCode}) ${JSON.stringify((got.stderr ?? "").slice(0, 200))}`);
        const said = got.stderr ?? got.shown;
        if (want.exitCode === 0 && REFUSED.test(said) && !REFUSED.test(want.stderr)) refused.push(`${line}: ${said.trim().split("\n")[0]}`);
      }
    } finally {
      await shell.close();
    }
    const share = 1 - differ.length / LINES.length;
    console.log(`${surface}: ${LINES.length - differ.length} of ${LINES.length} lines as GNU's (${(share * 100).toFixed(1)} %)`);
    if (differ.length) console.log(`lines that differ (${surface}):\n${differ.join("\n")}`);
    assert.ok(share >= AT_LEAST, `${differ.length} of ${LINES.length} lines differ from GNU's:\n${differ.join("\n")}`);
    assert.deepEqual(refused, [], "lines refused where GNU's tool runs");
  });
}

test("the suite is as large as promised: 700 lines or more, each once", () => {
  assert.ok(LINES.length >= 700, `${LINES.length} lines`);
  assert.equal(new Set(LINES).size, LINES.length);
});
