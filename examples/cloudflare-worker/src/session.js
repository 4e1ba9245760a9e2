// Opening a chromafs session: the same settings for /exec and /mcp.
import { ChromaFs, openAiEmbedder, workersCache } from "chromafs";

/**
 * The embedding service `search` embeds questions with: EMBED_MODEL at EMBED_URL (an
 * OpenAI-compatible API; OpenAI's own when not set), the key from the secret OPENAI_API_KEY
 * (or CHROMA_OPENAI_API_KEY). Without EMBED_MODEL, the service the collection records, when
 * it is OpenAI's own or at EMBED_URL. The questions it embedded are kept in the isolate.
 */
function embedding(env) {
  const allowOrigins = env.EMBED_URL ? [env.EMBED_URL] : [];
  if (!env.EMBED_MODEL) return { collectionEmbedding: { env, allowOrigins } };
  const dimensions = env.EMBED_DIMENSIONS ? Number(env.EMBED_DIMENSIONS) : undefined;
  return { embed: openAiEmbedder({ url: env.EMBED_URL, model: env.EMBED_MODEL, env, dimensions }) };
}

/** A session over the docs for `groups`; the same for /exec and /mcp. */
export function connect(env, groups) {
  // One session per request is cheap: chromafs keeps the decoded path tree in the isolate,
  // so only the first request an isolate serves pays for loading it; later ones check it
  // is still current with one small request.
  return ChromaFs.connect({
    url: env.CHROMA_URL,
    collection: env.CHROMA_COLLECTION,
    // Chroma Cloud needs these; a local server uses the defaults. Keep the token a secret.
    tenant: env.CHROMA_TENANT,
    database: env.CHROMA_DATABASE,
    token: env.CHROMA_TOKEN,
    groups,
    // Pages fetched by any isolate of this data centre are read from the Cache API by the
    // others; keys carry the tree version, so a re-ingest is never served stale.
    sharedCache: workersCache(caches.default),
    // Workers allow 50 subrequests per request on the free plan (1,000 paid): a command
    // that would need more stops with a clear error instead of failing half-way. Raise it
    // on a paid plan.
    maxRequestsPerCommand: Number(env.MAX_REQUESTS_PER_COMMAND ?? 50),
    // An agent's tool call needs an answer in bounded time.
    commandTimeoutMs: 20000,
    ...embedding(env),
  });
}
