// Serving the 2026-07-28 revision (modern.mjs) with the MCP SDK's server, beside the 2025
// revisions that server speaks itself.
//
// The SDK's server answers tools and resources whatever revision asked: a 2026-07-28
// request reaches it without its envelope, as the stateless 2025 request it otherwise is,
// and its answer goes back as 2026-07-28 spells it. So both revisions run the same
// handlers, with the same limits, and get the same pages. What only 2026-07-28 has is
// answered here: `server/discover` (from the server's own name, capabilities and
// instructions) and "method not found" for what the revision does not define or the
// server does not declare.
//
// Over HTTP each request stands alone in either revision: a 2026-07-28 request is handed
// to a server of its own through a transport of one exchange (`answerModern`); closing
// the server stops its call, as when the client goes away. Over stdio one server serves
// the process, and `eraTransport` sits between it and the stdio transport, so that a
// client may open with `initialize` or with `server/discover`.
import { classify, discoverResult, errorAnswer, METHOD_NOT_FOUND, modernAnswer, answerStatus, servedMethods, withoutEnvelope } from "./modern.mjs";

/**
 * What a server says about itself: `{ serverInfo, capabilities, instructions }`, as its
 * `initialize` answer says it. `server` is an McpServer or its underlying Server.
 */
export function describe(server) {
  const s = server.server ?? server;
  return { serverInfo: s._serverInfo, capabilities: s.getCapabilities(), instructions: s._instructions };
}

/**
 * The answer to a 2026-07-28 request that the server's handlers do not give, as
 * `{ status, answer }`: `server/discover`, and "method not found" for a method the
 * revision does not define or the server does not declare; null for any other.
 */
function localAnswer(message, described) {
  if (message.method === "server/discover") {
    const answer = { jsonrpc: "2.0", id: message.id, result: discoverResult(described) };
    return { status: 200, answer: modernAnswer(message.method, answer, described.serverInfo) };
  }
  if (servedMethods(described.capabilities).has(message.method)) return null;
  return { status: 404, answer: errorAnswer(message.id, METHOD_NOT_FOUND, `Method not found: ${message.method}`) };
}

/** A transport that carries one request to a server and resolves with its answer (null: none came). */
function oneExchange() {
  let settle;
  const answered = new Promise((resolve) => (settle = resolve));
  const transport = {
    async start() {},
    async send(message) {
      if (message && ("result" in message || "error" in message)) settle(message);
    },
    async close() {
      settle(null);
      transport.onclose?.();
    },
    /** Hands `message` to the server: its answer. */
    ask(message, extra) {
      transport.onmessage?.(message, extra);
      return answered;
    },
  };
  return transport;
}

/**
 * Answers the 2026-07-28 request `message` (classified by `classify`) with `server`, which
 * is connected for it and closed after: `{ status, answer }`. `signal` aborting (the client
 * went away) closes the server, which stops the call.
 */
export async function answerModern(server, message, { signal, requestInfo } = {}) {
  const described = describe(server);
  const local = localAnswer(message, described);
  if (local) {
    await server.close();
    return local;
  }
  const exchange = oneExchange();
  await server.connect(exchange);
  const left = () => server.close();
  signal?.addEventListener("abort", left, { once: true });
  try {
    if (signal?.aborted) await left();
    const answer = (await exchange.ask(withoutEnvelope(message), requestInfo ? { requestInfo } : undefined)) ?? errorAnswer(message.id, -32603, "the request was stopped: its client went away");
    const shaped = modernAnswer(message.method, answer, described.serverInfo);
    return { status: answerStatus(shaped), answer: shaped };
  } finally {
    signal?.removeEventListener("abort", left);
    await server.close();
  }
}

/** A JSON answer over HTTP. */
export const jsonResponse = (status, body) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * `inner` (the stdio transport) as `server` connects to it, serving both revisions on the
 * one process: a 2025 message goes to the server as it came; a 2026-07-28 request goes
 * without its envelope, and its answer comes back as that revision spells it; a request
 * that breaks the revision's rules is answered here. The only 2026-07-28 notification that
 * means anything to this server is a cancellation, which reaches the call it names.
 */
export function eraTransport(inner, server) {
  const modern = new Map(); // request id → method, for the requests that spoke 2026-07-28
  const key = (id) => JSON.stringify(id);
  const outer = {
    start: () => inner.start(),
    close: () => inner.close(),
    send(message, options) {
      const method = message && ("result" in message || "error" in message) ? modern.get(key(message.id)) : undefined;
      if (method === undefined) return inner.send(message, options);
      modern.delete(key(message.id));
      return inner.send(modernAnswer(method, message, describe(server).serverInfo), options);
    },
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onmessage = (message, extra) => {
    const route = classify(message, null);
    if (route.refuse) {
      if (message && "id" in message) inner.send(route.refuse.answer).catch((e) => outer.onerror?.(e));
      return;
    }
    if (route.era === "legacy") return outer.onmessage?.(message, extra);
    if (!route.request) {
      if (message.method === "notifications/cancelled") outer.onmessage?.(withoutEnvelope(message), extra);
      return;
    }
    const local = localAnswer(message, describe(server));
    if (local) return void inner.send(local.answer).catch((e) => outer.onerror?.(e));
    modern.set(key(message.id), message.method);
    outer.onmessage?.(withoutEnvelope(message), extra);
  };
  return outer;
}
