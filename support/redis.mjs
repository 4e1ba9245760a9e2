// A Redis server for the tests that need one (the shared caches): redis-server, or Valkey
// from scripts/redis.sh. `redisMissing` says why there is none (the tests then skip, and
// say so); `startRedis()` starts one on a free port and connects node-redis's client to it.
import { execFileSync, spawn } from "node:child_process";
import { createClient } from "redis";
import { ROOT } from "./files.mjs";
import { freePort } from "./ports.mjs";

const SERVER = (() => {
  try {
    return process.env.CHROMAFS_REDIS_SERVER || execFileSync("bash", [`${ROOT}/scripts/redis.sh`, "path"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
})();

/** Why no Redis server can run here, or false. */
export const redisMissing = !SERVER && "no Redis server: run `bash scripts/redis.sh install` (or install redis-server) to run the shared-cache tests";

/** A server on a free port and a client connected to it: `{ client, stop() }`. */
export async function startRedis() {
  const port = await freePort();
  const server = spawn(SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  client.on("error", () => {});
  for (let i = 0; ; i++) {
    try {
      await client.connect();
      break;
    } catch (e) {
      if (i > 50) {
        server.kill();
        throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    client,
    async stop() {
      await client.quit().catch(() => {});
      server.kill();
    },
  };
}
