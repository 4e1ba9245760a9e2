// A real OpenID provider on 127.0.0.1 for the tests and benchmarks of the MCP server's
// sign-in: node-oidc-provider (a certified implementation), issuing JWT access tokens by the
// client-credentials grant, one client per user, with the user's groups in a claim and the
// MCP server as the audience (RFC 8707 resource indicators). Its signing keys can be rotated
// while it runs: the next provider publishes the new key first and the old one beside it,
// as an identity provider does during a rotation.
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair } from "jose";

/** A fresh ES256 signing key: `{ kid, privateKey, publicJwk, privateJwk }`. */
export async function signingKey() {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = `key-${randomBytes(6).toString("hex")}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
  return { kid, privateKey, publicKey, publicJwk, privateJwk };
}

/** The provider's configuration: its clients (one per user), keys and JWT access tokens. */
function configuration({ users, state, claim, keys }) {
  const secrets = Object.fromEntries(Object.keys(users).map((name) => [name, `${name}-${randomBytes(12).toString("hex")}`]));
  const clients = Object.keys(users).map((name) => ({
    client_id: name,
    client_secret: secrets[name],
    grant_types: ["client_credentials"],
    response_types: [],
    redirect_uris: [],
    scope: "docs",
    id_token_signed_response_alg: "ES256",
  }));
  return {
    secrets,
    config: {
      clients,
      jwks: { keys: keys.map((k) => k.privateJwk) },
      scopes: ["docs"],
      ttl: { ClientCredentials: 600 },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => state.audience,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => ({ scope: "docs", audience: resource, accessTokenFormat: "jwt", accessTokenTTL: 600, jwt: { sign: { alg: "ES256" } } }),
        },
      },
      extraTokenClaims: (_ctx, token) => (token.clientId in users ? { [claim]: users[token.clientId] } : undefined),
    },
  };
}

/**
 * Starts the provider. `users` maps a user (a client id) to the value of its groups claim
 * (an array, or a space-separated string); `audience` is the resource tokens are for by
 * default (settable later as `audience`); `claim` names the claim (default `groups`).
 * Resolves with `{ issuer, token(user, { resource }), rotate(), keys, requests, paths,
 * fault, close() }`: `requests` counts what the provider was asked, `keys[0]` signs, and
 * `fault` answers requests in the provider's place while it is set.
 */
export async function startIdentityProvider({ users, audience, claim = "groups" }) {
  let handler = null;
  const state = { requests: 0, paths: [], audience, fault: null };
  const http = createServer((req, res) => {
    state.requests += 1;
    state.paths.push(req.url);
    if (state.fault?.(req, res)) return;
    handler(req, res);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${http.address().port}`;
  let keys = [await signingKey()];
  let secrets;
  const install = () => {
    const made = configuration({ users, state, claim, keys });
    secrets = made.secrets;
    const provider = new Provider(issuer, made.config);
    // Quiet: the provider's own notices are not the tests' output.
    provider.on("server_error", () => {});
    handler = provider.callback();
  };
  install();
  return {
    issuer,
    get keys() {
      return keys;
    },
    get requests() {
      return state.requests;
    },
    get audience() {
      return state.audience;
    },
    set audience(value) {
      state.audience = value;
    },
    paths: state.paths,
    /** `(req, res) => true` when it answered `req` itself: a provider failing as a test needs. */
    set fault(f) {
      state.fault = f;
    },
    /** An access token for `user`, for `resource` (default: the audience). */
    async token(user, { resource = state.audience } = {}) {
      const body = new URLSearchParams({ grant_type: "client_credentials", scope: "docs", resource });
      const basic = Buffer.from(`${encodeURIComponent(user)}:${encodeURIComponent(secrets[user])}`).toString("base64");
      const res = await fetch(`${issuer}/token`, { method: "POST", headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" }, body });
      const json = await res.json();
      if (!res.ok) throw new Error(`the provider refused a token for ${user}: ${json.error}: ${json.error_description}`);
      return json.access_token;
    },
    /** Rotates the signing key: a new key signs from now on, the old one is still published. */
    async rotate() {
      keys = [await signingKey(), keys[0]];
      install();
      return keys[0].kid;
    },
    close: () =>
      new Promise((resolve) => {
        http.close(resolve);
        http.closeAllConnections?.();
      }),
  };
}
