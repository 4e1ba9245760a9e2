// Where a page lives on the public site, so that an agent can cite what it read.
//
// A collection served with a base URL maps each page path to its public address by one
// rule, the one documentation sites follow: the path is appended to the base URL, the
// file's extension is dropped, and a page named `index` is its directory.
//
//   base https://docs.example.com        /guides/install.mdx  → https://docs.example.com/guides/install
//   base https://example.com/docs/       /guides/index.md     → https://example.com/docs/guides
//                                        /index.mdx           → https://example.com/docs/
//
// A page whose name would become `.` or `..` once its extension is dropped (`..md`) has no
// address: a URL parser reads such a segment, escaped or not, as a step up the path.
//
// The ranked search's results carry that address as `url`: the MCP `search` tool's
// structured results, and `search --json` in the `bash` tool.

import { httpUrl } from "../dist/api.mjs";

/** A checked base URL (http or https, no query or fragment), ending in `/`; or a TypeError. */
export function baseUrlOf(text) {
  const url = httpUrl(text, "the base URL");
  return url.href.endsWith("/") ? url.href : `${url.href}/`;
}

/**
 * The site of each mount (`{ "/docs": "https://docs.example.com" }`) as one rule: a page
 * under a mount is that site's page at its path inside the mount; pages of mounts without
 * a site have no address.
 */
export function mountedSites(sites) {
  const bases = new Map(Object.entries(sites).map(([dir, url]) => [dir.replace(/^\/+|\/+$/g, ""), baseUrlOf(url)]));
  const rule = (path) => {
    const [, dir, rest] = /^\/([^/]+)(\/.*)?$/.exec(path) ?? [];
    const base = bases.get(dir);
    return base && rest ? pageUrl(base, rest) : null;
  };
  // How a worker thread builds the same rule (see bridge.mjs).
  return Object.defineProperty(rule, Symbol.for("chromafs.recipe"), { value: { module: import.meta.url, name: "mountedSites", options: { ...sites } } });
}

/** `baseUrl` as given to a server: a site's base URL checked, a mounts' rule as it is, or null. */
export function baseOf(baseUrl) {
  if (typeof baseUrl === "function") return baseUrl;
  return baseUrl ? baseUrlOf(baseUrl) : null;
}

/** The address of the page at `path`: under a base URL, or by a mounts' rule. */
function addressOf(base, path) {
  return typeof base === "function" ? base(path) : pageUrl(base, path);
}

/**
 * The public address of the page at `path` (an absolute page path) under `base` (see
 * above), or null when its name would be a dot segment.
 */
export function pageUrl(base, path) {
  const segments = path.split("/").filter(Boolean);
  const last = segments.pop() ?? "";
  const dot = last.lastIndexOf(".");
  const name = dot > 0 ? last.slice(0, dot) : last;
  if (name !== "index") segments.push(name);
  if (segments.some((s) => s === "." || s === "..")) return null;
  return base + segments.map(encodeURIComponent).join("/");
}

/** The hit a `search --json` output line prints, or null for any other line. */
function hitOf(line) {
  if (!line.startsWith('{"path":')) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** A `search --json` line with the page's address added, or the line as it was. */
function withUrl(line, base) {
  const hit = hitOf(line);
  return hit ? JSON.stringify({ ...hit, url: addressOf(base, hit.path) }) : line;
}

/**
 * `commands` (a session's just-bash custom commands) whose `search --json` lines carry the
 * page's `url` under `base` (a base URL, or a mounts' rule from `mountedSites`); the other
 * commands and formats are left as they are.
 */
export function withPageUrls(commands, base) {
  if (!base) return commands;
  return commands.map((c) =>
    c.name !== "search"
      ? c
      : {
          ...c,
          async execute(args, ctx) {
            const r = await c.execute(args, ctx);
            const lines = r.stdout.split("\n");
            if (r.exitCode !== 0 || !lines[0].startsWith('{"path":')) return r;
            return { ...r, stdout: lines.map((l) => withUrl(l, base)).join("\n") };
          },
        },
  );
}

/** The `search` tool's results from the command's hits, with `url` when there is a base URL. */
export function searchResults(hits, base) {
  return hits.map((hit) => ({
    path: hit.path,
    title: hit.title ?? null,
    startLine: hit.startLine,
    endLine: hit.endLine,
    score: hit.score,
    snippet: hit.snippet,
    url: base ? addressOf(base, hit.path) : null,
    ...(typeof hit.version === "string" ? { version: hit.version } : {}),
  }));
}

/**
 * The results as text, for clients that read text only: a block per page, best first (the
 * page's lines, its title, the snippet, its address); nothing when no page answers (the
 * command's stderr says so).
 */
export function resultsText(results) {
  return results
    .map((r) => {
      const where = r.startLine == null ? r.path : `${r.path}:${r.startLine}-${r.endLine}`;
      const head = r.version == null ? where : `${where} (version ${r.version})`;
      const title = r.title == null ? null : `  title: ${r.title.split(/\s+/).filter(Boolean).join(" ")}`;
      return [head, title, r.snippet == null ? null : `  ${r.snippet}`, r.url == null ? null : `  ${r.url}`].filter((l) => l !== null).join("\n") + "\n";
    })
    .join("");
}
