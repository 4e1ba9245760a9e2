// `chromafs ingest DIR`: a folder of docs into a collection. What goes in is the folder's
// text files, as git would see them: dotfiles, what .gitignore ignores and symbolic links
// are left out unless asked for, and every file left out is said.
import { readFile, readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ingest } from "../../node.mjs";
import { CliError, UsageError, builtInEmbedder, formatBytes, plural, progress } from "./common.mjs";

export async function runIngest(dir, conn, values) {
  let chunkBytes;
  if (values["chunk-bytes"] !== undefined) {
    chunkBytes = Number(values["chunk-bytes"]);
    if (!/^\d+$/.test(values["chunk-bytes"]) || !Number.isSafeInteger(chunkBytes) || chunkBytes === 0) {
      throw new UsageError(`--chunk-bytes must be a positive whole number, got '${values["chunk-bytes"]}'`);
    }
  }
  let access;
  if (values.access !== undefined) {
    // Passed as text: the Rust side parses it and names the offending rule on errors.
    access = await readFile(values.access, "utf8").catch((e) => {
      throw new CliError(`--access: ${e.message}`);
    });
  }

  const info = await stat(dir).catch((e) => {
    throw new CliError(e.code === "ENOENT" ? `${dir}: no such directory` : e.message);
  });
  if (!info.isDirectory()) throw new CliError(`${dir}: not a directory`);

  progress(`reading ${dir}…`);
  const files = [];
  const skipped = [];
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const found = await walk(dir, { hidden: Boolean(values.hidden), gitignore: !values["no-ignore"] });
  reportLeftOut(found.left);
  for (const file of found.files) {
    const [content, fileStat] = await Promise.all([readFile(file), stat(file)]);
    // Pages are text; images and other binaries beside them are left out, and said so.
    try {
      utf8.decode(content);
    } catch {
      skipped.push(relative(dir, file).split(sep).join("/"));
      continue;
    }
    files.push({
      path: relative(dir, file).split(sep).join("/"),
      // A Node Buffer is a Uint8Array over a possibly shared pool; hand over just its bytes.
      content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
      mtime: fileStat.mtimeMs,
    });
  }
  if (skipped.length) {
    const shown = skipped.slice(0, 5).join(", ") + (skipped.length > 5 ? ", …" : "");
    process.stderr.write(`chromafs: skipped ${plural(skipped.length, "file")} that ${skipped.length === 1 ? "is" : "are"} not UTF-8 text: ${shown}\n`);
  }
  progress(`writing ${plural(files.length, "file")} to ${conn.url}…`);

  const options = { ...conn, files };
  if (access !== undefined) options.access = access;
  if (chunkBytes !== undefined) options.chunkBytes = chunkBytes;
  if (values["plain-tree"]) options.plainTree = true;
  if (values["default-private"]) options.defaultAccess = "private";
  if (values.embed) options.embed = await builtInEmbedder();
  const s = await ingest(options);

  let line =
    `ingested ${plural(s.pages, "page")} (${s.publicPages} public, ${s.restrictedPages} restricted) ` +
    `as ${plural(s.chunks, "chunk")}, ${formatBytes(s.bytes)}, into collection ${s.collection}; ` +
    `removed ${plural(s.removedRecords, "stale record")}; tree ${formatBytes(s.treeBytes)}; ${plural(s.requests, "request")}` +
    (s.chunksWritten === s.chunks && s.treeWritten ? "" : `\nunchanged since the last run: ${s.chunks - s.chunksWritten} of ${plural(s.chunks, "chunk")}${s.treeWritten ? "" : " and the tree"} (not written, not embedded)`);
  for (const r of s.rules) line += `\naccess rule ${JSON.stringify(r.glob)}: ${plural(r.pages, "page")}`;
  if (!s.lineAligned) line += "\nnote: some lines exceed the chunk size, so chunks are not all line-aligned and grep cannot narrow its search with Chroma";
  process.stdout.write(line + "\n");
  return 0;
}

/**
 * The regular files under `root` to ingest, and what was left out and why. Never `.git` or
 * `node_modules`; dotfiles and dot-directories only with `hidden` (a `.env` beside the docs
 * must not become a public page); what `.gitignore` files ignore only without `gitignore`,
 * each file's rules applying below its own directory, deeper ones last, as git reads them.
 * Symbolic links are not followed.
 */
async function walk(root, { hidden, gitignore }) {
  const { default: ignore } = await import("ignore");
  const files = [];
  const left = { hidden: [], ignored: [], links: [] };
  const rel = (full) => relative(root, full).split(sep).join("/");
  async function visit(dir, rules) {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (gitignore && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      const text = await readFile(join(dir, ".gitignore"), "utf8");
      rules = [...rules, { base: dir, rules: ignore().add(text) }];
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      if (entry.isSymbolicLink()) {
        left.links.push(rel(full));
        continue;
      }
      if (!entry.isDirectory() && !entry.isFile()) continue;
      if (entry.name.startsWith(".") && !hidden) {
        left.hidden.push(rel(full) + (entry.isDirectory() ? "/" : ""));
        continue;
      }
      if (ignoredBy(rules, full, entry.isDirectory())) {
        left.ignored.push(rel(full) + (entry.isDirectory() ? "/" : ""));
        continue;
      }
      if (entry.isDirectory()) await visit(full, rules);
      else files.push(full);
    }
  }
  await visit(root, []);
  return { files, left };
}

/** Whether the `.gitignore` rules in force (outermost first) ignore `full`: the last that says wins. */
function ignoredBy(rules, full, isDir) {
  let ignored = false;
  for (const { base, rules: r } of rules) {
    const path = relative(base, full).split(sep).join("/") + (isDir ? "/" : "");
    const { ignored: yes, unignored: no } = r.test(path);
    if (yes) ignored = true;
    else if (no) ignored = false;
  }
  return ignored;
}

/** Says on stderr what the walk left out, a few names each. */
function reportLeftOut({ hidden, ignored, links }) {
  const names = (list) => list.slice(0, 5).join(", ") + (list.length > 5 ? ", …" : "");
  if (hidden.length) process.stderr.write(`chromafs: skipped ${plural(hidden.length, "hidden file or directory", "hidden files and directories")} (--hidden includes them): ${names(hidden)}\n`);
  if (ignored.length) process.stderr.write(`chromafs: skipped ${plural(ignored.length, "path", "paths")} that .gitignore ignores (--no-ignore includes them): ${names(ignored)}\n`);
  if (links.length) process.stderr.write(`chromafs: skipped ${plural(links.length, "symbolic link", "symbolic links")} (not followed): ${names(links)}\n`);
}
