// Native commands: grep, rg, ls, find, tree and du answered in Rust print what the real
// GNU tools and ripgrep print over a copy of the same files, byte for byte, over a seeded
// battery of random flag sets × patterns × operands × working directories, on pages chunked
// by lines and cut at arbitrary offsets; what chromafs hands to just-bash prints what
// just-bash prints over an in-memory copy. fs.stats() says which commands were answered
// natively, and most are.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { InMemoryFs, MountableFs } from "just-bash";
import { chromaUrl, reference, referenceFs, rng, run, newBash, sameOutput as compare, show } from "../helpers.mjs";

const WORDS = [
  "token", "Token", "TOKEN", "tokens", "api_key", "api-key", "foo", "bar", "foobar", "foo.bar", "x+y", "[x]", "(a)",
  "café", "naïve", "日本語", "😀", "a", "aa", "aaa", "path/to/file", "$HOME", "^caret", "back\\slash", "tab\there",
  "line\r", "mint", "Mint", "dev", "v1.2.3", "2024-01-31", "#", "--", "ÉTÉ", "été", "ß", "x", "end.",
];

/** A small tree of pages whose lines mix the words above, with empty lines and odd bytes. */
function corpus(seed) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const files = [];
  // node_modules, .git and venv: directories rg skips unless told otherwise.
  const dirs = ["", "guide/", "guide/deep/", "api/", "api/v2/", ".hidden/", "zh/", "guide/.dot/", "Upper/", "api/v2/x-y.z/", "node_modules/", "guide/.git/", "venv/"];
  for (let i = 0; i < 36; i++) {
    const dir = pick(dirs);
    const ext = pick([".md", ".md", ".mdx", ".txt", ".json"]);
    const name = `${dir}${pick(["", "", ".", "-"])}${pick(["page", "intro", "notes", "ref"])}${i}${ext}`;
    const lines = [];
    const n = Math.floor(r() * 24);
    for (let l = 0; l < n; l++) {
      const k = Math.floor(r() * 7);
      lines.push(Array.from({ length: k }, () => pick(WORDS)).join(pick([" ", " ", "  ", ", ", ""])));
    }
    let text = lines.join("\n");
    if (r() < 0.8) text += "\n";
    if (r() < 0.1) text += "\n";
    files.push({ path: name, content: Buffer.from(text), mtime: 1700000000000 + i * 1000 });
  }
  files.push({ path: "kelvin.md", content: Buffer.from("\u212Aelvin and the long \u017F\nplain k and s\n"), mtime: 1700000000000 });
  files.push({ path: "empty.md", content: Buffer.from(""), mtime: 1700000000000 });
  // NUL bytes: a binary file to rg (skipped unless -a) and to grep ("Binary file … matches").
  files.push({ path: "guide/blob.md", content: Buffer.from("token\0foo bar\nmint\n"), mtime: 1700000000000 });
  files.push({ path: "secret/plan.md", content: Buffer.from("token of the admins\n"), mtime: 1700000000000 });
  return files;
}

const PATTERNS = {
  basic: ["token", "Token", "foo.bar", "foo\\.bar", "^foo", "bar$", "a\\{2\\}", "\\(foo\\|bar\\)", "[[:digit:]]\\+", "api[_-]key",
    "x+y", "\\<mint", "t.k", "é", "日本", "\\bdev\\b", "[^a-z ]", "ß", "k", "\\s\\s", "back\\\\slash", "", "^$", "[x]", "\\[x\\]", "a*"],
  extended: ["tok(en)?s?", "foo|bar", "^(foo|bar)", "v[0-9]+\\.[0-9]+", "[0-9]{4}-[0-9]{2}", "a{2,3}", "(a)", "\\(a\\)", "x\\+y",
    "\\w+_key", "\\W#", "\\s", "mint|Mint", "[[:upper:]]{3,}", ".*?bar", "caf.", "😀", "\\$HOME", "e\\.$", "(", "[", "a**", "x*", "^"],
  fixed: ["token", "foo.bar", "$HOME", "[x]", "(a)", "x+y", "back\\slash", "--", "ÉTÉ", "K", "tab\there", "😀", ""],
};

