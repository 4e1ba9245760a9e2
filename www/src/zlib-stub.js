// Stands in for node:zlib in the browser bundle. just-bash uses it only for gzip, gunzip,
// zcat and rg -z, which this demo does not offer; they fail with a plain message.
function unavailable() {
  throw new Error("gzip is not available in this page");
}

export const constants = { Z_BEST_COMPRESSION: 9, Z_BEST_SPEED: 1, Z_DEFAULT_COMPRESSION: -1 };
export const gzipSync = unavailable;
export const gunzipSync = unavailable;
export default { constants, gzipSync, gunzipSync };
