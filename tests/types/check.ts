// ESM consumer view of the package (the workspace package.json is "type": "module").
import { Bash, type CustomCommand, type IFileSystem, type BashExecResult } from "just-bash";
import {
  ChromaFs,
  annotate,
  ingest,
  openAiEmbedder,
  safeExec,
  bashErrorLine,
  type ChromaFsInfo,
  type ChromaFsStats,
  type ConnectOptions,
  type IngestSummary,
  type SearchHit,
  type MountedFs,
  type VersionLease,
} from "chromafs";

// The same name must be this package's declarations, not the wasm-bindgen glue's `any`s.
type IsAny<T> = 0 extends 1 & T ? true : false;
const notAny: IsAny<ChromaFs["stats"]> = false;

export async function main(): Promise<void> {
  const options: ConnectOptions = {
    url: "http://127.0.0.1:8000",
    collection: "docs",
    tenant: "default_tenant",
    database: "default_database",
    token: "ck-123",
    headers: { "x-trace": "1" },
    groups: ["eng"],
    slugField: "page_slug",
    chunkIndexField: "chunk_index",
    treeId: "__path_tree__",
    extension: ".mdx",
    cacheBytes: 64 << 20,
    timeoutMs: 10_000,
    maxConcurrency: 10,
    retries: 3,
    treeMaxAgeMs: 60_000,
    lazyFiles: {
      "/remote.md": "https://example.com/remote.md",
      "/text.md": () => "text",
      "/bytes.bin": async () => new Uint8Array([1, 2]),
    },
    fetch,
  };
  const fs = await ChromaFs.connect(options);

  // (b) ChromaFs is a just-bash IFileSystem, optional methods included.
  const asFs: IFileSystem = fs;
  const bytes: Promise<import("just-bash").ByteString> | undefined = asFs.readFileBytes?.("/a.md");
  void bytes;
  const text: string = await fs.readFileBytes("/a.md");
  void text;

  // (c) Bash accepts the filesystem and its commands.
  const commands: CustomCommand[] = fs.commands();
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  void commands;

  const result = await safeExec(bash, "grep -rn token /", { cwd: "/" });
  const asExec: BashExecResult = result;
  const { stdout, stderr, exitCode } = result;
  void asExec, stdout, stderr, exitCode;
  const line: string = bashErrorLine(new Error("EROFS: read-only file system, write '/a.md'"));
  void line;

  const st = await fs.stat("/a.md");
  const mtime: Date = st.mtime;
  const names: string[] = (await fs.readdirWithFileTypes("/")).map((d) => d.name);
  const stats: ChromaFsStats = fs.stats();
  const hits: number = stats.cacheHits;
  const cached: boolean = stats.treeFromCache;
  const info: ChromaFsInfo = fs.info();
  const version: string = info.treeVersion;
  void mtime, names, hits, cached, version;
  const found: SearchHit[] = await fs.search("rotate keys", { k: 5, path: "guides", cwd: "/" });
  const firstLine: number | null = found[0].startLine;
  void firstLine;
  const v1: ChromaFs = await fs.ofVersion("v1");
  const held: VersionLease<ChromaFs> = await fs.leaseVersion("v1");
  held.release();
  const mine: string[] | undefined = v1.versions().mountVersions;
  void mine;
  const other: SearchHit[] | undefined = (await fs.search("rotate keys", { version: "v1" })).otherVersions;
  void other?.[0].version;
  // @ts-expect-error the other versions' pages are hits
  const wrong: string[] | undefined = (await fs.search("rotate keys", { version: "v1" })).otherVersions;
  void wrong;
  await ChromaFs.connect({ url: "u", collection: "docs", embed: async (t) => t.map(() => [0, 1]) });
  // An embedding service, and what the collection records.
  const service = openAiEmbedder({ url: "http://127.0.0.1:8000/v1", model: "text-embedding-3-small", apiKeyEnv: "MY_KEY", dimensions: 512, concurrency: 8 });
  const origin: string = service.origin;
  const vectors: Float32Array[] = await service.embedQuery(["q"]);
  void origin, vectors;
  await ChromaFs.connect({ url: "u", collection: "docs", embed: service });
  await ingest({ url: "u", collection: "c", files: [], embed: service });
  const recorded = (await ChromaFs.connect({ url: "u", collection: "docs", collectionEmbedding: { allowOrigins: ["http://vllm:8000"], keyEnv: ["K"] } })).info().collectionEmbedding;
  const used: boolean | undefined = recorded?.used;
  const model: string | null | undefined = recorded?.model;
  void used, model;
  await ChromaFs.connect({ url: "u", collection: "docs", collectionEmbedding: false });
  // @ts-expect-error a model is required
  openAiEmbedder({ url: "http://x" });
  ChromaFs.forgetTrees();
  fs.free();

  const summary: IngestSummary = await ingest({
    url: "http://127.0.0.1:8000",
    collection: "docs",
    files: [
      { path: "index.md", content: "# Hi\n" },
      { path: "img/a.md", content: new Uint8Array([104, 105]), mtime: Date.now() },
    ],
    access: { "internal/**": { isPublic: false, groups: ["admin"] } },
    chunkBytes: 4096,
    embed: (texts) => texts.map(() => [0, 1]),
    plainTree: true,
    defaultAccess: "private",
  });
  await ingest({ url: "u", collection: "c", files: [], access: '{"internal/**": {"groups": ["admin"]}}', embed: async (t) => t.map(() => [1]) });
  const restricted: number = summary.restrictedPages;
  const perRule: number = summary.rules[0].pages;
  void restricted, perRule;
  await ChromaFs.connect({ url: "u", collection: "docs", lazyOrigins: ["https://cdn.example.com"], treeMaxAgeMs: 5000 });
  const annotated: number = (await annotate({ url: "u", collection: "c", token: "t" })).updated;
  void annotated;
  // @ts-expect-error defaultAccess is "public" or "private"
  await ingest({ url: "u", collection: "c", files: [], defaultAccess: "hidden" });

  // (d) Misuse that must stay a type error.
  // @ts-expect-error collection is required
  await ChromaFs.connect({ url: "http://127.0.0.1:8000" });
  // @ts-expect-error url is required
  await ChromaFs.connect({ collection: "docs" });
  // @ts-expect-error groups is a string array
  await ChromaFs.connect({ url: "u", collection: "docs", groups: "eng" });
  // @ts-expect-error unknown options are caught
  await ChromaFs.connect({ url: "u", collection: "docs", colection: "typo" });
  // @ts-expect-error lazy files are URLs or functions
  await ChromaFs.connect({ url: "u", collection: "docs", lazyFiles: { "/a.md": 42 } });
  // @ts-expect-error cacheBytes is a number
  await ChromaFs.connect({ url: "u", collection: "docs", cacheBytes: "64MiB" });
  // @ts-expect-error sessions come from connect
  new ChromaFs();
  // @ts-expect-error stats are numbers
  const wrong: string = fs.stats().requests;
  // @ts-expect-error files need content
  await ingest({ url: "u", collection: "c", files: [{ path: "a.md" }] });
  // @ts-expect-error embeddings are number vectors
  await ingest({ url: "u", collection: "c", files: [], embed: (t: string[]) => t });
  // @ts-expect-error k is a number
  await fs.search("q", { k: "5" });
  // @ts-expect-error exec options are checked against the Bash instance's
  await safeExec(bash, "ls", { cwd: 1 });
  // @ts-expect-error not a filesystem
  const notFs: IFileSystem = { readFile: fs.readFile };
  void wrong, notFs;
}
void notAny;

