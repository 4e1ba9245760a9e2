// llms.txt and llms-full.txt (llmstxt.org) over the pages a caller may read: the HTTP
// server answers `/llms.txt` and `/llms-full.txt` for the caller its credentials name
// (node.mjs), and `chromafs llms-txt` writes the public pages' for a static site. Each is
// made on a session of the caller's groups, so a page is listed exactly when `cat` would
// read it: a hidden page is not listed, read or counted, and no note or error names it.
//
// llms.txt: `# DOCS`, a summary line, then a section a top-level folder (`## /guides/`),
// the pages directly under `/` first (`## /`), folders in path order, pages in path
// order within each. A page is a line `- [TITLE](URL): DESCRIPTION`: TITLE and DESCRIPTION
// are what the page states (front matter `title:`, else its first heading; front matter
// `description:`), read from the first chunks of a hundred pages a request
// (`pageHeadings`, as the MCP resources are titled), and a page that states no title is
// titled from its file name. URL is its public address under the site's base URL (or its
// mount's site, see sources.mjs), else its MCP resource address (`chromafs://docs/PATH`).
// The file holds at most LLMS_MAX_CHARS characters (Mintlify caps theirs at 100,000): the
// lines that would go past it are left out whole and a last line says how many pages
// were not listed.
//
// llms-full.txt: each page in the same order, as `# TITLE`, `Source: URL`, then its text.
// The pages are named to the session as the reads to come (`planReads`), so they load as
// a search's bulk load does — chunks by id, 300 to a request, ten in flight — not a
// request a page. The file holds at most LLMS_FULL_MAX_BYTES bytes of UTF-8: the first page
// that does not fit ends it, with a last line that says how many pages are there and how
// many are not.
import { pageUrl } from "./sources.mjs";
import { pageUri, titleOf, visiblePages } from "./resources.mjs";

/** The most characters of an llms.txt (Mintlify's cap). */
export const LLMS_MAX_CHARS = 100_000;

/** The most bytes of an llms-full.txt. */
export const LLMS_FULL_MAX_BYTES = 4 << 20;

/** Pages whose headings one request reads (the first chunks of each, by id). */
const HEADINGS_PER_REQUEST = 100;

/** Requests for headings sent at once. */
const HEADING_REQUESTS_AT_ONCE = 4;

/** Room kept for the note that ends a capped file. */
const NOTE_ROOM = 400;

/** The section of a page: its top-level folder (`/guides/`), or `/` for a page directly under it. */
function sectionOf(path) {
  const slash = path.indexOf("/", 1);
  return slash < 0 ? "/" : path.slice(0, slash + 1);
}

/** The visible pages in the files' order: those directly under `/` first, then by path. */
function ordered(fs) {
  const pages = visiblePages(fs);
  return [...pages.filter((p) => sectionOf(p) === "/"), ...pages.filter((p) => sectionOf(p) !== "/")];
}

/** The page's public address under `base` (a site's base URL or a mounts' rule), else its resource address. */
function sourceOf(fs, base, path) {
  const url = typeof base === "function" ? base(path) : base ? pageUrl(base, path) : null;
  return url ?? pageUri(fs, path);
}

/** Text that stays on one line and does not close a Markdown link's text. */
const inline = (text) => text.replace(/\s+/g, " ").trim();
const linkText = (text) => inline(text).replace(/[\\[\]]/g, (c) => `\\${c}`);
const linkUrl = (url) => url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

/** `# DOCS`, from the server's name for its docs. */
function titleLine(docs) {
  const name = inline(String(docs || "the documentation"));
  return `# ${name.charAt(0).toUpperCase()}${name.slice(1)}\n`;
}

const pagesWord = (n) => `${n.toLocaleString("en")} page${n === 1 ? "" : "s"}`;

/**
 * The headings of `pages`, a window of requests at a time, as an async sequence of
 * `[path, { title, description }]`: the next window is asked for only when the caller
 * goes on, so a capped file reads no more than it lists (and one window).
 */
async function* headings(fs, pages) {
  const window = HEADINGS_PER_REQUEST * HEADING_REQUESTS_AT_ONCE;
  for (let at = 0; at < pages.length; at += window) {
    const chunk = pages.slice(at, at + window);
    const batches = [];
    for (let i = 0; i < chunk.length; i += HEADINGS_PER_REQUEST) batches.push(chunk.slice(i, i + HEADINGS_PER_REQUEST));
    const got = await Promise.all(batches.map((b) => (typeof fs.pageHeadings === "function" ? fs.pageHeadings(b) : b.map(() => ({})))));
    const flat = got.flat();
    for (let i = 0; i < chunk.length; i++) yield [chunk[i], flat[i] ?? {}];
  }
}

