// `chromafs llms-txt`: llms.txt and llms-full.txt of the docs written to a folder, for a
// static site to serve beside its pages. They are the files the MCP server's HTTP endpoint
// answers at /llms.txt and /llms-full.txt (see mcp/llms.mjs), made for the public pages, or
// for the pages of --groups; a page of any other group is not listed, read or counted.
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { ChromaFs } from "../../node.mjs";
import { withSession } from "../../mcp/sessions.mjs";
import { LLMS_FULL_MAX_BYTES, LLMS_MAX_CHARS, llmsFullTxt, llmsTxt } from "../../mcp/llms.mjs";
import { CliError } from "./errors.mjs";
import { connectOptions, groupsOf, sitesOf } from "./connection.mjs";
import { count } from "./mcp.mjs";
import { formatBytes, plural } from "./format.mjs";

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
  const fs = await (options.mounts ? ChromaFs.connectMounts(options) : ChromaFs.connect(options));
  try {
    const made = {};
    for (const [name, make] of [
      ["llms.txt", (s) => llmsTxt(s, { docs, base, maxChars: caps.maxChars })],
      ["llms-full.txt", (s) => llmsFullTxt(s, { docs, base, maxBytes: caps.maxBytes })],
    ]) {
      const ran = await withSession(fs, LIMITS, undefined, make);
      if (!ran || ran.failed) throw new CliError(`${name}: a page could not be read; nothing was written`);
      made[name] = ran.value;
    }
    await mkdir(dir, { recursive: true });
    await writeWhole(path.join(dir, "llms.txt"), made["llms.txt"].text);
    await writeWhole(path.join(dir, "llms-full.txt"), made["llms-full.txt"].text);
    const index = made["llms.txt"];
    const full = made["llms-full.txt"];
    const size = (text) => formatBytes(Buffer.byteLength(text));
    process.stdout.write(
      `wrote ${path.join(dir, "llms.txt")} (${index.listed} of ${plural(index.pages, "page")} listed, ${size(index.text)}; cap ${(caps.maxChars ?? LLMS_MAX_CHARS).toLocaleString("en")} characters)\n` +
        `wrote ${path.join(dir, "llms-full.txt")} (${full.included} of ${plural(full.pages, "page")}, ${size(full.text)}; cap ${formatBytes(caps.maxBytes ?? LLMS_FULL_MAX_BYTES)})\n`,
    );
    return 0;
  } finally {
    fs.free();
  }
}
