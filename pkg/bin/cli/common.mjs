// What every command of the command-line tool shares: its two kinds of error, the connection
// options, groups, the embedder a search uses (the built-in model, an embedding service,
// or the one the collection records), and words for what it reports.
import { ChromaFs, openAiEmbedder } from "../../node.mjs";
import { MODELS } from "../../embed.mjs";
import { absoluteUrl, isHttp } from "../../dist/api.mjs";
import { baseUrlOf, httpUrl, mountedSites } from "../../mcp/sources.mjs";

/** A mistake in the command line: reported with a hint, exit code 2. */
export class UsageError extends Error {}

/** An expected failure (bad input, Chroma unreachable…): reported as one line, exit code 1. */
export class CliError extends Error {}

/** The connection options shared by every command, with their environment fallbacks. */
export function connection(values) {
  const url = values.url ?? process.env.CHROMAFS_URL ?? "http://127.0.0.1:8000";
  const parsedUrl = absoluteUrl(url);
  if (!isHttp(parsedUrl)) {
    // Not echoed whole: a URL may carry a key in its query string.
    throw new UsageError(`--url must be an http(s) URL${parsedUrl ? `, got ${parsedUrl.protocol} one` : ""}`);
  }
  if (parsedUrl.search) throw new UsageError("--url must not have a query string (pass credentials with --token)");
  const mounted = mountsOf(values);
  if (mounted && values.collection !== undefined) throw new UsageError("--collection and --mount: give the collections with --mount /DIR=COLLECTION");
  const collection = mounted ? undefined : (values.collection ?? process.env.CHROMAFS_COLLECTION);
  if (!collection && !mounted) throw new UsageError("no collection: pass --collection NAME or set CHROMAFS_COLLECTION");
  const conn = mounted ? { url, mounts: mounted.mounts, sites: mounted.sites } : { url, collection };
  if (values.tenant !== undefined) conn.tenant = values.tenant;
  if (values.database !== undefined) conn.database = values.database;
  const token = values.token ?? process.env.CHROMAFS_TOKEN;
  if (token) conn.token = token;
  return conn;
}

/**
 * `--mount /DIR=COLLECTION[@URL]` (repeatable) as connectMounts' `mounts`
 * (`{ "/docs": { collection: "docs" } }`) and each mount's public site, if given; undefined
 * without any.
 */
export function mountsOf(values) {
  if (!values.mount?.length) return undefined;
  const mounts = {};
  const sites = {};
  for (const m of values.mount) {
    const match = /^(\/[^/=]+)\/?=([^@]+)(?:@(.+))?$/.exec(m);
    if (!match) throw new UsageError(`--mount must be /DIR=COLLECTION or /DIR=COLLECTION@URL, got '${m}'`);
    const [, dir, collection, site] = match;
    if (dir === "/." || dir === "/..") throw new UsageError(`--mount ${dir}: a mount is a directory's name under /, such as /docs`);
    if (mounts[dir]) throw new UsageError(`--mount ${dir} is given twice`);
    mounts[dir] = { collection };
    if (site !== undefined) {
      try {
        sites[dir] = baseUrlOf(site);
      } catch {
        throw new UsageError(`--mount ${dir}: the site must be an http(s) URL without query, fragment or credentials, got '${site}'`);
      }
    }
  }
  return { mounts, sites };
}

/** Where search results' `url` comes from: `--base-url`, or each mount's site. */
export function sitesOf(conn, values) {
  if (conn.mounts && values["base-url"] !== undefined) throw new UsageError("--base-url and --mount: give each mount's site as /DIR=COLLECTION@URL");
  const base = urlOption(values, "base-url");
  if (base) return baseUrlOf(base);
  return conn.sites && Object.keys(conn.sites).length ? mountedSites(conn.sites) : undefined;
}

/** The connect options of `conn` (the command line's own fields left out). */
export function connectOptions(conn) {
  const { sites, ...options } = conn;
  return options;
}

/** What the docs are called in messages: a collection, or the mounts and their collections. */
export function docsName(conn) {
  if (!conn.mounts) return `collection ${conn.collection}`;
  return `collections ${Object.entries(conn.mounts).map(([dir, m]) => `${m.collection} at ${dir}`).join(", ")}`;
}

/** `--groups a,b --groups c` as `["a", "b", "c"]`. */
export function groupsOf(values) {
  return (values.groups ?? []).flatMap((g) => g.split(",")).map((g) => g.trim()).filter(Boolean);
}


