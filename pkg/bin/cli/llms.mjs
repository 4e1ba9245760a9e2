// `chromafs llms-txt`: llms.txt and llms-full.txt of the docs written to a folder, for a
// static site to serve beside its pages. They are the files the MCP server's HTTP endpoint
// answers at /llms.txt and /llms-full.txt (see mcp/llms.mjs), made for the public pages, or
// for the pages of --groups; a page of any other group is not listed, read or counted.
// When the docs have versions, each version's files are written too, in a folder named
// after it (`v2/llms.txt`): that version's pages and those of no version.
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { withSession } from "../../mcp/sessions.mjs";
import { LLMS_FULL_MAX_BYTES, LLMS_MAX_CHARS, llmsFullTxt, llmsTxt } from "../../mcp/llms.mjs";
import { CliError } from "./errors.mjs";
import { connectOptions, groupsOf, sitesOf } from "./connection.mjs";
import { count } from "./mcp.mjs";
import { formatBytes, plural } from "./format.mjs";
import { connectDocs } from "./models.mjs";

/** What writing the two files may spend: its caps bound what it reads, so only a deadline. */
const LIMITS = { maxRequests: 100_000, callTimeoutMs: 600_000 };

/** The caps `--llms-max-chars` and `--llms-full-max-bytes` set (undefined: the defaults). */
export function llmsCaps(values) {
  return { maxChars: count(values, "llms-max-chars"), maxBytes: count(values, "llms-full-max-bytes") };
}

/** Writes `file` whole or not at all (a site never serves half a file). */
async function writeWhole(file, text) {
  const part = `${file}.part`;
  await writeFile(part, text);
  await rename(part, file);
}

export async function runLlmsTxt(conn, values) {
  const dir = values.out ?? ".";
  const caps = llmsCaps(values);
  const base = sitesOf(conn, values) ?? null;
  const docs = values.docs ?? (conn.mounts ? `the docs mounted at ${Object.keys(conn.mounts).join(", ")}` : `the ${conn.collection} docs`);
  const options = { ...connectOptions(conn, values), groups: groupsOf(values) };
  const open = (more) => connectDocs({ ...options, ...more });
  const fs = await open({});
  let versions = [];
  try {
    // Made before anything is written: a failure leaves the folder as it was.
    const all = await made(fs, { docs, base, caps });
    const known = typeof fs.versions === "function" ? fs.versions() : { versions: [], scoped: true };
    if (!known.scoped) versions = known.versions;
    const each = [];
    for (const version of versions) {
      const scoped = await open({ version });
      try {
        each.push([version, await made(scoped, { docs: `${docs}, version ${version}`, base, caps })]);
      } finally {
        scoped.free();
      }
    }
    let report = await write(dir, all, caps);
    for (const [version, files] of each) report += await write(path.join(dir, version), files, caps);
    process.stdout.write(report);
    return 0;
  } finally {
    fs.free();
  }
}

/** The two files of a session's pages, or the error that writes neither. */
async function made(fs, { docs, base, caps }) {
  const out = {};
  for (const [name, make] of [
    ["llms.txt", (s) => llmsTxt(s, { docs, base, maxChars: caps.maxChars })],
    ["llms-full.txt", (s) => llmsFullTxt(s, { docs, base, maxBytes: caps.maxBytes })],
  ]) {
    const ran = await withSession(fs, LIMITS, undefined, make);
    if (!ran || ran.failed) throw new CliError(`${name}: a page could not be read; nothing was written`);
    out[name] = ran.value;
  }
  return out;
}

/** Writes the two files into `dir`; what was written, as lines for the operator. */
async function write(dir, files, caps) {
  await mkdir(dir, { recursive: true });
  await writeWhole(path.join(dir, "llms.txt"), files["llms.txt"].text);
  await writeWhole(path.join(dir, "llms-full.txt"), files["llms-full.txt"].text);
  const index = files["llms.txt"];
  const full = files["llms-full.txt"];
  const size = (text) => formatBytes(Buffer.byteLength(text));
  return (
    `wrote ${path.join(dir, "llms.txt")} (${index.listed} of ${plural(index.pages, "page")} listed, ${size(index.text)}; cap ${(caps.maxChars ?? LLMS_MAX_CHARS).toLocaleString("en")} characters)\n` +
    `wrote ${path.join(dir, "llms-full.txt")} (${full.included} of ${plural(full.pages, "page")}, ${size(full.text)}; cap ${formatBytes(caps.maxBytes ?? LLMS_FULL_MAX_BYTES)})\n`
  );
}