// @ts-expect-error the ESM entries have no default export
import chromafsDefault from "chromafs";
void chromafsDefault;

import { redisCache, workersCache, toolDescription, bashToolSandbox, type SharedContentCache } from "chromafs";

export async function sharedCaches(bash: Bash): Promise<void> {
  const redisLike = { get: async (_k: string) => null as string | null, set: async (_k: string, _v: string, ..._o: unknown[]) => "OK" };
  const cache: SharedContentCache = redisCache(redisLike, { prefix: "docs:", ttlSeconds: 60 });
  const cacheApi = { match: async (_r: string) => undefined, put: async (_r: string, _s: unknown) => {} };
  await ChromaFs.connect({ url: "http://127.0.0.1:8000", collection: "docs", sharedCache: cache });
  await ChromaFs.connect({ url: "http://127.0.0.1:8000", collection: "docs", sharedCache: workersCache(cacheApi) });
  // @ts-expect-error a shared cache needs both get and set
  await ChromaFs.connect({ url: "http://127.0.0.1:8000", collection: "docs", sharedCache: { get: async () => null } });
  const description: string = toolDescription({ docs: "the Acme docs" });
  const sandbox = bashToolSandbox(bash);
  const r: { exitCode: number } = await sandbox.executeCommand(description.length > 0 ? "ls /" : "pwd");
  void r;
}

export async function mounted(): Promise<void> {
  const fs = await ChromaFs.connectMounts({ url: "http://127.0.0.1:8000", groups: ["staff"], mounts: { "/docs": "docs", "/api": { collection: "api", extension: ".mdx" } } });
  const bash = new Bash({ fs, customCommands: fs.commands() });
  const hits = await fs.search("rotate a key", { path: "/api", k: 3 });
  const v2: MountedFs = await fs.ofVersion("v2");
  const heldMounts: MountedFs = (await fs.leaseVersion("v2")).fs;
  void v2;
  const requests: number = fs.stats().mounts["/docs"].requests + fs.stats().requests;
  void [bash, hits, requests, fs.info().mounts["/api"].readById];
  // @ts-expect-error a mount names its collection
  await ChromaFs.connectMounts({ url: "http://127.0.0.1:8000", mounts: { "/docs": { extension: ".md" } } });
  fs.free();
}
