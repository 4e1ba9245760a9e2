// A caller's shell between its calls on the MCP server: the working directory and /tmp are
// kept for a caller the server knows (a token's, stdio's client), never shown to another
// caller, never kept for an anonymous one, and dropped after the idle time or past the
// store's bounds. Through the SDK's client, over HTTP with the worker pool and without it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs, ingest, redisCache } from "chromafs";
import { serveHttp, shellStore, tokenAuthorizer } from "chromafs/mcp";
import { chromaUrl } from "../helpers.mjs";
import { redisMissing, startRedis } from "../../../support/redis.mjs";

const TOKENS = { "alice-token-0123456789": [], "bob-token-0123456789ab": [] };
const servers = [];

before(async () => {
  const files = [
    { path: "guides/setup.md", content: "install the token\n" },
    { path: "api/keys.md", content: "rotate a key\n" },
  ];
  await ingest({ url: chromaUrl(), collection: "mcp-shells", files });
});
after(async () => {
  for (const s of servers) await s.close();
});

const text = (r) => r.content.map((c) => c.text).join("");

async function serve({ sharedCache, ...options } = {}) {
  const server = await serveHttp({ url: chromaUrl(), collection: "mcp-shells", sharedCache }, { authorize: tokenAuthorizer(TOKENS), ...options });
  servers.push(server);
  return server;
}

async function client(server, token) {
  const c = new Client({ name: "shells", version: "1" });
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  const bash = async (command) => text(await c.callTool({ name: "bash", arguments: { command } }));
  return { bash, close: () => c.close(), tools: () => c.listTools() };
}

for (const workers of [undefined, 0]) {
  test(`a known caller keeps its directory and /tmp; no other caller sees them (workers: ${workers ?? "default"})`, async () => {
    const server = await serve(workers === undefined ? {} : { workers });
    const [alice, bob, anon] = await Promise.all([client(server, "alice-token-0123456789"), client(server, "bob-token-0123456789ab"), client(server)]);
    try {
      assert.equal(await alice.bash("cd /guides && grep -rl token / > /tmp/hits; mkdir /tmp/d; echo x > /tmp/d/f"), "(no output)");
      assert.equal(await alice.bash("pwd; cat /tmp/hits; ls /tmp"), "/guides\n/guides/setup.md\nd\nhits\n");
      assert.equal(await bob.bash("pwd; ls /tmp; cat /tmp/hits"), "/\ncat: /tmp/hits: No such file or directory\n[exit code 1]");
      assert.equal(await bob.bash("echo mine > /tmp/hits; cd /api"), "(no output)");
      assert.equal(await alice.bash("cat /tmp/hits; cat setup.md"), "/guides/setup.md\ninstall the token\n", "bob's write is his own");
      assert.equal(await bob.bash("cat /tmp/hits; pwd"), "mine\n/api\n");
      // An anonymous caller has a /tmp within each call, and nothing after it.
      assert.equal(await anon.bash("echo a > /tmp/a && cat /tmp/a && cd /api && pwd"), "a\n/api\n");
      assert.equal(await anon.bash("pwd; ls /tmp"), "/\n");
      assert.match(await anon.bash("ls /tmp/d"), /\/tmp\/d'?: No such file or directory\n\[exit code 2\]$/);
      // The tool says so, to each.
      const described = async (c) => (await c.tools()).tools.find((t) => t.name === "bash").description;
      assert.match(await described(alice), /Your working directory and \/tmp carry over from one call to the next, as in a\nterminal, until 30 minutes pass without a call/);
      assert.match(await described(anon), /Each call starts in `\/`/);
      assert.equal(server.shells().callers, 2);
    } finally {
      await Promise.all([alice.close(), bob.close(), anon.close()]);
    }
  });
}

for (const workers of [undefined, 0]) {
  test(`what a line sets in its shell (options, the hash table, marks) reaches no later call, its caller's or another's (workers: ${workers ?? "default"})`, async () => {
    const server = await serve(workers === undefined ? {} : { workers });
    const [alice, bob, anon] = await Promise.all([client(server, "alice-token-0123456789"), client(server, "bob-token-0123456789ab"), client(server)]);
    const probe = "shopt nullglob; set -o | grep pipefail; grep -c token /guides/setup.md; hash; readonly -p | grep -c R=; export -p | grep -c E=; alias; type f; echo ${X:-unset}";
    try {
      const fresh = await anon.bash(probe);
      assert.match(fresh, /nullglob\s+off\npipefail\s+off\n1\n/, "a new shell's answer");
      for (const c of [alice, bob, anon]) {
        const set = "shopt -s nullglob; set -o pipefail; hash -p /bin/echo grep; readonly R=1; export E=2; alias ll='ls -l'; f() { echo f; }; X=1";
        assert.equal(await c.bash(set), "(no output)");
        for (const other of [alice, bob, anon]) assert.equal(await other.bash(probe), fresh, "each line starts in a shell as new");
      }
    } finally {
      await Promise.all([alice.close(), bob.close(), anon.close()]);
    }
  });
}

test("shellIdleMs: 0 keeps nothing; a removed directory is left for /", async () => {
  const none = await serve({ shellIdleMs: 0 });
  const a = await client(none, "alice-token-0123456789");
  try {
    assert.equal(await a.bash("echo x > /tmp/x; cd /api"), "(no output)");
    assert.equal(await a.bash("pwd; ls /tmp"), "/\n");
    assert.equal(none.shells().callers, 0);
  } finally {
    await a.close();
  }
  const kept = await serve();
  const b = await client(kept, "bob-token-0123456789ab");
  try {
    await b.bash("mkdir -p /tmp/w && cd /tmp/w");
    assert.equal(await b.bash("pwd; cd / && rm -r /tmp/w"), "/tmp/w\n");
    assert.equal(await b.bash("pwd"), "/\n");
    await b.bash("mkdir /tmp/v && cd /tmp/v && rm -r /tmp/v");
    assert.equal(await b.bash("pwd"), "/\n", "a directory that is gone is not entered");
  } finally {
    await b.close();
  }
});

test("the store: idle states expire, the least recently kept go first past the bounds", () => {
  let now = 0;
  const store = shellStore({ idleMs: 1000, maxBytes: 3000, maxCallers: 3, now: () => now });
  const state = (n) => ({ cwd: "/", scratch: new Uint8Array(n) });
  store.put("a", state(1000));
  now = 10;
  store.put("b", state(1000));
  store.put("c", state(500));
  assert.deepEqual(store.stats(), { callers: 3, bytes: 2500 + 3 * 66 });
  store.put("d", state(500));
  assert.equal(store.get("a"), null, "past the bytes, the oldest went");
  assert.ok(store.get("b") && store.get("c") && store.get("d"));
  store.put("e", state(10));
  assert.equal(store.get("b"), null, "past the callers, the oldest went");
  now = 2000;
  assert.equal(store.get("c"), null, "idle past idleMs");
  store.put("f", state(10));
  assert.deepEqual(store.stats().callers, 1, "a put drops the expired");
  store.put("g", state(4000));
  assert.equal(store.get("g"), null, "a state larger than the store is not kept");
  assert.throws(() => shellStore({ idleMs: -1 }), /shellIdleMs/);
});

test("a session's scratch state: saved, restored, refused when it is not one", async () => {
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "mcp-shells", scratch: "/tmp", scratchBytes: 64 });
  const plain = await ChromaFs.connect({ url: chromaUrl(), collection: "mcp-shells" });
  try {
    await fs.mkdir("/tmp/d");
    await fs.writeFile("/tmp/d/f", "hello");
    const saved = fs.saveScratch();
    fs.restoreScratch(null);
    assert.equal(await fs.exists("/tmp/d"), false);
    fs.restoreScratch(saved);
    assert.equal(await fs.readFile("/tmp/d/f"), "hello");
    assert.throws(() => fs.restoreScratch(new Uint8Array([1, 2, 3])), /EINVAL.*saved scratch state/);
    assert.equal(await fs.readFile("/tmp/d/f"), "hello", "a refused state changes nothing");
    assert.equal(plain.saveScratch(), undefined);
    plain.restoreScratch(null);
    assert.throws(() => plain.restoreScratch(saved), /no scratch directory/);
    assert.equal(fs.writeError("/guides/setup.md").code, "EROFS");
    assert.equal(fs.writeError("/tmp/nodir/x").code, "ENOENT");
    assert.equal(fs.writeError("/tmp/d/new"), null);
  } finally {
    fs.free();
    plain.free();
  }
});

