// Stands in for `node:zlib`, which Vercel's edge runtime does not provide. just-bash's
// browser build imports it only for gzip, gunzip, zcat and `rg -z`; those commands fail
// with this message, everything else works.
function unavailable() {
  throw new Error("zlib is not available in the edge runtime");
}

export const gzipSync = unavailable;
export const gunzipSync = unavailable;
export const constants = {};