const FLAGS = ["-n", "-i", "-v", "-c", "-l", "-L", "-h", "-o", "-w", "-x", "-q", "-m 2", "-m1", "-A 1", "-B2", "-C 1", "-s", "--include=*.md",
  "--exclude=*.txt", "--include='*.json'", "--exclude-dir=deep", "--max-count=1"];

function battery(count, seed, files) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const somePaths = () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(["/", ...files.map((f) => `/${f.path}`), "/nope.md", "/guide"]));
  const out = [];
  for (let i = 0; i < count; i++) {
    const mode = pick(["basic", "basic", "extended", "extended", "fixed"]);
    const flags = [];
    for (let k = Math.floor(r() * 4); k > 0; k--) flags.push(pick(FLAGS));
    const recursive = r() < 0.75;
    if (recursive) flags.unshift(pick(["-r", "-R", "--recursive"]));
    const name = mode === "extended" && r() < 0.3 ? "egrep" : mode === "fixed" && r() < 0.3 ? "fgrep" : "grep";
    if (name === "grep" && mode !== "basic") flags.push(mode === "extended" ? "-E" : "-F");
    const pattern = r() < 0.1 ? `${pick(PATTERNS[mode])}\n${pick(PATTERNS[mode])}` : pick(PATTERNS[mode]);
    // A pattern that starts with `-` is given with -e: as an operand it would be read as
    // an option (`--` ends them, and the next word, an absolute path in the real tools'
    // copy, would be the pattern).
    const operand = (p) => (p.startsWith("-") ? `-e ${quote(p)}` : quote(p));
    const patternArgs = r() < 0.2 ? `-e ${quote(pick(PATTERNS[mode]))} -e ${quote(pattern)}` : r() < 0.2 ? `-e ${quote(pattern)}` : operand(pattern);
    const operands = recursive ? pick([["/"], ["/"], ["/guide"], ["."], ["guide/"], ["/api", "/zh"], somePaths()]) : somePaths();
    const cwd = pick(["", "", "", "cd /guide && ", "cd /api && "]);
    out.push(`${cwd}${name} ${flags.join(" ")} ${patternArgs} ${operands.join(" ")}`.replace(/\s+/g, " "));
  }
  return out;
}

const RG_PATTERNS = ["token", "Token", "tok(en)?s?", "foo|bar", "^(foo|bar)", "v[0-9]+\\.[0-9]+", "\\d{4}-\\d{2}", "\\btoken\\b", "\\w+_key",
  "(?i)token", "\\Qx+y\\E", "[[:upper:]]{3,}", "caf.", "é", "x+y", "\\$HOME", "a{2,3}", "mint", "MINT", "", "^$", "(", "k", "\\s\\s", "[x]"];
const RG_FLAGS = ["-n", "-N", "-i", "-s", "-S", "-F", "-w", "-x", "-v", "-c", "--count-matches", "-l", "--files-without-match", "-o", "-q",
  "-m 2", "-m1", "-A 1", "-B2", "-C 1", "-H", "-I", "--heading", "--hidden", "--no-ignore", "-u", "-l -0", "-g '*.md'", "-g '!*.txt'",
  "-g 'guide/**'", "-g '[ip]*'", "--iglob '*.MD'", "-t md", "-T json", "-tjson", "-t txt", "-d 1", "--max-depth=2", "--sort none",
  "--sort=path", "-a", "--column", "-b", "-r X", "--json", "-t rust", "--glob-case-insensitive -g '*.MD'", "-g '!/guide/**'",
  "-g '/api/**'", "-t markdown", "-T markdown"];

function rgBattery(count, seed, files) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const file = () => pick([...files.map((f) => `/${f.path}`), "/nope.md"]);
  const out = [];
  while (out.length < count) {
    const flags = [];
    for (let k = Math.floor(r() * 4); k > 0; k--) flags.push(pick(RG_FLAGS));
    const pattern = r() < 0.15 ? `-e ${quote(pick(RG_PATTERNS))} -e ${quote(pick(RG_PATTERNS))}` : r() < 0.15 ? `-e ${quote(pick(RG_PATTERNS))}` : quote(pick(RG_PATTERNS));
    const operands = pick([[], ["/"], ["/"], ["."], ["guide"], ["guide/"], ["/guide"], ["./guide"], ["/api", "/zh"], [file()], [file(), file()], ["/guide", file()]]);
    const cwd = pick(["", "", "cd /guide && ", "cd /api && "]);
    // just-bash's rg -o on an empty match throws from whichever file its parallel reads
    // finish first: the message depends on timing, not on the files.
    if (flags.includes("-o") && /(^| )''( |$)/.test(pattern)) continue;
    out.push(`${cwd}rg ${flags.join(" ")} ${pattern} ${operands.join(" ")}`.replace(/\s+/g, " "));
  }
  return out;
}

