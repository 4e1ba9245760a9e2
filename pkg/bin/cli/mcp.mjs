// `chromafs mcp`: the docs served to agents over the Model Context Protocol, over stdio or
// streamable HTTP, with the limits of chromafs/mcp. Over HTTP, who calls is told by an OAuth
// access token from the company's identity provider (--issuer), or by the tokens of a file.
import { watchFile } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { CliError, UsageError } from "./errors.mjs";
import { connectOptions as optionsOf, groupsOf, sitesOf } from "./connection.mjs";
import { withEmbedOptions } from "./embed-options.mjs";
import { withModel } from "./models.mjs";
import { reportBroken, reportGroups, reportRecorded, reportShape } from "./reports.mjs";
import { originsOption, urlOption } from "./urls.mjs";

/** A positive whole number given for `--name`, or `undefined` when not given. */
function count(values, name) {
  const text = values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n === 0) throw new UsageError(`--${name} must be a positive whole number, got '${text}'`);
  return n;
}

/** The authorizer of `--tokens FILE`'s text, after checking its shape; a CliError says why not. */
async function readTokens(file, tokenAuthorizer) {
  const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]).catch((e) => {
    throw new CliError(`--tokens: ${e.message}`);
  });
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
    process.stderr.write(`chromafs: warning: ${file} can be read by other users (mode ${(info.mode & 0o777).toString(8)}): chmod 600 ${file}\n`);
  }
  let tokens;
  try {
    tokens = JSON.parse(text);
  } catch (e) {
    throw new CliError(`--tokens: ${file} is not JSON (${e.message})`);
  }
  try {
    return tokenAuthorizer(tokens);
  } catch (e) {
    throw new CliError(`--tokens: ${file}: ${e.message}`);
  }
}

/**
 * The bearer tokens of `--tokens FILE`, read again whenever the file changes (looked at
 * every second): a token removed from it is refused from the next request on. While the
 * file cannot be read as tokens, every request that brings a token is refused (401), and
 * the operator is told; requests without one are as before.
 */
async function tokensFrom(file) {
  const { tokenAuthorizer, TokenRejected } = await import("../../mcp/node.mjs");
  let current = await readTokens(file, tokenAuthorizer);
  let broken = false;
  watchFile(file, { interval: 1000, persistent: false }, (now, before) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size && now.ino === before.ino) return;
    readTokens(file, tokenAuthorizer).then(
      (next) => {
        current = next;
        broken = false;
        process.stderr.write(`chromafs: --tokens: ${file} read again\n`);
      },
      (e) => {
        broken = true;
        process.stderr.write(`chromafs: ${e.message}: every token is refused until the file is fixed\n`);
      },
    );
  });
  return (request) => {
    if (broken && request.headers.authorization !== undefined) throw new TokenRejected("the server cannot read its tokens now");
    return current(request);
  };
}

const OAUTH_OPTIONS = ["issuer", "audience", "jwks", "groups-claim"];

/** The OAuth settings of the command line (`serveHttp`'s `oauth`), or `undefined`. */
function oauthOf(values) {
  if (values.issuer === undefined) {
    const stray = OAUTH_OPTIONS.find((name) => values[name] !== undefined);
    if (stray) throw new UsageError(`--${stray} applies to --issuer`);
    return undefined;
  }
  if (values.tokens) throw new UsageError("--tokens and --issuer both say who calls: use one");
  const claim = values["groups-claim"];
  if (claim !== undefined && !claim.trim()) throw new UsageError("--groups-claim must name a claim");
  const oauth = { issuer: urlOption(values, "issuer") };
  if (values.audience !== undefined) oauth.audience = values.audience;
  if (values.jwks !== undefined) oauth.jwks = urlOption(values, "jwks");
  if (claim !== undefined) oauth.groupsClaim = claim;
  return oauth;
}

