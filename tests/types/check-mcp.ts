// Consumer view of chromafs/mcp: the server over a session, the fetch-style handler an edge
// function uses, and Node's servers.
import { ChromaFs } from "chromafs";
import {
  MAX_OUTPUT,
  admit,
  answerMcp,
  createMcpServer,
  jwtAuthorizer,
  metadataUrl,
  pageUrl,
  mountedSites,
  protectedResourceMetadata,
  serveHttp,
  serveStdio,
  tokenAuthorizer,
} from "chromafs/mcp";
import type { CallOutcome, SearchResult } from "chromafs/mcp";

export async function edge(request: Request, fs: ChromaFs): Promise<Response> {
  const found = await tokenAuthorizer({ secret: ["staff"] })(request);
  const groups: string[] | null = found && found.groups;
  const caller: string | null = found && found.caller;
  void groups;
  void caller;
  const server = createMcpServer(fs, { toolPrefix: "docs_", docs: "the Acme docs" });
  return answerMcp(request, server);
}

export async function node(): Promise<void> {
  const lazy = createMcpServer(() => ChromaFs.connect({ url: "http://127.0.0.1:8000", collection: "docs" }));
  void lazy;
  await serveStdio({ url: "http://127.0.0.1:8000", collection: "docs", groups: ["staff"] }, { name: "acme" });
  const http = await serveHttp(
    { url: "http://127.0.0.1:8000", collection: "docs" },
    { port: 0, authorize: tokenAuthorizer({ t: [] }), requireToken: true, workers: 2, limits: { memoryMiB: 256 } },
  );
  const url: string = http.url;
  const moved: number | undefined = http.stats()?.moved;
  void url;
  void moved;
  const own = await serveHttp(
    { url: "http://127.0.0.1:8000", collection: "docs" },
    { authorize: async () => ({ groups: ["staff"], caller: "user 7" }), workers: 0 },
  );
  await own.close();
  await http.close();
  const cap: 30000 = MAX_OUTPUT;
  void cap;
}

export async function signedIn(request: Request, fs: ChromaFs): Promise<Response> {
  const authorize = jwtAuthorizer({ issuer: "https://login.example.com", audience: "https://docs.example.com/mcp", groupsClaim: "roles" });
  await authorize.ready();
  const admitted = await admit(request, { authorize, requireToken: true, resource: "https://docs.example.com/mcp" });
  if (admitted.status !== undefined) return new Response(admitted.message, { status: admitted.status, headers: admitted.headers });
  const groups: string[] = admitted.groups;
  const who: { key: string; anonymous: boolean } = admitted.caller;
  void groups;
  void who;
  const meta = protectedResourceMetadata({ resource: "https://docs.example.com/mcp", issuer: authorize.issuer });
  const where: string = metadataUrl(meta.resource) + (pageUrl("https://docs.example.com/", "/index.mdx") ?? "");
  const site: string | null = mountedSites({ "/docs": "https://docs.example.com" })("/docs/index.mdx");
  void site;
  void where;
  const http = await serveHttp(
    { url: "http://127.0.0.1:8000", collection: "docs" },
    { oauth: { issuer: "https://login.example.com" }, publicUrl: "https://docs.example.com", baseUrl: "https://docs.example.com" },
  );
  const resource: string | null = http.resource;
  void resource;
  return answerMcp(request, createMcpServer(fs, { baseUrl: "https://docs.example.com" }));
}

// The `search` tool's structured result has the fields of its outputSchema, and no others
// (tests/js/serve/mcp-tools.test.mjs lists the schema's).
export const searchResultFields: Record<keyof SearchResult, true> = { path: true, title: true, startLine: true, endLine: true, score: true, snippet: true, url: true, version: true };
export const searchResult: SearchResult = { path: "/a.md", title: null, startLine: 1, endLine: 3, score: 0.5, snippet: null, url: null };
// A search of one version that found nothing names other versions' pages beside its empty results.
export const otherVersions: CallOutcome["structured"] = { results: [], otherVersions: [{ ...searchResult, version: "v2" }] };
