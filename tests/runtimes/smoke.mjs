// The package's smoke test, for runtimes other than Node (Deno, Bun): the checks in
// checks.mjs, with the package as a user installs it.
//   deno run -A tests/runtimes/smoke.mjs URL COLLECTION
//   bun tests/runtimes/smoke.mjs URL COLLECTION
// Bun: just-bash's defense-in-depth cannot install its patches there (it fails every command
// with "DefenseInDepthBox: critical patches failed"), so Bun runs it with
// `defenseInDepth: false`; see docs/getting-started/runtimes.md for what that gives up.
import { ChromaFs, safeExec } from "chromafs";
import { smoke } from "./checks.mjs";

const [url, collection] = globalThis.Deno ? Deno.args : process.argv.slice(2);
const bun = typeof globalThis.Bun !== "undefined";
await smoke({ ChromaFs, safeExec, url, collection, bashOptions: bun ? { defenseInDepth: false } : {} });
console.log(`smoke test passed in ${bun ? "Bun " + Bun.version : globalThis.Deno ? "Deno " + Deno.version.deno : "Node"}`);
