// Agent integration (examples/agent): chromafs behind Vercel's bash-tool, as an AI SDK
// tool would call it; the model is left out and the tools' execute functions are driven directly.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { ingest, toolDescription } from "chromafs";
import { createDocsTools } from "../../../examples/agent/tool.mjs";
import { chromaUrl } from "../helpers.mjs";

let tools;
const call = (tool, input) => tool.execute(input, { toolCallId: "t1", messages: [] });

before(async () => {
  await ingest({
    url: chromaUrl(),
    collection: "agent",
    files: [
      { path: "index.md", content: "# Acme docs\nStart here.\n" },
      { path: "auth/tokens.md", content: "Send the access_token header.\nTokens expire after an hour.\n" },
      { path: "internal/oncall.md", content: "Page the escalation rota.\n" },
    ],
    access: { "internal/**": { isPublic: false, groups: ["staff"] } },
  });
  ({ tools } = await createDocsTools({ url: chromaUrl(), collection: "agent", docs: "the Acme docs" }));
});

test("the bash tool lists, reads and searches", async () => {
  assert.deepEqual(await call(tools.bash, { command: "ls /" }), { stdout: "auth\nindex.md\ntmp\n", stderr: "", exitCode: 0 });
  const r = await call(tools.bash, { command: "grep -rn access_token / && pwd" });
  assert.equal(r.stdout, "/auth/tokens.md:1:Send the access_token header.\n/\n");
  assert.equal((await call(tools.bash, { command: "cat /internal/oncall.md" })).exitCode, 1);
  const kept = await call(tools.bash, { command: "grep -rl access_token / > /tmp/hits; wc -l < /tmp/hits" });
  assert.deepEqual(kept, { stdout: "1\n", stderr: "", exitCode: 0 }, "results kept in the scratch /tmp");
});

test("the agent's search points at the lines to read, and never at hidden pages", async () => {
  const r = await call(tools.bash, { command: "search -n 2 when do tokens expire" });
  assert.equal(r.exitCode, 0, JSON.stringify(r));
  const [first, snippet] = r.stdout.split("\n");
  assert.match(first, /^\/auth\/tokens\.md:1-2$/);
  assert.equal(snippet, "  2: Tokens expire after an hour.");
  const read = await call(tools.bash, { command: "sed -n '1,2p' /auth/tokens.md" });
  assert.match(read.stdout, /Tokens expire after an hour/);
  const hidden = await call(tools.bash, { command: "search escalation rota" });
  assert.deepEqual([hidden.stdout, hidden.exitCode], ["", 1], "the staff page does not exist for this agent");
});

test("cd into the destination works, and a cd lasts one call", async () => {
  assert.equal((await call(tools.bash, { command: "cd auth && ls" })).stdout, "tokens.md\n");
  assert.equal((await call(tools.bash, { command: "pwd" })).stdout, "/\n");
});

test("writes answer like bash instead of failing the tool call", async () => {
  const r = await call(tools.bash, { command: "echo hi > /notes.md" });
  assert.deepEqual(r, { stdout: "", stderr: "bash: /notes.md: Read-only file system\n", exitCode: 1 });
  const w = await call(tools.writeFile, { path: "/notes.md", content: "x" }).catch((e) => e);
  assert.match(String(w?.message ?? JSON.stringify(w)), /read-only file system/i);
});

test("the readFile tool reads pages", async () => {
  const r = await call(tools.readFile, { path: "/auth/tokens.md" });
  assert.match(JSON.stringify(r), /Tokens expire after an hour/);
});

test("the tool description says what the shell is", () => {
  const d = toolDescription({ docs: "the Acme docs" });
  assert.match(d, /^A read-only bash shell over the Acme docs\./);
  assert.match(d, /grep -rn PATTERN/);
  assert.match(d, /`search QUESTION` ranks the pages/);
  assert.match(d, /Read-only file system/);
  assert.match(tools.bash.description, /the Acme docs/);
  assert.match(tools.bash.description, /Only \/tmp is writable/, "the example gives the agent a scratch /tmp");
  assert.doesNotMatch(d, /\/tmp/);
});
