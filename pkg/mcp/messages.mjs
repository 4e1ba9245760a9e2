// What the main thread of a Node server reads in a request's JSON-RPC messages, and the
// answers it writes itself: everything else about the protocol is the MCP SDK's, in a worker.
//
// Before a request goes to a worker, the main thread needs two things from its body: the
// tool calls in it (each counts against its caller's calls in flight, which every worker
// shares) and the cancellations (a call may run in another request, on another worker).
// When a worker cannot answer a call — it was stopped computing, or outgrew its heap — the
// main thread answers it as the SDK would have: a tool result that is an error, with the
// exit code line and the reason.
import { shown } from "./limits.mjs";
import { claimsEnvelope } from "./modern.mjs";

/**
 * A request body as the gate and the SDK both read it: UTF-8 (a byte-order mark dropped, as
 * JSON's parsers drop it), parsed; null when it is not JSON in UTF-8. What the gate cannot
 * read is refused, never run uncounted.
 */
export function parseBody(bytes) {
  try {
    return { message: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
  } catch {
    return null;
  }
}

/** The requests that read the docs beside tool calls: each counts as a call in flight. */
const READS = new Set(["resources/list", "resources/read", "resources/templates/list"]);

const hasId = (m) => typeof m.id === "string" || typeof m.id === "number";

/**
 * The tool calls (their ids), the other requests that read the docs (`reads`: resources'),
 * and the cancelled request ids of a parsed request body; `modern` when it is a request of
 * the 2026-07-28 revision (modern.mjs).
 */
export function inspect(parsed) {
  const messages = (Array.isArray(parsed) ? parsed : [parsed]).filter((m) => m && typeof m === "object");
  const calls = messages.filter((m) => m.method === "tools/call" && hasId(m)).map((m) => m.id);
  const reads = messages.filter((m) => READS.has(m.method) && hasId(m)).map((m) => m.id);
  const cancels = messages
    .filter((m) => m.method === "notifications/cancelled")
    .map((m) => m.params?.requestId)
    .filter((id) => typeof id === "string" || typeof id === "number");
  return { calls, reads, cancels, batch: Array.isArray(parsed), modern: claimsEnvelope(parsed) };
}

/** What a command that was stopped prints, as just-bash prints an aborted command. */
const ABORTED = Object.freeze({ stdout: "", stderr: "bash: execution aborted\n", exitCode: 124 });

/**
 * The answer to `calls` (ids) that ended without their worker, saying `why`; a `modern`
 * (2026-07-28) call's result says its type, as that revision's results do.
 */
export function abandonedAnswer(calls, batch, why, modern = false) {
  const result = { content: [{ type: "text", text: shown(ABORTED, `[${why}]`) }], isError: true, ...(modern ? { resultType: "complete" } : {}) };
  const answers = calls.map((id) => ({ jsonrpc: "2.0", id, result }));
  return JSON.stringify(batch ? answers : answers[0]);
}
