// What the command-line tool tells the operator on stderr beside a command's own output:
// once per session, what about the collection keeps it from working fully (an embedding
// function not used, unusable tree entries, chunks without access), and status lines
// for a person watching a long job.
import { MODELS } from "../../embed.mjs";
import { plural } from "./format.mjs";

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

/** Each session of `fs` (one, or one a mount) with its collection's name. */
function sessionsOf(fs, conn) {
  if (!conn.mounts) return [[fs.info(), conn.collection]];
  const infos = fs.info().mounts;
  return Object.entries(conn.mounts).map(([dir, m]) => [infos[dir], m.collection]);
}

/**
 * Tells the operator, once, which of `--groups` no page names (spelled wrong, or not used by
 * these docs): the session then sees what it would without them.
 */
export function reportGroups(fs, conn) {
  const unused = sessionsOf(fs, conn).map(([info]) => new Set(info?.unusedGroups ?? []));
  // Over mounts, a group counts as used when any mount's pages name it.
  const none = [...(unused[0] ?? [])].filter((g) => unused.every((s) => s.has(g)));
  if (!none.length) return;
  const names = none.map((g) => JSON.stringify(g)).join(", ");
  process.stderr.write(`chromafs: note: no page of these docs names the group${none.length > 1 ? "s" : ""} ${names} (--groups): check the spelling\n`);
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
  for (const [info, collection] of sessionsOf(fs, conn)) {
    if (info.searchesReadScope) reportOneShape(info, collection, conn);
    else if (info.grepIndex && !info.grepIndex.used) reportNoIndex(info.grepIndex.why, collection);
  }
}

/** Why greps of a collection choose their pages without a grep index, and how to build one. */
function reportNoIndex(why, collection) {
  const name = /^[\w.-]+$/.test(collection) ? collection : JSON.stringify(collection);
  process.stderr.write(`chromafs: note: collection ${name}: case-insensitive and regex greps ask Chroma, which may read every record for them: ${why}\n`);
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