function listings(count, seed, files) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const some = (a, max) => Array.from({ length: Math.floor(r() * (max + 1)) }, () => pick(a));
  const paths = ["/", ".", "/guide", "guide", "guide/", "/guide/deep", "/api/v2", "/nope", "/.hidden", "..", "/Upper", ...files.slice(0, 6).map((f) => `/${f.path}`)];
  const out = [];
  for (let i = 0; i < count; i++) {
    const cwd = pick(["", "", "cd /guide && ", "cd /api && "]);
    // `..` of the root is the root here, and the copy's parent for the real tools: it is
    // named only below the root.
    // tree -f names `/` as `/`, and the copy's root (typed `R/`) as `R`: not compared.
    const line = (s) => {
      const t = cwd ? s : s.replace(/ \.\.(?= |$)/g, " /");
      out.push(/tree [^/.]*-[a-z]*f/.test(t) ? t.replace(/ \/(?= |$)/g, " /guide") : t);
    };
    if (r() < 0.15) {
      const flags = some(["-a", "-h", "-s", "-c", "-sh", "-ach", "--max-depth=1", "--max-depth 0", "--max-depth=x", "-k", "--", "--all"], 3);
      line(`${cwd}du ${flags.join(" ")} ${some(paths, 2).join(" ")}`);
    } else if (r() < 0.2) {
      const flags = some(["-a", "-d", "-f", "-L 1", "-L 2", "-L 0", "-ad", "-x", "--noreport"], 2);
      line(`${cwd}tree ${flags.join(" ")} ${some(paths.slice(0, 10), 2).join(" ")}`);
    } else if (r() < 0.5) {
      const flags = some(["-a", "-A", "-R", "-r", "-1", "-d", "-h", "-t", "-l", "-S", "-F", "--all", "--recursive", "-Ra", "-rA", "-x"], 3);
      const operands = some(paths, 3);
      // Columns are as wide as the names printed, and a file operand is printed as typed:
      // with the copy's directory in it for the real tools. Such lines list one a line.
      const columns = operands.some((p) => files.some((f) => p === `/${f.path}`)) ? flags.filter((f) => f !== "-x") : flags;
      line(`${cwd}ls ${columns.join(" ")} ${operands.join(" ")}`);
    } else {
      const tests = ["-name '*.md'", "-name 'page*'", "-name '*'", "-iname '*.MD'", "-iname 'INTRO*'", "-type f", "-type d", "-maxdepth 1",
        "-maxdepth 0", "-mindepth 2", "! -name '*.txt'", "-not -type d", "-path '*/deep/*'", "-path 'guide/*'", "-path './guide*'",
        "-ipath '*API*'", "-path '*.json'", "-name '[ab]*'", "-empty", "-size +1k", "-name \"'*.md'\""];
      const expr = [];
      for (let k = Math.floor(r() * 4); k > 0; k--) {
        if (expr.length && r() < 0.2) expr.push(pick(["-o", "-a", "-and", "-or"]));
        expr.push(pick(tests));
      }
      if (r() < 0.15) expr.push("-print");
      line(`${cwd}find ${some(paths.slice(0, 10), 2).join(" ")} ${expr.join(" ")}`);
    }
  }
  return out;
}

