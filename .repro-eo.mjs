import { spawnSync } from "node:child_process";
import { Bash } from "just-bash";
import { ChromaFs, annotate, safeExec } from "chromafs";
import { DEFAULT_CORPUS, otherToolEntry, readCorpus, syntheticCorpus, visibleTo } from "/work/wt-45/bench/corpus/corpus.mjs";
import { writeOtherTool } from "/work/wt-45/support/other-tool.mjs";
import { layCopy } from "/work/wt-45/support/gnu-reference.mjs";
const url = "http://127.0.0.1:18555";
if (process.env.NOTIER) ChromaFs.setProcessCacheBytes(0);
const base = await readCorpus(DEFAULT_CORPUS);
const size = Number(process.argv[2] ?? 1142);
const { files, access } = size === base.length ? { files: base, access: { "v001/**": { isPublic: true } } } : syntheticCorpus(base, { pages: size });
const name = `repro-ann-${size}`;
if (process.argv[3] === "write") {
  await writeOtherTool(url, name, files, { chunkLength: () => 1500, entry: otherToolEntry(access) });
  console.log(await annotate({ url, collection: name }));
}
const visible = files.filter((f) => visibleTo(access, [])(f.path));
const copy = layCopy(visible);
const cmd = process.argv[4] ?? "grep -rn -e SAML -e OIDC /";
const args = JSON.parse(process.argv[5] ?? '["-rn","-e","SAML","-e","OIDC","."]');
const r = spawnSync("grep", args, { cwd: copy.root, encoding: "utf8", maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: "C.UTF-8" } });
const gnu = r.stdout.replace(/^\.\//gm, "/");
for (const grepIndex of [true, false]) {
  const fs = await ChromaFs.connect({ url, collection: name, grepIndex });
  const out = await safeExec(new Bash({ fs, cwd: "/", customCommands: fs.commands() }), cmd);
  const a = gnu.split("\n"), b = out.stdout.split("\n");
  const missing = a.filter((l) => !b.includes(l)), extra = b.filter((l) => !a.includes(l));
  console.log(grepIndex, out.stdout === gnu, a.length, b.length, "missing", missing.slice(0, 5), "extra", extra.slice(0, 5), JSON.stringify(fs.stats().commands.at(-1)));
}
copy.remove();
