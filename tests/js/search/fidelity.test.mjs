// Fidelity: every command's stdout, stderr and exit code through chromafs equal the
// reference's over a copy of the same visible files, for two sets of groups, with chromafs's
// commands (`fs.commands()`: searches and listings answered in Rust, compared with the real
// GNU tools and ripgrep) and with just-bash's own (compared with just-bash over an
// in-memory copy); no hidden path or hidden text appears anywhere.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { assertWithinQuotas, cloudChroma, corpora, reference, run, newBash, sameOutput } from "../helpers.mjs";

// Spanish pages need group "es", the API reference needs "admin", the changelog is private to everyone.
const ACCESS = {
  "es/**": { isPublic: false, groups: ["es"] },
  "api/**": { isPublic: false, groups: ["admin"] },
  "changelog.mdx": { isPublic: false },
};
const visibleTo = (groups) => (p) =>
  p.startsWith("es/") ? groups.includes("es") : p.startsWith("api/") ? groups.includes("admin") : p !== "changelog.mdx";

const BATTERY = [
  "ls /",
  "ls -la /",
  "ls -l /guides",
  "ls -a /api-playground",
  "ls -R /agent",
  "ls -1 /es",
  "ls -la /quickstart.mdx /index.mdx",
  "ls /nope",
  "ls /es/nope /guides",
  "ls -lh /zh/guides",
  "ls -d /guides /cli",
  "cd /guides && ls",
  "cd /nope",
  "cd /api && ls -l",
  "cd /es && pwd && ls ..",
  "find / -type f | wc -l",
  "find / -type d | sort",
  "find / -name '*.json'",
  "find /es -maxdepth 1",
  "find / -maxdepth 1 -type f",
  "find / -path '*api*' -name 'index.mdx'",
  "find /zh -type f -name '*.mdx' | head -20",
  "find /cli -newer /index.mdx",
  "find / -empty",
  "find /api -type f",
  "tree /agent",
  "tree /api-playground",
  "tree /es/cli",
  "cat /quickstart.mdx",
  "cat /nope.mdx",
  "cat /guides",
  "cat /es/index.mdx",
  "cat /api/introduction.mdx",
  "cat /changelog.mdx",
  "cat /openapi.json | head -c 300",
  "head -n 5 /index.mdx",
  "head -c 100 /zh/index.mdx",
  "tail -n 3 /quickstart.mdx",
  "tail -c 50 /fr/index.mdx",
  "wc /quickstart.mdx",
  "wc -l /es/*.mdx",
  "wc -c /openapi.json /docs.json",
  "wc -l /guides/*.mdx | tail -1",
  "stat /quickstart.mdx",
  "stat /guides",
  "stat /es",
  "stat /nope",
  "du -s /guides",
  "grep -r access_token /",
  "grep -rn Mintlify /guides",
  "grep -rl openapi /api-playground",
  "grep -ri deprecated /api",
  "grep -c the /quickstart.mdx",
  "grep -rn 'mint dev' /cli /quickstart.mdx",
  "grep -rw mint /cli",
  "grep -rE 'v[0-9]+\\.[0-9]+\\.[0-9]+' /es /fr",
  "grep -r --include=*.json openapi /",
  "grep -rni 'página' /es",
  "grep -rl 配置 /zh",
  "grep -n install /quickstart.mdx",
  "grep install /guides",
  "grep -rL Mintlify /agent",
  "grep -rc API /api-playground",
  "grep -rv '' /agent",
  "grep -rho 'https://[a-z.]*' /integrations | sort | uniq -c | sort -rn | head",
  "cat /quickstart.mdx | grep -n npm",
  "cat /quickstart.mdx | wc -l",
  "sort /index.mdx | uniq | head -5",
  "ls /es | head -5",
  "echo hi > /dev/null; echo rc=$?",
  "ls /nope 2>/dev/null; echo rc=$?",
  "grep -r needle-that-is-nowhere / ; echo rc=$?",
  "cat /guides/*.mdx | wc -c",
  "for f in /agent/*; do echo \"$f\"; done",
  "test -f /index.mdx && echo yes; test -d /es && echo dir; test -e /changelog.mdx || echo absent",
  "readlink /index.mdx; echo rc=$?",
  "realpath /guides/../index.mdx",
  "ls '/guides/*'",
  "md5sum /index.mdx /quickstart.mdx",
];

