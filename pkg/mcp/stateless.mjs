// One HTTP request answered by an MCP server, with no MCP session: JSON answers, the
// transport and the server closed once the answer is read (a Node server connects the same
// server again for its caller's next request). The endpoint of any runtime (answerMcp) and
// a Node server's thread (node.mjs) answer each request this way. A request of
// the 2026-07-28 revision (its `_meta` names the version) is answered by that revision's
// rules (eras.mjs); any other by the SDK's streamable-HTTP transport, as the 2025 revisions
// are.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { classify } from "./modern.mjs";
import { answerModern, jsonResponse } from "./eras.mjs";

/**
 * The JSON body of a POST `request`, read from a copy (the request's own stays unread), or
 * undefined when it has none or it is not JSON: the SDK's transport then answers it.
 */
async function bodyOf(request) {
  if (request.method !== "POST" || !/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) return undefined;
  try {
    return JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
}

/**
 * `request` (a fetch Request) answered by `server`: what `read(response)` makes of the
 * answer. `parsedBody`, when given, is its body as already parsed (its own body unread).
 */
export async function answerAlone(server, request, read, parsedBody) {
  const body = parsedBody ?? (await bodyOf(request));
  const route = body === undefined ? { era: "legacy" } : classify(body, request.headers);
  if (route.era !== "legacy") {
    if (route.refuse || !route.request) await server.close();
    if (route.refuse) return read(jsonResponse(route.refuse.status, route.refuse.answer));
    // A notification: nothing to answer, and nothing in this revision for the server to do.
    if (!route.request) return read(new Response(null, { status: 202 }));
    const { status, answer } = await answerModern(server, route.message, { signal: request.signal, requestInfo: { headers: Object.fromEntries(request.headers) } });
    return read(jsonResponse(status, answer));
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await read(await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody }));
  } finally {
    await transport.close();
    await server.close();
  }
}
