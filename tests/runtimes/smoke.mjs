// The package's smoke test, for runtimes other than Node (Deno, Bun): connect to a real
// Chroma, list, read, grep and search through just-bash, and check what comes back.
//   deno run -A tests/runtimes/smoke.mjs URL COLLECTION
//   bun tests/runtimes/smoke.mjs URL COLLECTION
// Bun: just-bash's defense-in-depth cannot install its patches there (it fails every command
// with "DefenseInDepthBox: critical patches failed"), so Bun runs it with
// `defenseInDepth: false`; see docs/getting-started/runtimes.md for what that gives up.
import { Bash } from "just-bash";
import { ChromaFs, safeExec } from "chromafs";

const [url, collection] = (globalThis.Deno ? Deno.args : process.argv.slice(2));
const bun = typeof globalThis.Bun !== "undefined";
const fs = await ChromaFs.connect({ url, collection });
const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands(), ...(bun ? { defenseInDepth: false } : {}) });
const expect = async (command, stdout) => {
  const r = await safeExec(bash, command);
  if (r.stdout !== stdout || r.exitCode !== 0) {
    throw new Error(`${command}: expected ${JSON.stringify(stdout)}, got ${JSON.stringify(r)}`);
  }
};
await expect("ls /", "guides\nindex.md\n");
await expect("cat /index.md", "# Home\nwelcome to the docs\n");
await expect("grep -rn token /guides", "/guides/auth.md:1:send the token header\n");
await expect("search -l token header", "/guides/auth.md\n");
const w = await safeExec(bash, "echo x > /index.md");
if (w.exitCode !== 1 || !w.stderr.includes("Read-only file system")) throw new Error(`write: ${JSON.stringify(w)}`);
console.log(`smoke test passed in ${bun ? "Bun " + Bun.version : globalThis.Deno ? "Deno " + Deno.version.deno : "Node"}`);