/** The number `value`, if it is a positive whole number, else `fallback`. */
const capOf = (value, fallback) => (Number.isSafeInteger(value) && value > 0 ? value : fallback);

/**
 * The llms.txt of the pages `fs` shows: `{ text, pages, listed }`. `docs` names the docs
 * (the title), `base` is the site's base URL or a mounts' rule (see sources.mjs), `maxChars`
 * the cap (LLMS_MAX_CHARS).
 */
export async function llmsTxt(fs, { docs, base = null, maxChars } = {}) {
  const cap = capOf(maxChars, LLMS_MAX_CHARS);
  const pages = ordered(fs);
  const head =
    titleLine(docs) +
    `\n> ${pagesWord(pages.length)}, each with its source and what it says it is. ` +
    "Sections are the top-level folders; the pages directly under / come first.\n";
  let text = head;
  let section = null;
  let listed = 0;
  for await (const [path, h] of headings(fs, pages)) {
    const title = h.title ? inline(h.title) : "";
    const description = h.description ? inline(h.description) : "";
    const line = `- [${linkText(title || titleOf(path))}](${linkUrl(sourceOf(fs, base, path))})${description ? `: ${description}` : ""}\n`;
    const heading = sectionOf(path) === section ? "" : `\n## ${sectionOf(path)}\n\n`;
    if (text.length + heading.length + line.length > cap - NOTE_ROOM) break;
    text += heading + line;
    section = sectionOf(path);
    listed += 1;
  }
  if (listed < pages.length) {
    const rest = pages.length - listed;
    text +=
      `\n> ${rest.toLocaleString("en")} more page${rest === 1 ? " is" : "s are"} not listed: ` +
      `this file is capped at ${cap.toLocaleString("en")} characters. llms-full.txt has the pages' text.\n`;
  }
  return { text, pages: pages.length, listed };
}

/**
 * The llms-full.txt of the pages `fs` shows: `{ text, pages, included }`. `maxBytes` is the
 * cap (LLMS_FULL_MAX_BYTES); the other options are llmsTxt's. A page that cannot be read
 * fails the whole file (a failure is never a shorter file).
 */
export async function llmsFullTxt(fs, { docs, base = null, maxBytes } = {}) {
  const cap = capOf(maxBytes, LLMS_FULL_MAX_BYTES);
  const encoder = new TextEncoder();
  const pages = ordered(fs);
  // Read as one bulk load, a window at a time, in this order.
  fs.planReads?.(pages);
  const parts = [titleLine(docs) + `\n> The text of ${pagesWord(pages.length)}, each after its title and source.\n`];
  let bytes = encoder.encode(parts[0]).length;
  let included = 0;
  for await (const [path, h] of headings(fs, pages)) {
    const body = await fs.readFile(path, "utf8");
    const title = h.title ? inline(h.title) : titleOf(path);
    const entry = `\n# ${title}\nSource: ${sourceOf(fs, base, path)}\n\n${body}${body.endsWith("\n") ? "" : "\n"}`;
    const size = encoder.encode(entry).length;
    if (bytes + size > cap - NOTE_ROOM) break;
    parts.push(entry);
    bytes += size;
    included += 1;
  }
  if (included < pages.length) {
    parts.push(
      `\n> This file is capped at ${cap.toLocaleString("en")} bytes: it holds the first ${pagesWord(included)} of ` +
        `${pages.length.toLocaleString("en")}, in llms.txt's order.\n`,
    );
  }
  return { text: parts.join(""), pages: pages.length, included };
}

/** The two files as operations the tools' runner runs (tools.mjs): `{ structured: { text, … } }`. */
/** The docs' name for the files of one version of them. */
const ofVersion = (docs, version) => (version === undefined ? docs : `${docs || "the documentation"}, version ${version}`);

export const LLMS_OPS = {
  "llms.txt": async (fs, { docs, maxChars, version }, { base }) => ({ structured: await llmsTxt(fs, { docs: ofVersion(docs, version), base, maxChars }) }),
  "llms-full.txt": async (fs, { docs, maxBytes, version }, { base }) => ({ structured: await llmsFullTxt(fs, { docs: ofVersion(docs, version), base, maxBytes }) }),
};
