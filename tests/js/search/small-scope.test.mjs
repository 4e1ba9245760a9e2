// A directory that is a small part of the collection: on collections read by id (written
// by `chromafs ingest`, or by another tool and annotated) it is read whole and searched
// here, with no text filter sent, and the next search of it asks nothing; on a collection
// another tool wrote and nobody annotated it is asked about as before. The output is
// just-bash's over the same files, whichever way the search went.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, annotate, ingest } from "chromafs";
import { assertWithinQuotas, cloudChroma, newBash, reference, run, sameOutput } from "../helpers.mjs";
import { startProxy } from "../../../support/proxy.mjs";
import { writeOtherTool } from "../../../support/other-tool.mjs";

// Sixteen directories of twelve pages; "token" in some, spelled differently in others.
const FILES = Array.from({ length: 192 }, (_, i) => ({
  path: `d${String(i % 16).padStart(2, "0")}/p${String(i).padStart(3, "0")}.md`,
  content: Buffer.from(`# Page ${i}\n${i % 3 === 0 ? "set the token here\n" : i % 5 === 0 ? "a TOKEN, shouted\n" : "nothing\n"}${"filler line\n".repeat(i % 7)}`),
  mtime: 0,
}));
const COMMANDS = [
  "grep -rn token /d03",
  "grep -rni TOKEN /d03",
  "grep -rc token /d03",
  "rg -n 'tok(en)?' /d05",
  "grep -rl token /d05 | head -2",
  "grep -rn nowhere /d07",
];

let cloud, front;
before(async () => {
  cloud = await cloudChroma();
  front = await startProxy(cloud.url, { keepBodies: true });
  const entry = () => ({ isPublic: true });
  await ingest({ url: cloud.url, collection: "small-ingested", files: FILES });
  await writeOtherTool(cloud.url, "small-other", FILES, { chunkLength: () => 40, entry });
  await writeOtherTool(cloud.url, "small-annotated", FILES, { chunkLength: () => 40, entry });
  await annotate({ url: cloud.url, collection: "small-annotated", grepIndex: true });
});
after(() => Promise.all([front.close(), cloud.close()]));

const textFilters = (requests) => requests.filter((r) => (r.body ?? "").includes("where_document")).length;

for (const [collection, readWhole] of [["small-ingested", true], ["small-annotated", true], ["small-other", false]]) {
  test(`${collection}: a small directory is ${readWhole ? "read whole, no text filter sent" : "asked about first"}, output as the reference's`, async () => {
    ChromaFs.setProcessCacheBytes(0);
    const fs = await ChromaFs.connect({ url: front.url, collection });
    const ours = newBash(fs, { customCommands: fs.commands() });
    const ref = await reference(FILES);
    ref.gnu?.prepare(COMMANDS);
    front.reset();
    await sameOutput(ours, ref, COMMANDS[0], fs);
    assert.equal(textFilters(front.state.requests) === 0, readWhole, `text filters sent: ${textFilters(front.state.requests)}`);
    if (readWhole) {
      assert.match(fs.stats().commands.at(-1).note, /small part of the collection: read whole/);
      front.reset();
      await sameOutput(ours, ref, COMMANDS[1], fs);
      assert.equal(front.state.requests.length, 0, "the directory is in memory: nothing asked");
    }
    for (const cmd of COMMANDS.slice(1)) await sameOutput(ours, ref, cmd, fs);
    ref.remove();
    fs.free();
    ChromaFs.setProcessCacheBytes(64 << 20);
  });
}

test("the whole collection is still asked about first: its grep index, or Chroma without one", async () => {
  for (const grepIndex of [true, false]) {
    const fs = await ChromaFs.connect({ url: front.url, collection: "small-ingested", grepIndex });
    front.reset();
    const r = await run(newBash(fs, { customCommands: fs.commands() }), "grep -rl token /");
    assert.equal(r.exitCode, 0);
    const c = fs.stats().commands.at(-1);
    assert.deepEqual([c.plan, c.index], ["narrow", grepIndex]);
    assert.equal(textFilters(front.state.requests) >= 1, !grepIndex);
    fs.free();
  }
});

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
