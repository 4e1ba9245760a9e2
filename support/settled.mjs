// What a ranked-search benchmark must know of Chroma's vector index before it measures:
// how many chunks a query with the chunk's own embedding does not find. Chroma's HNSW
// index (1.5.9) can leave some unreachable: ingest gave the records chromafs keeps beside
// the chunks (the path tree, `__grams__:` records of the trigram index) zero vectors,
// hundreds of identical points at one squared unit from every chunk, and the graph built
// around them stranded chunks that then never came back as neighbours, whatever the query
// (on the 1,142-page corpus, 169 of 2,651). Ingest now sets those records far away
// (src/base/embed.rs, `aside`), but a collection ingested before keeps them; and deletes
// and upserts into a collection written again strand more (chroma-core/chroma#7758). So a
// benchmark writes each collection once, in a new data directory, measures the builds it
// compares on the same collections, and says how many chunks were out of reach.
const BASE = "/api/v2/tenants/default_tenant/databases/default_database/collections";
// Records read, and embeddings queried, per request.
const BATCH = 100;

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json();
}

/**
 * The chunks of collection `name` at `url` (its records but chromafs's own, whose ids start
 * with `__`) and those of them that a query with their own embedding does not answer first.
 */
export async function unreachable(url, name) {
  const info = await fetch(`${url}${BASE}/${name}`).then((r) => r.json());
  const at = `${url}${BASE}/${info.id}`;
  const missed = [];
  let chunks = 0;
  for (let offset = 0; ; offset += BATCH) {
    const page = await post(`${at}/get`, { limit: BATCH, offset, include: ["embeddings"] });
    const kept = page.ids.map((id, i) => [id, page.embeddings?.[i]]).filter(([id, e]) => !id.startsWith("__") && Array.isArray(e) && e.length);
    chunks += kept.length;
    if (kept.length) {
      const found = await post(`${at}/query`, { query_embeddings: kept.map(([, e]) => e), n_results: 1, include: ["distances"] });
      kept.forEach(([id], i) => {
        // A chunk with the same vector as another (two identical texts) is answered by either.
        if (found.ids[i][0] !== id && !(found.distances[i][0] <= 1e-5)) missed.push(id);
      });
    }
    if (page.ids.length < BATCH) return { chunks, missed };
  }
}

/**
 * Waits until Chroma's index of collection `name` stops changing (two counts of the
 * unreachable chunks alike, two seconds apart) and returns `{ chunks, unreachable }`.
 */
export async function settled(url, name) {
  let last = await unreachable(url, name);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 2000));
    const now = await unreachable(url, name);
    if (now.missed.length === last.missed.length) return { chunks: now.chunks, unreachable: now.missed.length };
    last = now;
  }
  return { chunks: last.chunks, unreachable: last.missed.length };
}
