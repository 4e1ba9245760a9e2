// A collection written by Chroma's own JavaScript client (the `chromadb` npm package) with
// Chroma's own OpenAI embedding function (`@chroma-core/openai`, which calls the service
// through OpenAI's SDK): the client records the function in the collection's
// configuration, as a company's existing collection would have it, and embeds every
// record through the service. The pages are laid out as chromafs reads them: a chunk per
// page with `page_slug` and `chunk_index`, and a path tree record.
import { ChromaClient } from "chromadb";
import { OpenAIEmbeddingFunction } from "@chroma-core/openai";

/**
 * Writes `pages` (path → text) into collection `name` at Chroma `url` with Chroma's client,
 * embedded by `model` at the OpenAI-compatible `apiBase`, the key read from `keyVariable`
 * (which must be set in this process's environment, as Chroma's client requires).
 * Returns the collection's configuration as Chroma answers it.
 */
export async function writeWithChromaClient({ url, name, pages, apiBase, model = "text-embedding-3-small", keyVariable = "CHROMA_OPENAI_API_KEY", dimensions }) {
  const { hostname, port, protocol } = new URL(url);
  const client = new ChromaClient({ host: hostname, port: Number(port), ssl: protocol === "https:" });
  const embeddingFunction = new OpenAIEmbeddingFunction({ modelName: model, apiKeyEnvVar: keyVariable, apiBase, dimensions });
  await client.deleteCollection({ name }).catch(() => {});
  const collection = await client.createCollection({ name, embeddingFunction });
  const slugs = Object.keys(pages);
  const tree = Object.fromEntries(slugs.map((s) => [s, { isPublic: true, groups: [], size: Buffer.byteLength(pages[s]) }]));
  await collection.add({
    ids: [...slugs.map((s) => `${s}#0`), "__path_tree__"],
    documents: [...slugs.map((s) => pages[s]), JSON.stringify(tree)],
    metadatas: [...slugs.map((s) => ({ page_slug: s, chunk_index: 0 })), { chromafs: "tree" }],
  });
  const info = await fetch(`${url}/api/v2/tenants/default_tenant/databases/default_database/collections/${name}`).then((r) => r.json());
  return info.configuration_json;
}
