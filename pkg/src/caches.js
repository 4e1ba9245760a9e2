// Shared content caches for `ChromaFs.connect({ sharedCache })`, so that many sessions fetch
// each page from Chroma once: one over Redis, one over the Workers Cache API. A cache is
// any object with `get(key)` and `set(key, bytes)`; these adapt the two common stores.

function bytesToBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function base64ToBytes(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * A shared content cache over Redis, for `ChromaFs.connect({ sharedCache })`: many
 * sessions and processes then fetch each page from Chroma once. Works with any client
 * whose `get`/`set` take and return strings (node-redis, ioredis). Keys carry the
 * collection id and tree version, so entries never go stale; `ttlSeconds` only bounds
 * memory (or let Redis evict with `maxmemory-policy allkeys-lru`).
 */
function redisCache(client, { prefix = "", ttlSeconds = 0 } = {}) {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  // Values are tagged text: pages are UTF-8; other bytes (lazy files) go as base64.
  return {
    async get(key) {
      const v = await client.get(prefix + key);
      if (v == null) return null;
      const s = typeof v === "string" ? v : new TextDecoder().decode(v);
      if (s.startsWith("t:")) return s.slice(2);
      if (s.startsWith("b:")) return base64ToBytes(s.slice(2));
      return null;
    },
    async set(key, bytes) {
      let v;
      try {
        v = `t:${utf8.decode(bytes)}`;
      } catch {
        v = `b:${bytesToBase64(bytes)}`;
      }
      if (!(ttlSeconds > 0)) await client.set(prefix + key, v);
      else if (typeof client.getBuffer === "function") await client.set(prefix + key, v, "EX", ttlSeconds); // ioredis
      else await client.set(prefix + key, v, { EX: ttlSeconds }); // node-redis
    },
  };
}

/**
 * A shared content cache over the Workers Cache API (`caches.default` in Cloudflare
 * Workers): the isolates of a data centre share fetched pages.
 */
function workersCache(cache, { origin = "https://chromafs.invalid", ttlSeconds = 86400 } = {}) {
  const url = (key) => `${origin}/${encodeURIComponent(key)}`;
  return {
    async get(key) {
      const r = await cache.match(url(key));
      return r ? new Uint8Array(await r.arrayBuffer()) : null;
    },
    async set(key, bytes) {
      await cache.put(url(key), new Response(bytes, { headers: { "cache-control": `max-age=${ttlSeconds}` } }));
    },
  };
}

export { redisCache, workersCache };
