// The docs' pages as MCP resources: `resources/templates/list`, `resources/list` and
// `resources/read`, each answered on a session of the caller's groups, so that a resource
// is exactly a page `cat` would read.
//
// Addresses: `chromafs://HOST/PATH`, where PATH is the page's path without its leading
// slash (each segment percent-encoded as a URI component) and HOST is the mount's name
// (`chromafs://api/users.md` is `/api/users.md` under `--mount /api=…`), or `docs` for a
// server over one collection (`chromafs://docs/auth/oauth.mdx` is `/auth/oauth.mdx`). Each
// HOST has its URI template, `chromafs://HOST/{+path}`.
//
// A list is the caller's visible pages in path order, PAGE_SIZE at a time; its cursor names
// the last page listed, so what comes next depends on visible pages alone. Each resource
// has its path as `name`, a `title`, and a MIME type by extension. The title is what the
// page says it is (front matter `title:`, else its first heading), read from the first
// chunks of the list's pages in one request by id (`pageTitles`); a page that states none,
// or that is not read by id (a lazy file, a collection another tool wrote), is titled from
// its file name. A read is `cat`'s: a page the caller may not see and one that
// was never there answer the same "not found", from the listing, without a request.

/** The scheme of the pages' addresses. */
export const RESOURCE_SCHEME = "chromafs";

/** The host of a server over one collection's addresses. */
const SINGLE_HOST = "docs";

/** Resources per `resources/list` answer. */
export const PAGE_SIZE = 100;

/** MIME types by extension; a page of any other is text/plain. */
const MIME = {
  md: "text/markdown",
  mdx: "text/markdown",
  markdown: "text/markdown",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  html: "text/html",
  htm: "text/html",
  xml: "application/xml",
  csv: "text/csv",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/x-typescript",
  py: "text/x-python",
  sh: "text/x-shellscript",
  rst: "text/x-rst",
  txt: "text/plain",
};

/** The MIME type of the page at `path`, by its extension. */
export function mimeOf(path) {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return (dot > 0 && MIME[name.slice(dot + 1).toLowerCase()]) || "text/plain";
}

/**
 * A title made from the page's file name, for a page that states none: `rotate-api_keys.mdx` is "Rotate api keys"; an
 * `index` or `README` page takes its directory's name.
 */
export function titleOf(path) {
  const parts = path.split("/").filter(Boolean);
  let stem = (parts.at(-1) ?? "").replace(/\.[^.]+$/, "");
  if (/^(index|readme)$/i.test(stem) && parts.length > 1) stem = parts.at(-2);
  const words = stem.replace(/[-_]+/g, " ").trim() || stem;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Where each host's pages are: `[{ host, dir }]`, `dir` "" for a single collection. */
function rootsOf(fs) {
  if (Array.isArray(fs.mounts)) return fs.mounts.map(([name]) => ({ host: name, dir: `/${name}` }));
  return [{ host: SINGLE_HOST, dir: "" }];
}

/** The address of the page at `path` (the root it is under), or null outside every root. */
function uriOf(roots, path) {
  const root = roots.find((r) => r.dir === "" || path.startsWith(`${r.dir}/`));
  if (!root) return null;
  const inside = path.slice(root.dir.length + 1);
  return `${RESOURCE_SCHEME}://${root.host}/${inside.split("/").map(encodeURIComponent).join("/")}`;
}

/** The page path an address names, or null when it names none of ours. */
function pathOf(roots, uri) {
  const [, host, rest] = /^chromafs:\/\/([^/?#]+)\/([^?#]+)$/.exec(String(uri)) ?? [];
  const root = roots.find((r) => r.host === host);
  if (!root) return null;
  try {
    const segments = rest.split("/").map(decodeURIComponent);
    if (segments.some((s) => s === "" || s === "." || s === ".." || s.includes("/") || s.includes("\0"))) return null;
    return `${root.dir}/${segments.join("/")}`;
  } catch {
    return null;
  }
}

/**
 * The caller's visible pages, in path order: the paths of the listing that are docs files,
 * which a write would fail on as read-only (a directory fails as one, and the scratch
 * directory's files and /dev/null take writes).
 */
function visiblePages(fs) {
  const roots = rootsOf(fs);
  return fs
    .getAllPaths()
    .filter((p) => fs.writeError(p)?.code === "EROFS" && uriOf(roots, p) !== null)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A cursor that resumes a list after `path`. */
const cursorAfter = (path) => btoa(String.fromCharCode(...new TextEncoder().encode(path)));

/** The path a cursor resumes after, or null when it is not one of ours. */
function afterOf(cursor) {
  try {
    const path = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(cursor), (c) => c.charCodeAt(0)));
    return path.startsWith("/") ? path : null;
  } catch {
    return null;
  }
}

/** The URI templates, one per mount (or one for a single collection). */
async function templates(fs, { docs }) {
  const resourceTemplates = rootsOf(fs).map(({ host, dir }) => ({
    uriTemplate: `${RESOURCE_SCHEME}://${host}/{+path}`,
    name: host,
    title: dir ? `${dir} in ${docs}` : `Pages of ${docs}`,
    description: `A page of ${docs} by its path${dir ? ` under ${dir}` : ""}, e.g. ${RESOURCE_SCHEME}://${host}/index.md for ${dir}/index.md`,
  }));
  return { structured: { resourceTemplates } };
}

/** One page of the list: PAGE_SIZE resources after the cursor's path, and the next cursor. */
async function list(fs, { cursor }) {
  let after = null;
  if (cursor !== undefined) {
    after = afterOf(cursor);
    if (after === null) return { invalid: "the cursor is not one this server gave" };
  }
  const roots = rootsOf(fs);
  const pages = visiblePages(fs);
  const start = after === null ? 0 : pages.findIndex((p) => p > after);
  const chosen = start < 0 ? [] : pages.slice(start, start + PAGE_SIZE);
  // What each page says it is, from the first chunks of this list page alone (one request).
  const stated = typeof fs.pageTitles === "function" && chosen.length ? await fs.pageTitles(chosen) : [];
  const resources = chosen.map((path, i) => ({ uri: uriOf(roots, path), name: path, title: stated[i] ?? titleOf(path), mimeType: mimeOf(path) }));
  const more = start >= 0 && start + PAGE_SIZE < pages.length;
  return { structured: { resources, ...(more ? { nextCursor: cursorAfter(chosen.at(-1)) } : {}) } };
}

/** A page's text, or `{ missing: true }` for an address that names no page the caller may see. */
async function read(fs, { uri }) {
  const path = pathOf(rootsOf(fs), uri);
  // Not a docs path: the scratch directory's files and /dev/null take writes.
  if (path === null || fs.writeError(path) === null) return { missing: true };
  try {
    const text = await fs.readFile(path, "utf8");
    return { structured: { contents: [{ uri, mimeType: mimeOf(path), text }] } };
  } catch (e) {
    // Not a page (absent, hidden, a directory): the same answer. Any other failure is the call's.
    if (e?.code === "ENOENT" || e?.code === "EISDIR" || e?.code === "ENOTDIR") return { missing: true };
    throw e;
  }
}

/** The resource operations, as the tools' runner runs them (tools.mjs). */
export const RESOURCE_OPS = { "resources/templates": templates, "resources/list": list, "resources/read": read };