test("with a shared cache, a caller's shell follows it from one server process to another", { skip: redisMissing }, async () => {
  const redis = await startRedis();
  try {
    const sharedCache = redisCache(redis.client, { prefix: "mcp-shells:" });
    // Two servers over the same docs and cache, as two processes behind a balancer.
    const [one, two] = await Promise.all([0, 1].map(() => serve({ workers: 0, sharedCache })));
    const a1 = await client(one, "alice-token-0123456789");
    const a2 = await client(two, "alice-token-0123456789");
    const b2 = await client(two, "bob-token-0123456789ab");
    try {
      assert.equal(await a1.bash("cd /api && printf 'a\\0b' > /tmp/b && echo 'text é' > /tmp/t"), "(no output)");
      assert.equal(await a2.bash("pwd; cat /tmp/t; wc -c < /tmp/b"), "/api\ntext é\n3\n");
      assert.equal(await b2.bash("ls /tmp; pwd"), "/\n", "another caller's shell is not there");
      const keys = await redis.client.keys("mcp-shells:shell:*");
      assert.equal(keys.length, 2, "a shell per caller, under keys that name no token");
      for (const key of keys) assert.match(key, /^mcp-shells:shell:[0-9a-f]{64}$/);
    } finally {
      await Promise.all([a1.close(), a2.close(), b2.close()]);
    }
  } finally {
    await redis.stop();
  }
});

test("a caller's shell adds no request to a call", async () => {
  const { startProxy } = await import("../../../support/proxy.mjs");
  const front = await startProxy(chromaUrl());
  try {
    const server = await serveHttp({ url: front.url, collection: "mcp-shells" }, { authorize: tokenAuthorizer(TOKENS), workers: 0 });
    servers.push(server);
    const c = await client(server, "alice-token-0123456789");
    try {
      const cost = async (command) => {
        const before = front.requests.length;
        await c.bash(command);
        return front.requests.length - before;
      };
      await cost("true"); // the session and its tree
      const baseline = await cost("true");
      assert.equal(await cost("mkdir -p /tmp/a/b && cd /tmp/a && echo x > b/c"), baseline);
      assert.equal(await cost("cat b/c; ls /tmp/a; pwd"), baseline, "the shell restored costs nothing");
    } finally {
      await c.close();
    }
  } finally {
    await front.close();
  }
});