describe("native grep", () => {
  const files = corpus(7);
  const visible = files.filter((f) => !f.path.startsWith("secret/"));
  const access = { "secret/**": { isPublic: false, groups: ["admin"] } };
  let ref;
  after(() => ref?.remove());
  before(async () => {
    ref = await reference(visible);
    await ingest({ url: chromaUrl(), collection: "native-lines", files, access });
    await ingest({ url: chromaUrl(), collection: "native-cut", files, access, chunkBytes: 40 });
  });

  /**
   * Runs `cmds` through chromafs and the reference, byte for byte, and checks that more
   * than `share` of them were answered in Rust (the rest are reported with their reasons).
   */
  async function runBattery(t, collection, cmds, share, options = {}) {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection, ...options });
    const ours = newBash(fs, { customCommands: fs.commands() });
    let native = 0;
    const delegated = new Map();
    ref.gnu?.prepare(cmds);
    for (const cmd of cmds) {
      await compare(ours, ref, cmd, fs);
      const c = fs.stats().commands.at(-1);
      if (c.native) native++;
      else delegated.set(c.delegated, (delegated.get(c.delegated) ?? 0) + 1);
    }
    const why = [...delegated].map(([k, v]) => `${v}× ${k}`).join("; ");
    t.diagnostic(`answered natively: ${native} of ${cmds.length}; in just-bash: ${why}`);
    assert.ok(native > cmds.length * share, `only ${native} of ${cmds.length} answered natively (${why})`);
  }

  for (const [collection, seed, count] of [["native-lines", 101, 1600], ["native-cut", 202, 1000]]) {
    test(`${count} generated commands on ${collection} print exactly what the real tools print`, (t) =>
      runBattery(t, collection, battery(count, seed, visible), 0.6, { cacheBytes: 4096 }));
  }

  for (const [collection, seed, count] of [["native-lines", 505, 900], ["native-cut", 606, 400]]) {
    test(`${count} generated rg commands on ${collection} print exactly what the real tools print`, (t) =>
      runBattery(t, collection, rgBattery(count, seed, visible), 0.4, { cacheBytes: 4096 }));
  }

  test("generated searches piped into head print exactly what the real tools print, stopping early when they can", async (t) => {
    const r = rng(808);
    const pick = (a) => a[Math.floor(r() * a.length)];
    // Only lines that are one search piped into head can stop early; `cd … &&` lines run whole.
    const searches = [...battery(300, 809, visible), ...rgBattery(200, 810, visible)].filter((c) => !c.startsWith("cd "));
    const cmds = searches.map((c) => `${c} | ${pick(["head", "head -1", "head -n 2", "head -3", "head -n5", "head --lines=4", "head -n 0"])}`);
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "native-lines", cacheBytes: 4096 });
    const ours = newBash(fs, { customCommands: fs.commands() });
    let early = 0;
    ref.gnu?.prepare(cmds);
    for (const cmd of cmds) {
      await compare(ours, ref, cmd, fs);
      if (fs.stats().commands.at(-1)?.note?.startsWith("its output goes to `head`")) early++;
    }
    t.diagnostic(`${early} of ${cmds.length} read their pages in order to stop early`);
    assert.ok(early > cmds.length / 4, `only ${early} of ${cmds.length} stopped early`);
  });

  test("a common word piped into head loads the pages head shows, not every page that matches", async () => {
    const pages = Array.from({ length: 900 }, (_, i) => ({ path: `p/${String(i).padStart(4, "0")}.md`, content: Buffer.from(`page ${i}\nthe token here\n`), mtime: 1700000000000 }));
    await ingest({ url: chromaUrl(), collection: "native-common", files: pages });
    const theirs = await reference(pages);
    const cost = async (cmd) => {
      const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "native-common", processCacheBytes: 0 });
      const before = fs.stats();
      await compare(newBash(fs, { customCommands: fs.commands() }), theirs, cmd, fs);
      const after = fs.stats();
      return { requests: after.requests - before.requests, pages: after.cachedPages };
    };
    const whole = await cost("grep -rn token /");
    const head = await cost("grep -rn token / | head -5");
    assert.equal(whole.pages, 900);
    assert.ok(head.pages < 100 && head.requests < whole.requests, `with head: ${JSON.stringify(head)}, whole: ${JSON.stringify(whole)}`);
    const rg = await cost("rg -l token p | head -n 3");
    assert.ok(rg.pages < 100, JSON.stringify(rg));
    // Status and stderr as the real tools have them, whatever stops early and whatever cannot.
    for (const cmd of ["grep -rc page / | head -1", "grep -rL token / | head -2", "grep -rl zzz / | head", "rg --files-without-match token | head -1",
      "grep -rn 'the token' / | head -n 0", "grep -n \"token here\" /p/0001.md /p/0002.md /nope.md | head -n 1", "grep -rn token /nope / | head -2",
      "rg -c page /p | head -3", "grep -rn token / |head -2", "grep -rn token / | head -2 | wc -l", "grep -rn token / | head -2; echo $?"]) {
      await cost(cmd);
    }
    theirs.remove();
  });

  test("generated ls, find, tree and du commands print exactly what the real tools print", (t) =>
    runBattery(t, "native-lines", listings(1200, 404, visible), 0.5));

  test("answers are the same with native commands off, and say so", async () => {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "native-lines", nativeCommands: false });
    const ours = newBash(fs, { customCommands: fs.commands() });
    for (const cmd of battery(60, 303, visible)) assert.equal(await compare(ours, ref, cmd, fs), "just-bash", cmd);
    assert.ok(fs.stats().commands.every((c) => !c.native));
  });

  test("bracket expressions read as GNU grep, ripgrep and find read them, their errors included", async () => {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "native-lines" });
    const ours = newBash(fs, { customCommands: fs.commands() });
    const grep = ["grep -rn '[[=a=]][[.-.]]' /", "grep -rnE '[^-a-z ]{3}' /api", "grep -rn '[]x[]' /", "grep -rn '[:space:]' /",
      "grep -rnE '[a-z-0]' /", "grep -rn '[[.ab.]]' /", "grep -rn '[[:alpha:]' /", "grep -c '[&~]' /guide/*.md", "grep -rn '[[:digit:]-]' /"];
    for (const cmd of grep) {
      await compare(ours, ref, cmd, fs);
      assert.ok(fs.stats().commands.at(-1).native, `${cmd} is answered here`);
    }
    for (const cmd of ["grep -rn '[[:punct:]][[:alpha:]]' /guide", "grep -rn 'x[' /", "rg -n '[!a]k' /", "rg -n '[a-z-0]{3}' /guide", "rg -c '[^\\d\\s]é' /", "find / -regex '.*[[:digit:]]\\.mdx?'",
      "find / -name '[[:alpha:]'", "find / -name '[!a-o]*[0-9].md'", "find / -regex '.*/[a-z-0]*'"]) {
      await compare(ours, ref, cmd, fs);
    }
  });

  test("a page whose case folding only RE2 knows goes to just-bash", async () => {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "native-lines" });
    const ours = newBash(fs, { customCommands: fs.commands() });
    await compare(ours, ref, "grep -rin k /kelvin.md /empty.md", fs);
    const last = fs.stats().commands.at(-1);
    assert.equal(last.native, false);
    assert.match(last.delegated, /case folding/);
    await compare(ours, ref, "grep -rn k /kelvin.md", fs);
    assert.equal(fs.stats().commands.at(-1).native, true, "without -i the page is answered here");
  });

  test("hidden pages are neither searched nor named", async () => {
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "native-lines" });
    const ours = newBash(fs, { customCommands: fs.commands() });
    for (const cmd of ["grep -r admins /", "grep -rc admins / | grep secret", "grep admins /secret/plan.md", "grep -rL zzz /"]) {
      const r = await run(ours, cmd);
      assert.ok(!`${r.stdout}${r.stderr}`.includes("admins") && !r.stdout.includes("secret"), `${cmd}: ${show(r)}`);
      await compare(ours, ref, cmd, fs);
    }
  });

  test("a host's MountableFs around the docs: searches run in just-bash and see every mount", async () => {
    const docs = await ChromaFs.connect({ url: chromaUrl(), collection: "native-lines" });
    const ours = newBash(new MountableFs({ base: docs, mounts: [{ mountPoint: "/tmp", filesystem: new InMemoryFs() }] }), { customCommands: docs.commands() });
    const theirs = newBash(new MountableFs({ base: await referenceFs(visible), mounts: [{ mountPoint: "/tmp", filesystem: new InMemoryFs() }] }));
    for (const cmd of ["echo token > /tmp/t.md && grep -rl token / | grep -n tmp", "echo api_key > /tmp/k.md && grep -rc api_key / | grep tmp"]) {
      const [a, b] = [await run(ours, cmd), await run(theirs, cmd)];
      assert.deepEqual([a.stdout, a.stderr, a.exitCode], [b.stdout, b.stderr, b.exitCode], cmd);
      assert.match(a.stdout, /\/tmp\//);
    }
    assert.equal(docs.stats().commands.at(-1).delegated, "the command reads another filesystem");
  });
});
