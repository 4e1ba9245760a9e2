// just-bash's browser build imports node:zlib only for gzip, gunzip, zcat and `rg -z`.
// Workers have no node:zlib without the nodejs_compat flag, so those commands fail
// cleanly instead; every other command works.
const unsupported = () => {
  throw new Error("compression is not available in this worker");
};

export const gzipSync = unsupported;
export const gunzipSync = unsupported;
export const constants = { Z_BEST_COMPRESSION: 9, Z_BEST_SPEED: 1, Z_DEFAULT_COMPRESSION: -1 };
export default { gzipSync, gunzipSync, constants };
