// What checking an OAuth access token costs the MCP server once the provider's keys are
// cached: the time `jwtAuthorizer` takes per request (signature, issuer, audience, expiry,
// groups), the time an HTTP request to `serveHttp` takes with and without sign-in, and the
// requests the provider receives meanwhile (there should be none). Tokens come from a real
// OpenID provider (node-oidc-provider, ES256) on 127.0.0.1; no Chroma is needed, since an
// MCP `initialize` opens no session.
//   node bench/oauth.mjs [--runs N]
// Writes bench/results/oauth/all.json and prints a Markdown table.
import { jwtAuthorizer, serveHttp } from "chromafs/mcp";
import { startIdentityProvider } from "../support/identity-provider.mjs";
import { freePort } from "../support/ports.mjs";
import { arg, startResult } from "../support/results.mjs";

const RUNS = Number(arg("--runs", "2000"));
const USERS = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`user${i}`, [`team-${i}`, "staff"]]));

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const f3 = (x) => x.toFixed(3);

/** `runs` timings of `once(i)`, in ms, after a warm-up. */
async function timings(runs, once) {
  for (let i = 0; i < 50; i++) await once(i);
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await once(i);
    out.push(performance.now() - t0);
  }
  return out;
}

const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "b", version: "1" } } });

function initialize(url, token) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(url, { method: "POST", headers, body: INITIALIZE }).then(async (r) => {
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`status ${r.status}`);
  });
}

const run = startResult("oauth", {
  settings: {
    provider: "node-oidc-provider on 127.0.0.1, JWT access tokens signed with ES256 (P-256), client-credentials grant",
    tokens: `${Object.keys(USERS).length} users' tokens, used in turn`,
    runs: `${RUNS} per row after 50 to warm up (the two HTTP rows in turn); median and 99th percentile`,
  },
});
const port = await freePort();
const resource = `http://127.0.0.1:${port}/mcp`;
const idp = await startIdentityProvider({ users: USERS, audience: resource });
try {
  const tokens = await Promise.all(Object.keys(USERS).map((u) => idp.token(u)));
  const request = (i) => new Request(resource, { headers: { authorization: `Bearer ${tokens[i % tokens.length]}` } });

  const authorize = jwtAuthorizer({ issuer: idp.issuer, audience: resource });
  await authorize.ready();
  const askedBefore = idp.requests;
  const verify = await timings(RUNS, (i) => authorize(request(i)));
  const askedDuring = idp.requests - askedBefore;

  const open = await serveHttp({ url: "http://127.0.0.1:9", collection: "unused" }, { port: 0 });
  const signedIn = await serveHttp({ url: "http://127.0.0.1:9", collection: "unused" }, { port, oauth: { issuer: idp.issuer } });
  // In turn, so that both see the same machine.
  const askedBeforeHttp = idp.requests;
  const [plain, withToken] = [[], []];
  await timings(RUNS, async (i) => {
    let t0 = performance.now();
    await initialize(open.url);
    plain.push(performance.now() - t0);
    t0 = performance.now();
    await initialize(signedIn.url, tokens[i % tokens.length]);
    withToken.push(performance.now() - t0);
  });
  const askedDuringHttp = idp.requests - askedBeforeHttp;
  await Promise.all([open.close(), signedIn.close()]);

  const row = (what, xs, asked) => [what, f3(quantile(xs, 0.5)), f3(quantile(xs, 0.99)), asked ?? ""];
  run.table(
    "verify",
    ["", "median ms:", "p99 ms:", "requests to the provider:"],
    [
      row("`jwtAuthorizer`: one token checked, keys cached", verify, `${askedDuring} in ${RUNS + 50} checks`),
      row("HTTP `initialize` to `serveHttp`, no sign-in", plain.slice(50)),
      row("HTTP `initialize` to `serveHttp --issuer`, with a token", withToken.slice(50), `${askedDuringHttp} in ${RUNS + 50} requests`),
    ],
  );
  run.fact("verifyMedianMs", Number(f3(quantile(verify, 0.5))));
  run.fact("verifyP99Ms", Number(f3(quantile(verify, 0.99))));
  run.fact("providerRequestsPerCall", (askedDuring + askedDuringHttp) / (2 * (RUNS + 50)));
  run.fact("httpOverheadMs", Number(f3(quantile(withToken.slice(50), 0.5) - quantile(plain.slice(50), 0.5))));
  run.save();
} finally {
  await idp.close();
}