export async function runMcp(conn, values) {
  const { serveStdio, serveHttp } = await import("../../mcp/node.mjs");
  const limits = Object.fromEntries(
    [
      ["callTimeoutMs", count(values, "call-timeout-ms")],
      ["maxRequests", count(values, "max-requests")],
      ["callsInFlight", count(values, "calls-in-flight")],
      ["memoryMiB", count(values, "memory-mib")],
    ].filter(([, v]) => v !== undefined),
  );
  if (limits.memoryMiB !== undefined && limits.memoryMiB < 64) throw new UsageError("--memory-mib must be at least 64");
  const named = conn.mounts ? `the docs mounted at ${Object.keys(conn.mounts).join(", ")}` : `the ${conn.collection} docs`;
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && (!/^\d+$/.test(values.workers) || !Number.isSafeInteger(workers))) {
    throw new UsageError(`--workers must be a whole number (0: calls run in the server's own thread), got '${values.workers}'`);
  }
  const idle = values["shell-idle-ms"];
  if (idle !== undefined && !/^\d+$/.test(idle)) throw new UsageError(`--shell-idle-ms must be a whole number of milliseconds (0: nothing kept), got '${idle}'`);
  const options = { toolPrefix: values["tool-prefix"] ?? "", docs: values.docs ?? named, limits, workers, ...(idle === undefined ? {} : { shellIdleMs: Number(idle) }) };
  const sites = sitesOf(conn, values);
  if (sites) options.baseUrl = sites;
  // A collection the built-in model embedded gets it for the search tool. The probe has
  // stdio's groups, which serveStdio is given again below; over HTTP it has none.
  // A service named by --embed, or the one the collection records (which the workers build
  // themselves, reading the key from the environment they inherit).
  const base = withEmbedOptions(optionsOf(conn, values), values);
  const probe = await withModel(values.http === undefined ? { ...base, groups: groupsOf(values) } : base, "chromafs mcp", { deferred: true }).catch(() => null);
  // Each caller's writable /tmp (--scratch DIR, or none).
  const connectOptions = { ...(probe?.options ?? base), ...(values.scratch === undefined ? {} : { scratch: values.scratch === "none" ? null : values.scratch }) };
  if (probe) {
    reportBroken(probe.fs, conn);
    reportShape(probe.fs, conn);
    if (values.http === undefined) reportGroups(probe.fs, conn);
    reportRecorded(probe.fs, conn, "chromafs mcp");
    probe.fs.free();
  }
  if (values.http === undefined) {
    const httpOnly = ["tokens", "require-token", "allow-origin", "public-url", ...OAUTH_OPTIONS].find((name) => values[name] !== undefined);
    if (httpOnly) throw new UsageError(`--${httpOnly} applies to --http`);
    // Serves until the client closes stdin.
    return new Promise((resolve, reject) => {
      serveStdio({ ...connectOptions, groups: groupsOf(values) }, { ...options, onClose: () => resolve(0) }).catch(reject);
    });
  }
  const port = Number(values.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http must be a port, got '${values.http}'`);
  if (values.groups) throw new UsageError("over --http the groups come from --issuer's tokens or --tokens, not --groups");
  const oauth = oauthOf(values);
  const publicUrl = urlOption(values, "public-url");
  const authorize = values.tokens ? await tokensFrom(values.tokens) : undefined;
  const allowOrigins = originsOption(values);
  const access = { authorize, oauth, publicUrl, requireToken: values["require-token"], allowOrigins };
  const server = await serveHttp(connectOptions, { port, host: values.host, ...access, ...options }).catch((e) => {
    if (e instanceof TypeError) throw new UsageError(e.message);
    if (e?.name === "TokenCheckUnavailable") throw new CliError(`--issuer: ${e.message}`);
    throw e;
  });
  process.stderr.write(`chromafs MCP server: ${server.url}${oauth ? ` (OAuth resource ${server.resource}, tokens from ${oauth.issuer})` : ""}\n`);
  return new Promise(() => {});
}