/** The service of `--embed openai:MODEL`: openAiEmbedder's options, or undefined for another `--embed`. */
export function serviceOf(values) {
  const spec = values.embed;
  if (spec === undefined || !spec.startsWith(SERVICE)) {
    if (values["embed-dimensions"] !== undefined) throw new UsageError(`--embed-dimensions applies to --embed ${SERVICE}MODEL`);
    return undefined;
  }
  const model = spec.slice(SERVICE.length).trim();
  if (!model) throw new UsageError(`--embed ${SERVICE}MODEL must name the service's model, such as ${SERVICE}text-embedding-3-small`);
  const options = { model };
  const url = urlOption(values, "embed-url");
  if (url) options.url = url;
  const dims = values["embed-dimensions"];
  if (dims !== undefined) {
    if (!/^\d+$/.test(dims) || Number(dims) === 0 || Number(dims) > 65536) throw new UsageError(`--embed-dimensions must be a whole number from 1 to 65536, got '${dims}'`);
    options.dimensions = Number(dims);
  }
  const keyEnv = keyVariable(values);
  if (keyEnv) options.apiKeyEnv = keyEnv;
  return options;
}

/** `--embed-key-env NAME`, checked: the name of an environment variable. */
function keyVariable(values) {
  const name = values["embed-key-env"];
  if (name === undefined) return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--embed-key-env must name an environment variable, got '${name}'`);
  return name;
}

/** How `--embed openai:MODEL` is spelled. */
export const SERVICE = "openai:";

/**
 * The connect options of `conn` with the session's embedder: `--embed openai:MODEL`'s
 * service, or else what the collection records, which `--embed-url` and `--embed-key-env`
 * allow (see pkg/src/recorded.js).
 */
export function withEmbedOptions(options, values) {
  const service = serviceOf(values);
  if (service) {
    try {
      return { ...options, embed: openAiEmbedder(service) };
    } catch (e) {
      throw e instanceof TypeError ? new UsageError(e.message) : new CliError(e.message);
    }
  }
  if (values.embed !== undefined) throw new UsageError(`--embed takes ${SERVICE}MODEL here: the built-in models are loaded by themselves for the collections they embedded`);
  const allow = urlOption(values, "embed-url");
  const keyEnv = keyVariable(values);
  if (!allow && !keyEnv) return options;
  return { ...options, collectionEmbedding: { allowOrigins: allow ? [new URL(allow).origin] : [], keyEnv: keyEnv ? [keyEnv] : [] } };
}

/**
 * Tells the operator, once, why a collection's recorded embedding function is not used
 * (search then ranks by words), or what about it was not read.
 */
export function reportRecorded(fs, conn, who = "chromafs") {
  for (const [info, collection] of sessionsOf(fs, conn)) {
    const recorded = info?.collectionEmbedding;
    if (!recorded) continue;
    const name = conn.mounts ? ` (collection ${collection})` : "";
    if (recorded.note) process.stderr.write(`${who}: note${name}: ${recorded.note}\n`);
    if (recorded.used || !recorded.missing || recorded.missing.startsWith("the session has")) continue;
    // A built-in model the manifest names searches instead; else the words alone.
    const instead = Object.hasOwn(MODELS, info.embedding?.model ?? "") ? "" : ": search ranks by words only";
    process.stderr.write(`${who}${name}: the collection's embedding function is not used${instead}: ${recorded.missing}\n`);
  }
}

/**
 * The embedder a session of `fs`'s collection searches with: the built-in model that
 * embedded the collection (its manifest says which), else none; a model that is not
 * installed is said once on stderr, and search then ranks by words. A collection searched
 * through its recorded service needs none.
 */
export async function embedderFor(fs, who = "chromafs", { deferred = false } = {}) {
  if (fs.info().collectionEmbedding?.used) return undefined;
  const model = fs.info().embedding?.model;
  if (!Object.hasOwn(MODELS, model ?? "")) return undefined;
  const { createEmbedder, deferredEmbedder } = await import("../../embed.mjs");
  // A server's worker threads build the model themselves: this thread need not load it.
  const made = deferred ? Promise.resolve().then(() => deferredEmbedder({ model })) : createEmbedder({ model });
  return made.catch((e) => {
    process.stderr.write(`${who}: search ranks by words only: ${e.message}\n`);
    return undefined;
  });
}

