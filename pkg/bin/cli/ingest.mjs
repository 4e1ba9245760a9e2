// `chromafs ingest DIR`: a folder of docs into a collection. What goes in is the folder's
// text files, as git would see them: dotfiles, what .gitignore ignores and symbolic links
// are left out unless asked for, and every file left out is said.
import { readFile, readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ingest, openAiEmbedder } from "../../node.mjs";
import { MODEL, MODELS } from "../../embed.mjs";
import { CliError, UsageError } from "./errors.mjs";
import { SERVICE, serviceOf } from "./embed-options.mjs";
import { formatBytes, plural } from "./format.mjs";
import { progress } from "./reports.mjs";

export async function runIngest(dir, conn, values) {
  let chunkBytes;
  if (values["chunk-bytes"] !== undefined) {
    chunkBytes = Number(values["chunk-bytes"]);
    if (!/^\d+$/.test(values["chunk-bytes"]) || !Number.isSafeInteger(chunkBytes) || chunkBytes === 0) {
      throw new UsageError(`--chunk-bytes must be a positive whole number, got '${values["chunk-bytes"]}'`);
    }
  }
  let leaseMs;
  if (values["lease-ms"] !== undefined) {
    leaseMs = Number(values["lease-ms"]);
    if (!/^\d+$/.test(values["lease-ms"]) || leaseMs < 1000 || leaseMs > 86_400_000) {
      throw new UsageError(`--lease-ms must be a whole number of milliseconds from 1000 to 86400000, got '${values["lease-ms"]}'`);
    }
  }
  // Rules are passed as text: the Rust side parses them and names the offending rule on errors.
  const rules = (name) =>
    values[name] === undefined
      ? undefined
      : readFile(values[name], "utf8").catch((e) => {
          throw new CliError(`--${name}: ${e.message}`);
        });
  const access = await rules("access");
  const versions = await rules("versions");

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
  if (versions !== undefined) options.versions = versions;
  if (values["version-folders"]) options.versionFolders = true;
  if (chunkBytes !== undefined) options.chunkBytes = chunkBytes;
  if (leaseMs !== undefined) options.leaseMs = leaseMs;
  if (values["plain-tree"]) options.plainTree = true;
  if (values["default-private"]) options.defaultAccess = "private";
  const service = serviceOf(values);
  const stray = ["embed-url", "embed-key-env"].find((name) => values[name] !== undefined);
  if (!service && stray) throw new UsageError(`--${stray} applies to --embed ${SERVICE}MODEL`);
  if (values.embed !== undefined && !service && !Object.hasOwn(MODELS, values.embed)) throw unknownModel(values.embed);
  const embedder = service ? serviceEmbedder(files, service) : values.embed !== undefined ? await loadEmbedder(files, values.embed) : undefined;
  if (embedder) options.embed = embedder;
  const s = await ingest(options).finally(() => embedder?.finish());

  let line =
    `ingested ${plural(s.pages, "page")} (${s.publicPages} public, ${s.restrictedPages} restricted) ` +
    `as ${plural(s.chunks, "chunk")}, ${formatBytes(s.bytes)}, into collection ${s.collection}; ` +
    `removed ${plural(s.removedRecords, "stale record")}; tree ${formatBytes(s.treeBytes)}; ${plural(s.requests, "request")}` +
    (s.chunksWritten === s.chunks && s.treeWritten ? "" : `\nunchanged since the last run: ${s.chunks - s.chunksWritten} of ${plural(s.chunks, "chunk")}${s.treeWritten ? "" : " and the tree"} (not written, not embedded)`);
  const index = s.grepIndex;
  line += `\ngrep index: ${plural(index.records, "record")}${index.written === index.records ? "" : `, ${index.written} written (${formatBytes(index.bytes)})`}`;
  for (const r of s.rules) line += `\naccess rule ${JSON.stringify(r.glob)}: ${plural(r.pages, "page")}`;
  if (s.versions.length) line += `\nversions: ${s.versions.map((v) => `${v.version} (${plural(v.pages, "page")})`).join(", ")}; the other pages belong to every version`;
  if (!s.lineAligned) line += "\nnote: some lines exceed the chunk size, so chunks are not all line-aligned and grep cannot narrow its search with Chroma";
  process.stdout.write(line + "\n");
  return 0;
}

/** The usage error for `--embed NAME` where NAME is no model. */
export function unknownModel(name) {
  return new UsageError(`--embed: unknown model '${name}' (the models are ${Object.keys(MODELS).join(", ")}, or ${SERVICE}NAME for an embedding service)`);
}

