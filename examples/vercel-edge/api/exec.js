// POST /api/exec  {"command": "grep -rn token /", "groups": ["admin"]}
//   → {"stdout": "…", "stderr": "…", "exitCode": 0, "requests": 3}
//
// A read-only bash over the docs in a Chroma collection, as a Vercel Edge Function.
// Settings come from the project's environment variables:
//   CHROMA_URL          absolute URL of the Chroma server (required)
//   CHROMA_COLLECTION   collection written by `chromafs ingest` (required)
//   CHROMA_TOKEN        sent as x-chroma-token (Chroma Cloud), optional
//   CHROMA_TENANT, CHROMA_DATABASE   optional, Chroma's defaults otherwise
//
// `groups` decides which restricted pages exist for this request. Taking it from the
// request body keeps the example small; in production derive it from the caller's
// verified identity (a session, a signed token) and never from what the caller claims.
import { Bash } from "just-bash/browser";
import { ChromaFs, safeExec } from "chromafs";

export const config = { runtime: "edge" };

const MAX_COMMAND_BYTES = 16 * 1024;
const MAX_GROUPS = 64;
const MAX_GROUP_LENGTH = 256;

function json(body, status = 200, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** The request body as `{command, groups}`, or a string saying what is wrong with it. */
function parseBody(body) {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return "body must be a JSON object: {\"command\": string, \"groups\"?: string[]}";
  }
  const { command, groups = [] } = body;
  if (typeof command !== "string" || command.trim() === "") return "command must be a non-empty string";
  if (new TextEncoder().encode(command).length > MAX_COMMAND_BYTES) {
    return `command must be at most ${MAX_COMMAND_BYTES} bytes`;
  }
  if (!Array.isArray(groups) || groups.length > MAX_GROUPS) {
    return `groups must be an array of at most ${MAX_GROUPS} strings`;
  }
  for (const group of groups) {
    if (typeof group !== "string" || group === "" || group.length > MAX_GROUP_LENGTH) {
      return `each group must be a non-empty string of at most ${MAX_GROUP_LENGTH} characters`;
    }
  }
  return { command, groups };
}

function env(name) {
  const value = typeof process !== "undefined" && process.env ? process.env[name] : undefined;
  return value === "" ? undefined : value;
}

export default async function handler(request) {
  if (request.method !== "POST") {
    return json({ error: "method not allowed: use POST with {command, groups}" }, 405, { allow: "POST" });
  }
  let body;
  try {
    body = await request.json();
  } catch {
    return json({ error: "body must be valid JSON" }, 400);
  }
  const input = parseBody(body);
  if (typeof input === "string") return json({ error: input }, 400);

  const url = env("CHROMA_URL");
  const collection = env("CHROMA_COLLECTION");
  if (!url || !collection) {
    return json({ error: "server misconfigured: set CHROMA_URL and CHROMA_COLLECTION" }, 500);
  }

  let fs;
  try {
    fs = await ChromaFs.connect({
      url,
      collection,
      groups: input.groups,
      token: env("CHROMA_TOKEN"),
      tenant: env("CHROMA_TENANT"),
      database: env("CHROMA_DATABASE"),
    });
  } catch (error) {
    return json({ error: `cannot open the docs: ${error && error.message ? error.message : String(error)}` }, 502);
  }
  try {
    const connectRequests = fs.stats().requests;
    const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
    const { stdout, stderr, exitCode } = await safeExec(bash, input.command);
    // What the command cost, apart from opening the session.
    return json({ stdout, stderr, exitCode, requests: fs.stats().requests - connectRequests });
  } finally {
    fs.free();
  }
}
