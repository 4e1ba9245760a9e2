// Re-running ingest on a real Chroma: unchanged docs write and embed nothing; an edited
// page writes only its changed chunks; a page made private is rewritten on every chunk and
// is gone for public sessions; a removed page's chunks are deleted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";

const LONG = Array.from({ length: 40 }, (_, i) => `line ${i} of the guide, with enough words to fill chunks\n`).join("");
const base = { "index.md": "home\n", "guide.md": LONG, "notes.md": "notes\n", "gone.md": "soon gone\n" };

test("a re-run writes and embeds only what changed", async () => {
  const front = await startProxy(chromaUrl());
  let embedded = 0;
  const embed = async (texts) => ((embedded += texts.length), texts.map((t) => [t.length % 7, 1, 0.5]));
  const run = async (pages, access = {}) => {
    embedded = 0;
    const before = front.requests.length;
    const files = Object.entries(pages).map(([path, content]) => ({ path, content }));
    const s = await ingest({ url: front.url, collection: "reingest", files, access, embed, chunkBytes: 256, embedModel: "test-model" });
    const writes = front.requests.slice(before).filter((r) => /\/(upsert|add|update)$/.test(r.path)).length;
    return { s, writes, embedded };
  };
  try {
    const first = await run(base);
    assert.ok(first.s.chunks > 6 && first.s.chunksWritten === first.s.chunks && first.s.treeWritten);
    assert.ok(first.writes >= 2 && first.embedded >= first.s.chunks, "the first run writes chunks and the tree");
    const again = await run(base);
    assert.deepEqual([again.s.chunksWritten, again.s.treeWritten, again.embedded, again.writes, again.s.removedRecords], [0, false, 0, 0, 0]);
    const edited = { ...base, "guide.md": LONG.replace("line 39 of", "line thirty-nine of") };
    const one = await run(edited);
    assert.equal(one.s.chunksWritten, 1, "only the guide's last chunk changed");
    assert.equal(one.embedded, 1);
    const { "gone.md": _, ...rest } = edited;
    const privately = await run(rest, { "notes.md": { isPublic: false, groups: ["staff"] } });
    assert.equal(privately.s.chunksWritten, 1, "notes.md's one chunk, with its new access");
    assert.equal(privately.s.removedRecords, 1, "gone.md's chunk");
    assert.ok(privately.s.treeWritten);
    const pub = await ChromaFs.connect({ url: chromaUrl(), collection: "reingest" });
    assert.equal(await pub.exists("/notes.md"), false);
    assert.equal(await pub.exists("/gone.md"), false);
    assert.equal((await pub.readFile("/guide.md")).split("\n")[39], "line thirty-nine of the guide, with enough words to fill chunks");
    const staff = await ChromaFs.connect({ url: chromaUrl(), collection: "reingest", groups: ["staff"] });
    assert.equal(await staff.readFile("/notes.md"), "notes\n");
    assert.deepEqual(pub.info().embedding, { model: "test-model", dimension: 3 });
  } finally {
    await front.close();
  }
});
