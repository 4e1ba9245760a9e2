// Access control: hidden pages behave exactly like paths that never existed, cost no
// request, never reach a query, and records for them are dropped even if Chroma sends them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { assertWithinQuotas, chromaUrl, cloudChroma, newBash } from "../helpers.mjs";
import { startProxy, chroma, collectionId } from "../../../support/proxy.mjs";

// These tests watch what each session asks Chroma: pages shared by the sessions of this process would
// answer in Chroma's place (the process tier is tested in process-tier.test.mjs).
ChromaFs.setProcessCacheBytes(0);

const COLLECTION = "rbac";
const SECRET = "the launch code is 0000";
const files = [
  { path: "index.md", content: "# Public\naccess is granted\n" },
  { path: "guides/setup.md", content: "setup steps\n" },
  { path: "internal/secret.md", content: `${SECRET}\n` },
  { path: "internal/billing/plans.md", content: "billing plans, access restricted\n" },
  { path: "drafts/unlisted.md", content: "draft with no isPublic field\n" },
  { path: "team/notes.md", content: "team notes for admins\n" },
];
// Written by hand: the ingest always sets isPublic, and these entries test what happens when it is missing.
const TREE = {
  "index.md": { isPublic: true, groups: [], size: 27 },
  "guides/setup.md": { isPublic: true },
  "internal/secret.md": { isPublic: false, groups: ["admin"] },
  "internal/billing/plans.md": { isPublic: false, groups: ["billing", "admin"] },
  "drafts/unlisted.md": { groups: [] },
  "team/notes.md": { groups: ["admin"] },
};
let proxy, cloud;

before(async () => {
  await ingest({ url: chromaUrl(), collection: COLLECTION, files });
  const id = await collectionId(chromaUrl(), COLLECTION);
  await chroma(chromaUrl(), "POST", `/collections/${id}/upsert`, {
    ids: ["__path_tree__"],
    embeddings: [new Array(32).fill(0)],
    documents: [JSON.stringify(TREE)],
    metadatas: [{ chromafs: "path-tree" }],
  });
  // Faults are injected in front of a Chroma that enforces Chroma Cloud's quotas.
  cloud = await cloudChroma();
  proxy = await startProxy(cloud.url);
});
after(() => Promise.all([proxy.close(), cloud.close()]));

const connect = (groups) => ChromaFs.connect({ url: proxy.url, collection: COLLECTION, groups });

// Each shell-level test runs with chromafs's commands (searches and listings answered in
// Rust) and with just-bash's own.
for (const native of [true, false]) {
  const mode = native ? "fs.commands()" : "just-bash's commands";
  const shell = (fs) => newBash(fs, native ? { customCommands: fs.commands() } : {});

  test(`${mode}: each group set sees exactly its pages`, async () => {
    const list = async (groups) => (await shell(await connect(groups)).exec("find / -type f | sort")).stdout;
    assert.equal(await list([]), "/guides/setup.md\n/index.md\n");
    assert.equal(await list(["billing"]), "/guides/setup.md\n/index.md\n/internal/billing/plans.md\n");
    assert.equal(
      await list(["admin"]),
      "/guides/setup.md\n/index.md\n/internal/billing/plans.md\n/internal/secret.md\n/team/notes.md\n",
    );
    // No isPublic and no groups: nobody, whatever their groups.
    assert.ok(!(await list(["admin", "billing", ""])).includes("drafts"));
  });
  
  test(`${mode}: a hidden path answers exactly as a path that never existed`, async () => {
    const bash = shell(await connect(["billing"]));
    const pairs = [
      ["/internal/secret.md", "/internal/absent.md"],
      ["/team", "/nothing"],
      ["/team/notes.md", "/nothing/notes.md"],
      ["/drafts/unlisted.md", "/nothing/unlisted.md"],
    ];
    const templates = [
      "cat P",
      "ls P",
      "ls -la P",
      "stat P",
      "head -n 1 P",
      "wc -c P",
      "cd P",
      "find P",
      "tree P",
      "grep -r launch P",
      "grep launch P",
      "test -e P && echo yes || echo no",
      "readlink P",
      "realpath P",
      "du P",
    ];
    for (const [hidden, absent] of pairs) {
      for (const t of templates) {
        const h = await bash.exec(t.replaceAll("P", hidden));
        const a = await bash.exec(t.replaceAll("P", absent));
        const norm = (r) => JSON.stringify([r.stdout, r.stderr, r.exitCode]).replaceAll(hidden, "P").replaceAll(absent, "P");
        assert.equal(norm(h), norm(a), `${t} with ${hidden}`);
      }
    }
    const r = await bash.exec("grep -r launch / ; ls -R / ; find /");
    assert.ok(!r.stdout.includes("secret") && !r.stdout.includes(SECRET) && !r.stdout.includes("team"));
  });
}