/** A session over one collection, or over the mounts of `--mount`. */
export function connectDocs(options) {
  return options.mounts ? ChromaFs.connectMounts(options) : ChromaFs.connect(options);
}

/**
 * A session with `options`, and `options` with the built-in model for each collection it
 * embedded (the session's tree says which). A model that is not installed is said on stderr.
 * `how.deferred`: the model is loaded where it is first used (an MCP server's workers).
 */
export async function withModel(options, who, how = {}) {
  const fs = await connectDocs(options);
  // A service the command line names searches every collection.
  if (options.embed) return { fs, options };
  if (!options.mounts) {
    const embed = await embedderFor(fs, who, how);
    return { fs, options: embed ? { ...options, embed } : options };
  }
  const infos = fs.info().mounts;
  // One instance of each model the mounts were embedded with (none for other models).
  const loaded = new Map();
  for (const dir of Object.keys(options.mounts)) {
    const model = infos[dir]?.embedding?.model;
    if (!loaded.has(model)) loaded.set(model, await embedderFor({ info: () => infos[dir] }, who, how));
  }
  if (![...loaded.values()].some(Boolean)) return { fs, options };
  const mounts = Object.fromEntries(
    Object.entries(options.mounts).map(([dir, m]) => {
      const embed = loaded.get(infos[dir]?.embedding?.model);
      return [dir, embed ? { ...m, embed } : m];
    }),
  );
  return { fs, options: { ...options, mounts } };
}

/** Connects, with the built-in model for each collection embedded with it. */
export async function connectWithModel(options, who) {
  const found = await withModel(options, who);
  if (found.options === options) return found.fs;
  // The trees are in memory: connecting again costs one small request each.
  found.fs.free();
  return connectDocs(found.options);
}

/** Each session of `fs` (one, or one a mount) with its collection's name. */
function sessionsOf(fs, conn) {
  if (!conn.mounts) return [[fs.info(), conn.collection]];
  const infos = fs.info().mounts;
  return Object.entries(conn.mounts).map(([dir, m]) => [infos[dir], m.collection]);
}

/** Tells the operator, once, which tree entries the session could see are unusable. */
export function reportBroken(fs, conn = {}) {
  const broken = sessionsOf(fs, conn).flatMap(([info]) => info.brokenPages);
  if (!broken.length) return;
  const listed = broken.slice(0, 5).map((p) => `\n  ${p}`).join("") + (broken.length > 5 ? `\n  … and ${broken.length - 5} more` : "");
  process.stderr.write(`chromafs: ${plural(broken.length, "entry", "entries")} of the path tree cannot be shown or read:${listed}\n`);
}

/**
 * Tells the operator, once, when a collection's shape makes this session's searches read
 * their whole scope, and the command that fixes it. For the operator's terminal or log only:
 * it says that the session has pages it cannot see.
 */
export function reportShape(fs, conn) {
  for (const [info, collection] of sessionsOf(fs, conn)) if (info.searchesReadScope) reportOneShape(info, collection, conn);
}

function reportOneShape(info, collection, conn) {
  const files = info.files;
  const where = new URL(conn.url);
  const url = `${where.origin}${where.pathname.replace(/\/$/, "")}`; // never credentials
  const name = /^[\w.-]+$/.test(collection) ? collection : JSON.stringify(collection);
  process.stderr.write(
    `chromafs: the chunks of collection ${name} carry no access (another tool wrote it), and this session ` +
      `cannot see every page: a search reads every visible page of its scope instead of asking Chroma ` +
      `(a search of / reads ${plural(files, "page")}, about ${plural(Math.ceil(files / 8), "request")}). ` +
      `Run once: chromafs annotate --url ${url} --collection ${name}\n`,
  );
}

/** A status line for a person watching; nothing when stderr is redirected. */
export function progress(message) {
  if (process.stderr.isTTY) process.stderr.write(`${message}\n`);
}

export function plural(n, word, words = `${word}s`) {
  return `${n} ${n === 1 ? word : words}`;
}

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** An http(s) URL given for `--name`, checked, or `undefined` when not given. */
export function urlOption(values, name) {
  const text = values[name];
  if (text === undefined) return undefined;
  try {
    httpUrl(text, `--${name}`);
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL without query, fragment or credentials, got '${text}'`);
  }
  return text;
}
