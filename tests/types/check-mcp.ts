// Consumer view of chromafs/mcp: the server over a session, the fetch-style handler an edge
// function uses, and Node's servers.
import { ChromaFs } from "chromafs";
import { MAX_OUTPUT, answerMcp, createMcpServer, serveHttp, serveStdio, tokenAuthorizer } from "chromafs/mcp";

export async function edge(request: Request, fs: ChromaFs): Promise<Response> {
  const groups: string[] | null = await tokenAuthorizer({ secret: ["staff"] })(request);
  void groups;
  const server = createMcpServer(fs, { toolPrefix: "docs_", docs: "the Acme docs" });
  return answerMcp(request, server);
}

export async function node(): Promise<void> {
  const lazy = createMcpServer(() => ChromaFs.connect({ url: "http://127.0.0.1:8000", collection: "docs" }));
  void lazy;
  await serveStdio({ url: "http://127.0.0.1:8000", collection: "docs", groups: ["staff"] }, { name: "acme" });
  const http = await serveHttp(
    { url: "http://127.0.0.1:8000", collection: "docs" },
    { port: 0, authorize: tokenAuthorizer({ t: [] }), requireToken: true },
  );
  const url: string = http.url;
  void url;
  await http.close();
  const cap: 30000 = MAX_OUTPUT;
  void cap;
}