test("filesystem methods: hidden is ENOENT, with the same message as absent", async () => {
  const fs = await connect([]);
  assert.equal(await fs.exists("/internal/secret.md"), false);
  assert.equal(await fs.exists("/internal"), false);
  for (const [method, args] of [
    ["stat", []],
    ["lstat", []],
    ["readFile", []],
    ["readFileBuffer", []],
    ["readdir", []],
    ["realpath", []],
    ["readlink", []],
  ]) {
    for (const p of ["/internal/secret.md", "/internal"]) {
      const absent = p.replace("internal", "absent");
      const [eh, ea] = [await fs[method](p, ...args).catch((e) => e), await fs[method](absent, ...args).catch((e) => e)];
      assert.ok(eh instanceof Error, `${method} ${p}`);
      assert.equal(eh.code, "ENOENT");
      assert.equal(eh.message, ea.message.replace(absent, p), `${method} ${p}`);
    }
  }
  assert.ok(!fs.getAllPaths().some((p) => p.startsWith("/internal") || p.startsWith("/team") || p.startsWith("/drafts")));
});

for (const native of [true, false]) {
  const mode = native ? "fs.commands()" : "just-bash's commands";
  const shell = (fs) => newBash(fs, native ? { customCommands: fs.commands() } : {});

  test(`${mode}: hidden paths cost no request and no query ever names them`, async () => {
    const fs = await connect(["billing"]);
    const bash = shell(fs);
    const before = fs.stats().requests;
    await bash.exec("cat /internal/secret.md; ls /team; stat /drafts/unlisted.md; grep -r x /internal/secret.md");
    assert.equal(fs.stats().requests, before);
    proxy.reset();
    const r = await bash.exec("grep -r access /");
    // GNU grep spells the paths below the root operand `/a`; just-bash's grep, `//a`.
    const root = native ? "/" : "//";
    assert.equal(r.stdout, `${root}index.md:access is granted\n${root}internal/billing/plans.md:billing plans, access restricted\n`);
    assert.ok(proxy.state.requests.length > 0);
    for (const req of proxy.state.requests) {
      for (const slug of ["internal/secret.md", "team/notes.md", "drafts/unlisted.md"]) assert.ok(!req.body.includes(slug), req.body);
    }
  });
}

test("records of another slug are dropped even when Chroma returns them", async () => {
  ChromaFs.forgetTrees();
  const fs = await connect([]);
  let injected = 0;
  proxy.state.transform = (reqBody, json) => {
    if (!reqBody.includes('"where"') || !Array.isArray(json.ids)) return json;
    injected++;
    // A misbehaving server (or a bug) slips a hidden page's chunk into the answer.
    json.ids.push("internal/secret.md#0");
    json.documents?.push(SECRET);
    json.metadatas?.push({ page_slug: "internal/secret.md", chunk_index: 1 });
    return json;
  };
  try {
    assert.equal(await fs.readFile("/guides/setup.md"), "setup steps\n");
    assert.ok(injected > 0, "the hidden page's record was sent");
  } finally {
    proxy.state.transform = null;
  }
});

test("every request stayed within Chroma Cloud's quotas", () => assertWithinQuotas(cloud));
