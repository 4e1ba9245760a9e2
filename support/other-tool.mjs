// Collections as other tools write them: chunks carrying only `page_slug` and `chunk_index`,
// cut at any character (never inside a code point), and one tree record. chromafs reads
// such a collection by slug; the grep suite and bench/other-tools.mjs both write one.
import { chroma } from "./proxy.mjs";

/**
 * Replaces collection `name` at `url` with `files` (`{ path, content }`): each page cut into
 * chunks of `chunkLength()` code points (asked again for each chunk), and the tree entry
 * `entry(file, chunks)` for each page.
 */
export async function writeOtherTool(url, name, files, { chunkLength, entry }) {
  await chroma(url, "DELETE", `/collections/${name}`).catch(() => {});
  const { id } = await chroma(url, "POST", "/collections", { name, get_or_create: true });
  const records = [];
  const tree = {};
  for (const f of files) {
    const chars = [...f.content.toString("utf8")];
    let n = 0;
    for (let i = 0; i < chars.length; n++) {
      const len = chunkLength();
      records.push({ id: `${f.path}#${n}`, doc: chars.slice(i, i + len).join(""), meta: { page_slug: f.path, chunk_index: n } });
      i += len;
    }
    tree[f.path] = entry(f, n);
  }
  for (let i = 0; i < records.length; i += 300) {
    const batch = records.slice(i, i + 300);
    await chroma(url, "POST", `/collections/${id}/upsert`, {
      ids: batch.map((r) => r.id),
      embeddings: batch.map(() => [1, 0]),
      documents: batch.map((r) => r.doc),
      metadatas: batch.map((r) => r.meta),
    });
  }
  await chroma(url, "POST", `/collections/${id}/upsert`, {
    ids: ["__path_tree__"],
    embeddings: [[0, 0]],
    documents: [JSON.stringify(tree)],
    metadatas: [{ chromafs: "path-tree" }],
  });
  return records.length;
}
