// The options that say which docs a command reads and as whom: Chroma's URL and
// credentials, one collection or several mounts (each with its public site), and the
// session's groups. Every command that opens a session reads them the same way.
import { UsageError } from "./errors.mjs";
import { chromaUrl, urlOption } from "./urls.mjs";
import { baseUrlOf, mountedSites } from "../../mcp/sources.mjs";

/** The connection options shared by every command, with their environment fallbacks. */
export function connection(values) {
  const url = chromaUrl(values);
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
function mountsOf(values) {
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

/** The connect options of `conn` (the command line's own fields left out), scoped to `--docs-version`. */
export function connectOptions(conn, values = {}) {
  const { sites, ...options } = conn;
  return values["docs-version"] === undefined ? options : { ...options, version: values["docs-version"] };
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
