// One HTTP request answered by an MCP server of its own, with no MCP session: JSON answers,
// the transport and the server closed once the answer is read. The endpoint of any runtime
// (answerMcp) and a Node server's worker threads answer each request this way.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

/**
 * `request` (a fetch Request) answered by `server`: what `read(response)` makes of the
 * answer. `parsedBody`, when given, is its body as already parsed (its own body unread).
 */
export async function answerAlone(server, request, read, parsedBody) {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await read(await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody }));
  } finally {
    await transport.close();
    await server.close();
  }
}
