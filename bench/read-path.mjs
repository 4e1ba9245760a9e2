// Read-path benchmark on the 1,142-page corpus against a local Chroma:
//   node bench/read-path.mjs [--url URL]   (npm run bench starts a server itself)
// Writes bench/results/read-path/all.json and prints a Markdown table: median wall time and
// Chroma requests per operation.
import { ChromaFs, ingest } from "chromafs";
import { Bash } from "just-bash";
import { CORPUS, corpusPresent, readDocs } from "../support/files.mjs";
import { startResult } from "../support/results.mjs";

const url = process.argv.includes("--url") ? process.argv[process.argv.indexOf("--url") + 1] : process.env.CHROMAFS_BENCH_URL;
if (!url) throw new Error("pass --url or set CHROMAFS_BENCH_URL");
if (!corpusPresent()) process.exit(1);

const COLLECTION = "bench-corpus";
const run = startResult("read-path", {
  command: "node bench/read-path.mjs --url URL",
  settings: { statistic: "median of the runs each row names", options: "defaults (page cache 64 MiB) but the process tier, off so that a new session's pages are cold" },
});
ChromaFs.setProcessCacheBytes(0);
const rows = [];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(name, runs, fn) {
  const times = [];
  let requests = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    requests = await fn(i);
    times.push(performance.now() - t0);
  }
  rows.push({ name, ms: median(times), requests, runs });
}

const files = await readDocs(CORPUS);
let t0 = performance.now();
const summary = await ingest({ url, collection: COLLECTION, files });
rows.push({ name: `ingest ${summary.pages} pages, ${summary.chunks} chunks`, ms: performance.now() - t0, requests: summary.requests, runs: 1 });

await measure("connect, cold (collection + tree)", 5, async () => {
  ChromaFs.forgetTrees();
  const fs = await ChromaFs.connect({ url, collection: COLLECTION });
  return fs.stats().requests;
});
await measure("connect, tree cached in the process", 20, async () => {
  const fs = await ChromaFs.connect({ url, collection: COLLECTION, groups: ["x"] });
  return fs.stats().requests;
});

const session = async () => {
  const fs = await ChromaFs.connect({ url, collection: COLLECTION });
  return { fs, bash: new Bash({ fs, cwd: "/" }) };
};
const { fs, bash } = await session();
const delta = async (cmd) => {
  const before = fs.stats().requests;
  const r = await bash.exec(cmd);
  if (r.exitCode > 1) throw new Error(`${cmd}: ${r.stderr}`);
  return fs.stats().requests - before;
};
await measure("`ls -la /`", 20, () => delta("ls -la /"));
await measure("`find / -type f | wc -l`", 10, () => delta("find / -type f | wc -l"));
await measure("`tree /`", 10, () => delta("tree / | tail -1"));
await measure("`stat` 50 pages (sizes from the tree)", 10, () => delta("stat /guides/*.mdx | tail -1"));
await measure("`cat` a page, uncached", 20, async (i) => {
  const { fs: f, bash: b } = await session();
  await b.exec(`cat /${files[i * 37].path} > /dev/null`);
  return f.stats().requests;
});
await measure("`cat` a page, cached", 20, () => delta(`cat /quickstart.mdx > /dev/null`));
await measure("`grep -r access_token /`, cold cache (every page fetched)", 3, async () => {
  const { fs: f, bash: b } = await session();
  await b.exec("grep -r access_token / | wc -l");
  return f.stats().requests;
});
await delta("grep -r access_token / | wc -l");
await measure("`grep -r access_token /`, warm cache", 5, () => delta("grep -r access_token / | wc -l"));

// Search pushdown: a fresh session (tree cached, content cache cold) per run.
const searchSession = async () => {
  const fs = await ChromaFs.connect({ url, collection: COLLECTION });
  return { fs, bash: new Bash({ fs, cwd: "/", customCommands: fs.commands() }) };
};
for (const cmd of [
  "grep -r access_token /",
  "grep -ri deprecated /",
  "grep -rl Mintlify /",
  "grep -rE 'v[0-9]+\\.[0-9]+\\.[0-9]+' /",
  "grep -rc mint /cli",
  "rg -n 'mint dev' /",
]) {
  await measure(`pushdown: \`${cmd}\`, cold cache`, 5, async () => {
    const { fs: f, bash: b } = await searchSession();
    const r = await b.exec(`${cmd} | wc -l`);
    if (r.exitCode !== 0) throw new Error(`${cmd}: ${r.stderr}`);
    const c = f.stats().commands.at(-1);
    return `${f.stats().requests} (${c.plan}: ${c.coarseRequests} coarse + ${c.prefetchRequests} prefetch; ${c.searched || c.scope} of ${c.scope} files)`;
  });
}
{
  const { fs: f, bash: b } = await searchSession();
  await b.exec("grep -r access_token / | wc -l");
  await measure("pushdown: `grep -r access_token /`, repeated", 10, async () => {
    const before = f.stats().requests;
    await b.exec("grep -r access_token / | wc -l");
    return f.stats().requests - before;
  });
}

run.fact("corpus", { files: files.length, mib: +(summary.bytes / 1048576).toFixed(1) });
run.table("read-path", ["operation", "median ms:", "Chroma requests:", "runs:"], rows.map((r) => [r.name, r.ms.toFixed(1), r.requests, r.runs]));
run.save();