// Without the real corpus its tests are still registered, as skipped, so the summary counts them.
for (const corpus of corpora(test, "the fidelity battery")) describe(`fidelity against just-bash over InMemoryFs (${corpus.name} corpus)`, () => {
  const { skip } = corpus;
  const COLLECTION = `fidelity-${corpus.name}`;
  let files;
  let cloud;
  before(async () => {
    if (skip) return;
    cloud = await cloudChroma();
    files = await corpus.load();
    const summary = await ingest({ url: cloud.url, collection: COLLECTION, files, access: ACCESS });
    assert.equal(summary.pages, files.length);
  });

  // The last: the scratch /tmp the CLI, the MCP server and the demo page give (an empty /tmp
  // in the references too).
  const SETS = [[[], true], [["es", "admin"], true], [[], false], [["es", "admin"], false], [[], true, "/tmp"]];
  for (const [groups, native, scratch] of SETS) {
    describe(`groups [${groups}], ${native ? "fs.commands()" : "just-bash's commands"}${scratch ? `, scratch ${scratch}` : ""}`, () => {
      let ours, ref, hiddenPaths, hiddenLines, fs;
      after(() => ref?.remove());
      before(async () => {
        if (skip) return;
        fs = await ChromaFs.connect({ url: cloud.url, collection: COLLECTION, groups, ...(scratch ? { scratch } : {}) });
        const visible = files.filter((f) => visibleTo(groups)(f.path));
        const hidden = files.filter((f) => !visibleTo(groups)(f.path));
        assert.ok(hidden.length > 0);
        ours = newBash(fs, native ? { customCommands: fs.commands() } : {});
        ref = await reference(visible, { dirs: scratch ? [scratch.slice(1)] : [] });
        ref.gnu?.prepare(BATTERY);
        hiddenPaths = hidden.map((f) => `/${f.path}`);
        // Lines of hidden pages that no visible page contains: none may ever be printed.
        const visibleText = visible.map((f) => f.content.toString("utf8")).join("\n");
        hiddenLines = [];
        for (const f of hidden) {
          for (const line of f.content.toString("utf8").split("\n")) {
            if (line.trim().length >= 40 && !visibleText.includes(line.trim())) hiddenLines.push(line.trim());
          }
        }
        assert.ok(hiddenLines.length > 0);
      });

      for (const cmd of BATTERY) {
        test(cmd, { skip }, async () => {
          const which = await sameOutput(ours, ref, cmd, fs, { tools: native });
          const [a, b] = [await run(ours, cmd), which === "gnu" ? ref.gnu.expect(cmd) : await run(ref.bash, cmd)];
          // (The real tools' output for the whole line names what the visible files hold.)
          const out = a.stdout + a.stderr;
          for (const p of hiddenPaths) if (!(b.stdout + b.stderr).includes(p)) assert.ok(!out.includes(p), `hidden path ${p} leaked`);
          for (const line of hiddenLines) assert.ok(!out.includes(line), `hidden text leaked: ${line}`);
        });
      }

      test(native ? "searches were answered in Rust" : "every command ran in just-bash", { skip }, () => {
        const searches = fs.stats().commands.filter((c) => /^(grep|rg) /.test(c.command));
        if (!native) return assert.deepEqual(fs.stats().commands, [], "without fs.commands() chromafs plans nothing");
        assert.ok(searches.length > 0);
        assert.ok(searches.filter((c) => c.native).length >= searches.length / 2, JSON.stringify(searches.map((c) => [c.command, c.native, c.delegated])));
      });

      test("getAllPaths lists exactly the visible files and their directories", { skip }, () => {
        const visible = files.filter((f) => visibleTo(groups)(f.path)).map((f) => `/${f.path}`);
        const dirs = new Set(["/", ...(scratch ? [scratch] : [])]);
        for (const p of visible) for (let d = p.slice(0, p.lastIndexOf("/")); d; d = d.slice(0, d.lastIndexOf("/"))) dirs.add(d);
        assert.deepEqual(new Set(fs.getAllPaths()), new Set([...visible, ...dirs]));
      });
    });
  }

  test("every request stayed within Chroma Cloud's quotas", { skip }, () => {
    assertWithinQuotas(cloud);
    cloud.close();
  });
});