/**
 * `argv` with `--embed` given its model: the one named after it, else the default
 * (`--embed` alone embeds with all-MiniLM-L6-v2; `--embed MODEL` and `--embed=MODEL` name one).
 */
export function withEmbedModel(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") return [...out, ...argv.slice(i)];
    if (argv[i] !== "--embed") out.push(argv[i]);
    else if (Object.hasOwn(MODELS, argv[i + 1] ?? "") || (argv[i + 1] ?? "").startsWith(SERVICE)) out.push(`--embed=${argv[++i]}`);
    else out.push(`--embed=${MODEL}`);
  }
  return out;
}

/**
 * A built-in model on every core (one instance per worker thread), wrapped to show
 * what it does: on a terminal a line kept current (pages, chunks embedded, chunks a
 * second, time left), otherwise one line when it is done. Only chunks that changed reach
 * the model, so the time left is an upper bound, from the bytes of the pages not yet seen.
 */
async function loadEmbedder(files, model) {
  progress(`loading the ${model} model…`);
  const { createEmbedder } = await import("../../embed.mjs");
  const meter = embedMeter(files);
  const loaded = await createEmbedder({ model, threads: "auto", onBatch: meter.batch }).catch((e) => {
    throw new CliError(e.message);
  });
  meter.how = plural(loaded.threads, "thread");
  return {
    model: loaded.model,
    method: loaded.method,
    dimension: loaded.dimension,
    embed: (texts) => (meter.start(texts), loaded.embed(texts)),
    finish: () => (meter.done(), loaded.close()),
  };
}

/**
 * An embedding service (`--embed openai:NAME`), shown as a model is (see `loadEmbedder`):
 * several requests at once, so ingest embeds that many batches ahead of the one it writes,
 * and the function recorded in the collection as Chroma's clients record it.
 */
function serviceEmbedder(files, options) {
  const meter = embedMeter(files);
  let made;
  try {
    made = openAiEmbedder({ ...options, onBatch: meter.batch });
  } catch (e) {
    throw e instanceof TypeError ? new UsageError(e.message) : new CliError(e.message);
  }
  meter.how = `${plural(made.concurrency, "request")} at once to ${made.origin}`;
  progress(`embedding with ${made.model} at ${made.url}…`);
  return {
    model: made.model,
    concurrency: made.concurrency,
    chromaFunction: made.chromaFunction,
    embed: (texts) => (meter.start(texts), made.embed(texts)),
    finish: () => meter.done(),
  };
}

/** Counts what the model embeds, and says it (see `loadEmbedder`). */
function embedMeter(files) {
  const tty = Boolean(process.stderr.isTTY);
  const total = files.reduce((n, f) => n + f.content.byteLength, 0);
  // From the first text the model is given: loading it is said apart.
  let started;
  let chunks = 0;
  let bytes = 0;
  let shown = 0;
  // What the calls under way were given: the mean bytes of a text embedded.
  let givenTexts = 0;
  let givenBytes = 0;
  const seconds = () => (started === undefined ? 0 : (performance.now() - started) / 1000);
  const rate = () => chunks / Math.max(seconds(), 1e-3);
  const line = () => {
    const perChunk = bytes / Math.max(chunks, 1);
    const left = chunks ? Math.max(total - bytes, 0) / perChunk / rate() : NaN;
    const eta = Number.isFinite(left) ? `, at most ${duration(left)} left` : "";
    return `embedding: ${plural(files.length, "page")}, ${plural(chunks, "chunk")} embedded, ${rate().toFixed(1)} chunks/s${eta}`;
  };
  const meter = {
    how: "",
    start(texts) {
      started ??= performance.now();
      givenTexts += texts.length;
      givenBytes += texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    },
    batch(n) {
      chunks += n;
      bytes += (n * givenBytes) / Math.max(givenTexts, 1);
      if (tty && performance.now() - shown > 250) {
        shown = performance.now();
        process.stderr.write(`\r\x1b[K${line()}`);
      }
    },
    done() {
      if (tty && shown) process.stderr.write("\r\x1b[K");
      process.stderr.write(
        `chromafs: embedded ${plural(chunks, "chunk")} in ${duration(seconds())} (${rate().toFixed(1)} chunks/s, ${meter.how})\n`,
      );
    },
  };
  return meter;
}

function duration(seconds) {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
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
