// Who makes a request to the MCP endpoint: the groups that decide which pages exist for it,
// and the caller the per-caller limits count. Both come from what the server authenticated,
// never from how the request spelled it: a token written with another scheme case or more
// spaces is the same caller, ten made-up tokens from one address are that address, and ten
// tokens of one OAuth subject are that subject.
//
// Callers are keys built from their parts by JSON (injective): a `--tokens` entry, an OAuth
// issuer and subject, the digest of a token a host's own `authorize` accepted without naming
// its owner, or — for a request with no credentials, or credentials an open server does not
// know — the anonymous caller of the request's address. Nothing tells two anonymous callers
// at one address apart, so their calls cannot be cancelled from another request.
import { TokenCheckUnavailable, TokenRejected, bearerChallenge } from "./auth.mjs";
import { bearerToken, hexDigest } from "./request.mjs";

/** The caller a request with no credentials (or unknown ones) is: its address. */
export function anonymousCaller(address = "unknown") {
  return { key: JSON.stringify(["address", String(address)]), anonymous: true };
}

/** The caller `authorize`'s answer names: its own `caller`, else the bearer token's digest. */
async function callerOf(request, answer, address) {
  if (typeof answer?.caller === "string" && answer.caller) return { key: JSON.stringify(["authenticated", answer.caller]), anonymous: false };
  const token = bearerToken(request);
  if (token) return { key: JSON.stringify(["token", await hexDigest(token)]), anonymous: false };
  return anonymousCaller(address);
}

const groupList = (g) => Array.isArray(g) && g.every((x) => typeof x === "string");

/**
 * Who may make `request`: `{ groups, caller }`, or `{ status, message, headers }` to refuse
 * it with. `authorize` gives the groups — `null` (no credentials, or credentials it does not
 * know), an array, or `{ groups, caller }` naming who was authenticated — and may throw
 * TokenRejected (401) or TokenCheckUnavailable (503); `requireToken` refuses a request
 * without any; `resource` is the server's public URL when it is an OAuth resource server
 * (401s then point at its metadata); `address` is the request's network address, for
 * anonymous callers. `caller` is `{ key, anonymous }`. Fails closed: an error other than
 * those two is a 401 too.
 */
export async function admit(request, { authorize, requireToken = false, resource = null, address = "unknown" }) {
  let answer;
  try {
    answer = await authorize(request);
  } catch (e) {
    if (e instanceof TokenCheckUnavailable) {
      return { status: 503, message: "the token cannot be checked now: the identity provider's keys are out of reach", cause: e, headers: { "retry-after": "30" } };
    }
    const rejected = e instanceof TokenRejected ? e : new TokenRejected("the credentials could not be checked");
    return { status: 401, message: rejected.message, headers: { "www-authenticate": bearerChallenge(resource, rejected) } };
  }
  if (answer == null) {
    if (requireToken) return { status: 401, message: "a valid bearer token is required", headers: { "www-authenticate": bearerChallenge(resource, null) } };
    return { groups: [], caller: anonymousCaller(address) };
  }
  const groups = Array.isArray(answer) ? answer : answer?.groups;
  if (!groupList(groups)) {
    return { status: 401, message: "the credentials gave no list of groups", headers: { "www-authenticate": bearerChallenge(resource, null) } };
  }
  return { groups: [...groups], caller: await callerOf(request, answer, address) };
}
