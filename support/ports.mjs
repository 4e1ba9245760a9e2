// Free loopback ports, for the servers (Chroma, stubs) that tests and benchmarks start.
import { createServer } from "node:net";

/** A TCP port nobody listens on right now, for servers a test starts. */
export async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}
