// What every request the package makes to a server other than Chroma shares (an embedding
// service, an identity provider's keys, a public site's base URL): the URL read as `fetch`
// reads it, and a body read no further than a limit.

/** `text` as `fetch` parses an absolute URL, or null when it is not one. */
function absoluteUrl(text) {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Whether `url` (a parsed URL, or null) is an http or https one. */
function isHttp(url) {
  return url !== null && /^https?:$/.test(url.protocol);
}

/**
 * An absolute http(s) URL without credentials, query or fragment, as `fetch` parses it; or a
 * TypeError naming `what` (never echoing the text, which may hold a key).
 */
function httpUrl(text, what) {
  const url = absoluteUrl(text);
  if (!isHttp(url) || url.search || url.hash || url.username || url.password) {
    throw new TypeError(`${what} must be an http(s) URL without query, fragment or credentials`);
  }
  return url;
}

/**
 * The body of `res` as bytes, read as a stream and cancelled as soon as it passes `limit`
 * (or declares more): then `tooLarge(bytes, declared)` is thrown, with the size declared or
 * reached.
 */
async function boundedBody(res, limit, tooLarge) {
  const declared = Number(res.headers.get("content-length"));
  if (declared > limit) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge(declared, true);
  }
  if (!res.body?.getReader) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(size, false);
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return all;
}

export { absoluteUrl, isHttp, httpUrl, boundedBody };
