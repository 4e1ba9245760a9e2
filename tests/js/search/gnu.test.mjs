// The commands chromafs answers itself print what the real tools print: GNU grep 3.8,
// ripgrep 15 (output not a terminal), GNU ls (coreutils 9) and tree 2.x, run by GNU bash
// over a copy of the same visible files (support/gnu-reference.mjs), for a public and a
// privileged session, on the generated corpus and on ../shared/corpus when present. A
// battery of options × patterns × operands (`/`, `.`, a directory, a single file, a
// missing path, a hidden path, stdin) must give the same stdout and exit status; no
// hidden path appears anywhere. Named regression tests pin the differences from
// just-bash that agents meet most.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChromaFs, ingest } from "chromafs";
import { serveHttp, tokenAuthorizer, MAX_OUTPUT } from "chromafs/mcp";
import { ROOT, chromaUrl, chromafsCli, corpora, newBash, run } from "../helpers.mjs";
import { generatedCorpus } from "../../../support/generated-corpus.mjs";
import { gnuToolsMissing, layCopy, runReference } from "../../../support/gnu-reference.mjs";

const missing = gnuToolsMissing();
// Pages only some sessions see: a whole section, and one page nobody's groups reach.
const isHidden = (groups) => (p) => (p.startsWith("es/") && !groups.includes("es")) || p === "changelog.mdx";
const ACCESS = { "es/**": { isPublic: false, groups: ["es"] }, "changelog.mdx": { isPublic: false } };
const SESSIONS = [["public", []], ["privileged", ["es"]]];

const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A path as output names it: `p`, `/p` or `./p`, not the tail of a longer name. */
const named = (p) => new RegExp(`(^|[^\\w./-])(\\.?/)?${escaped(p)}(?![\\w.-])`, "m");
const q = (s) => `'${s.replaceAll("'", "'\\''")}'`;

/** What a corpus offers the battery: a directory, a file in it, words it holds. */
function shapeOf(files) {
  const has = (p) => files.some((f) => f.path === p);
  const dir = has("guides/page-1.mdx") ? "guides" : files.find((f) => f.path.includes("/")).path.split("/")[0];
  const file = files.find((f) => f.path.startsWith(`${dir}/`) && f.content.length > 200).path;
  return { dir, file, hidden: "es/index.mdx", nested: files.find((f) => f.path.split("/").length > 2).path.split("/").slice(0, 2).join("/") };
}

const GREP_OPTIONS = ["", "-n", "-i", "-c", "-l", "-L", "-h", "-H", "-o", "-w", "-x", "-v", "-m1", "-m 2", "-A1", "-B 1", "-C1", "-q", "-s",
  "-I", "--color=never", "--color=auto", "--include '*.md'", "--include='*.json'", "--exclude '*.mdx'", "--exclude-dir=es", "-E", "-F",
  "--binary-files=without-match", "-b", "-in", "-c -v", "-l -i", "-no", "-m0", "-Hn", "--no-messages"];
const GREP_PATTERNS = [["-e Mintlify", "Mintlify"], ["deprecated"], ["-e mint -e npm"], ["-E", "'v[0-9]+\\.[0-9]+'"], ["'colou\\?r'"],
  ["-F", "'$ref'"], ["-w", "mint"], ["zzz-nowhere"], ["'^## '"], ["-e access_token -e API"], ["-P", "'Mint(?=lify)'"],
  ["-P", "'(?<=the )\\w+(?! docs)'"]];
const RG_OPTIONS = ["", "-n", "-i", "-S", "-s", "-c", "-l", "-w", "-o", "-F", "-N", "-H", "-m1", "-m 1 -n", "-C1", "-A1 -n", "-B1",
  "--no-heading", "--heading", "-g '*.md'", "-g '!*.json'", "-t md", "-v -c", "-x", "-q", "-e mint -e Mint", "-ni", "--count-matches", "-l -i"];
const RG_PATTERNS = ["mint", "Mintlify", "mintlify", "deprecated", "API", "'v\\d+\\.\\d+'", "zzz-nowhere"];

/** The battery: each line is a function of the root (see support/gnu-reference.mjs). */
function battery(shape) {
  const { dir, file, hidden, nested } = shape;
  const operands = [(R) => `${R}/`, () => ".", (R) => `${R}/${dir}`, (R) => `${R}/${file}`, (R) => `${R}/nope.md ${R}/${dir}`,
    (R) => `${R}/${hidden}`, (R) => `${R}/${nested} ${R}/${file}`];
  const lines = [];
  GREP_OPTIONS.forEach((opt, i) => {
    for (let k = 0; k < 9; k++) {
      const pattern = GREP_PATTERNS[(i + k) % GREP_PATTERNS.length].join(" ");
      const operand = operands[(i * 3 + k) % operands.length];
      const r = k % 3 === 2 ? "" : "-r ";
      lines.push((R) => `grep ${r}${opt} ${pattern} ${operand(R)}`);
    }
    lines.push((R) => `cat ${R}/${file} | grep ${opt} ${GREP_PATTERNS[i % GREP_PATTERNS.length].join(" ")} -`);
    lines.push((R) => `cd ${R}/${dir} && grep -r ${opt} mint`);
  });
  for (const name of ["egrep", "fgrep"]) lines.push((R) => `${name} -rn 'mint|npm' ${R}/${dir}`, (R) => `${name} -c API ${R}/${file}`);
  RG_OPTIONS.forEach((opt, i) => {
    for (let k = 0; k < 5; k++) {
      const operand = [(R) => `${R}/`, () => ".", (R) => `${R}/${dir}`, (R) => `${R}/${file}`, () => "", (R) => `${R}/nope.md ${R}/${dir}`][(i + k) % 6];
      lines.push((R) => `rg ${opt} ${RG_PATTERNS[(i * 2 + k) % RG_PATTERNS.length]} ${operand(R)}`);
    }
  });
  for (const opt of ["", "-a", "-A", "-p", "-F", "-r", "-1", "-R", "-d", "-ap", "-Rp", "-rA"]) {
    lines.push((R) => `ls ${opt} ${R}/`, (R) => `ls ${opt} ${R}/${dir}`, (R) => `ls ${opt} ${R}/${file} ${R}/${dir} ${R}/${nested}`);
  }
  // (`ls -d DIR/*/` is a glob just-bash's shell expands to files too: the shell's, not ls's.)
  lines.push((R) => `ls -d ${R}/${dir}/ ${R}/${nested}/ ${R}/${file}`, (R) => `ls ${R}/nope ${R}/${file}`, (R) => `ls ${R}/${hidden}`, (R) => `cd ${R}/${dir} && ls`, () => "ls");
  for (const opt of ["", "-a", "-d", "-f", "-L 1", "-L 2", "--noreport", "-da", "-fL 1"]) {
    lines.push((R) => `tree ${opt} ${R}/${nested}`, (R) => `tree ${opt} ${R}/${dir}`, (R) => `cd ${R}/${dir} && tree ${opt}`);
  }
  lines.push((R) => `tree ${R}/${file} ${R}/nope`, (R) => `tree ${R}/${hidden}`);
  return lines;
}

describe("answers as the GNU tools and ripgrep give them", { skip: missing ?? false }, () => {
  for (const corpus of corpora(test, "the GNU battery")) {
    describe(`on the ${corpus.name} corpus`, () => {
      let files;
      const collection = `gnu-${corpus.name}`;
      before(async () => {
        files = await corpus.load();
        await ingest({ url: chromaUrl(), collection, files, access: ACCESS });
      });

      for (const [who, groups] of SESSIONS) {
        test(`the battery prints the same stdout and exit status for a ${who} session`, async (t) => {
          const visible = files.filter((f) => !isHidden(groups)(f.path));
          const copy = layCopy(visible);
          try {
            const lines = battery(shapeOf(files));
            const expected = runReference(copy, lines);
            const fs = await ChromaFs.connect({ url: chromaUrl(), collection, groups });
            const bash = newBash(fs, { customCommands: fs.commands() });
            const failures = [];
            let sameStderr = 0;
            const hiddenPaths = files.filter((f) => isHidden(groups)(f.path)).map((f) => f.path);
            for (const [i, line] of lines.entries()) {
              const cmd = line("");
              const got = await run(bash, cmd);
              const want = expected[i];
              if (got.stdout !== want.stdout || got.exitCode !== want.exitCode) {
                failures.push(`${cmd}\n  chromafs  ${JSON.stringify({ stdout: got.stdout.slice(0, 300), stderr: got.stderr.slice(0, 200), exitCode: got.exitCode })}\n  reference ${JSON.stringify({ stdout: want.stdout.slice(0, 300), stderr: want.stderr.slice(0, 200), exitCode: want.exitCode })}`);
              }
              if (got.stderr === want.stderr) sameStderr++;
              const shown = got.stdout + got.stderr;
              // A hidden path named where the real tools, which never see it, name none (a
              // visible page's text, or an operand typed, may name it for both).
              const leak = hiddenPaths.find((p) => named(p).test(shown) && !named(p).test(want.stdout + want.stderr));
              assert.ok(!leak, `${cmd}: shows the hidden path ${leak}`);
            }
            // CHROMAFS_GNU_FAILURES=FILE appends every differing line there, to work through them.
            if (process.env.CHROMAFS_GNU_FAILURES) appendFileSync(process.env.CHROMAFS_GNU_FAILURES, failures.map((f) => `[${corpus.name} ${who}] ${f}\n`).join(""));
            t.diagnostic(`${lines.length - failures.length} of ${lines.length} command lines print the same stdout and exit status; stderr identical for ${sameStderr}`);
            assert.ok(lines.length >= 400, `only ${lines.length} command lines`);
            assert.deepEqual(failures.slice(0, 8), [], `${failures.length} of ${lines.length} differ`);
          } finally {
            copy.remove();
          }
        });
      }
    });
  }
});

/** What the MCP bash tool shows for a result (limits.mjs's `shown`). */
const shownByMcp = (r) => r.stdout + r.stderr + (r.exitCode ? `[exit code ${r.exitCode}]` : "") || "(no output)";

describe("the battery on every surface", { skip: missing ?? false }, () => {
  // A public session on the generated corpus, with the scratch /tmp the CLI and the MCP
  // server give: the library with scratch (against the real tools over a copy with an empty
  // /tmp), the CLI's `exec` (every seventh line, a process each), and the MCP server's bash
  // tool over stdio and over HTTP (each call's text against the library's for the line,
  // which the real tools were compared with).
  const collection = "gnu-surfaces";
  let files, lines, expected, copy, library;
  before(async () => {
    files = await generatedCorpus();
    await ingest({ url: chromaUrl(), collection, files, access: ACCESS });
    const visible = files.filter((f) => !isHidden([])(f.path));
    copy = layCopy(visible, ["tmp"]);
    lines = battery(shapeOf(files));
    expected = runReference(copy, lines);
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection, scratch: "/tmp" });
    const bash = newBash(fs, { customCommands: fs.commands() });
    library = [];
    for (const line of lines) library.push(await run(bash, line("")));
  });
  after(() => copy?.remove());

  const differing = (got, at) =>
    at.flatMap((i) =>
      got(i).stdout !== expected[i].stdout || got(i).exitCode !== expected[i].exitCode
        ? [`${lines[i]("")}\n  got       ${JSON.stringify({ ...got(i), stdout: got(i).stdout.slice(0, 200), stderr: got(i).stderr?.slice(0, 200) })}\n  reference ${JSON.stringify({ ...expected[i], stdout: expected[i].stdout.slice(0, 200), stderr: expected[i].stderr.slice(0, 200) })}`]
        : [],
    );

  test("the library with a scratch directory", () => {
    const failures = differing((i) => library[i], lines.map((_, i) => i));
    assert.deepEqual(failures.slice(0, 8), [], `${failures.length} of ${lines.length} differ`);
  });

  test("the CLI's exec", async () => {
    const at = lines.map((_, i) => i).filter((i) => i % 7 === 0);
    const ran = new Map();
    for (const i of at) {
      const r = await chromafsCli("exec", lines[i](""), "--url", chromaUrl(), "--collection", collection);
      ran.set(i, { stdout: r.stdout, exitCode: r.status });
    }
    const failures = differing((i) => ran.get(i), at);
    assert.deepEqual(failures.slice(0, 8), [], `${failures.length} of ${at.length} differ`);
  });

  async function overMcp(transport) {
    const client = new Client({ name: "gnu-surfaces", version: "1" });
    await client.connect(transport);
    const failures = [];
    let compared = 0;
    try {
      for (const [i, line] of lines.entries()) {
        // Output past the tool's cap is cut (mcp-limits.test.mjs); the rest is compared whole.
        const want = shownByMcp(library[i]);
        if (want.length > MAX_OUTPUT) continue;
        compared++;
        // Each line from `/`, as the library ran it: the server keeps a caller's directory.
        const r = await client.callTool({ name: "bash", arguments: { command: `cd /\n${line("")}` } });
        const text = r.content.map((c) => c.text).join("");
        if (text !== want) failures.push(`${line("")}\n  got  ${JSON.stringify(text.slice(0, 300))}\n  want ${JSON.stringify(want.slice(0, 300))}`);
      }
    } finally {
      await client.close();
    }
    assert.ok(compared >= 400, `only ${compared} of ${lines.length} lines under the output cap`);
    assert.deepEqual(failures.slice(0, 8), [], `${failures.length} of ${compared} differ`);
  }

  test("the MCP server over stdio", () =>
    overMcp(new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, "pkg/bin/chromafs.mjs"), "mcp", "--url", chromaUrl(), "--collection", collection], stderr: "pipe" })));

  test("the MCP server over HTTP", async () => {
    const token = "gnu-surfaces-token-01234";
    const server = await serveHttp({ url: chromaUrl(), collection }, { authorize: tokenAuthorizer({ [token]: [] }) });
    try {
      await overMcp(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    } finally {
      await server.close();
    }
  });
});

describe("regression: what just-bash answered differently", { skip: missing ?? false }, () => {
  const files = [
    { path: "docs/a.md", content: Buffer.from("alpha\nbeta\nx\nx\nx\nalpha again\n") },
    { path: "docs/sub/b.md", content: Buffer.from("beta only\n") },
    { path: "docs/.dot.md", content: Buffer.from("alpha hidden by name only\n") },
    { path: "Case.md", content: Buffer.from("import x\nImport y\n") },
    // Names whose columns a simple table of wide characters counts wrong, and names quoting lengthens.
    ...["🚀launch.md", "✅done.md", "⌚watch.md", "🀄tile.md", "ｱｲｳ.md", "plain-name-here.md", "a.md", "a b", "abc", "abcd"].map((name) => ({ path: `wide/${name}`, content: Buffer.from("w\n") })),
  ];
  let bash;
  let copy;
  before(async () => {
    await ingest({ url: chromaUrl(), collection: "gnu-regressions", files });
    const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "gnu-regressions" });
    bash = newBash(fs, { customCommands: fs.commands() });
    copy = layCopy(files);
  });
  after(() => copy?.remove());

  const cases = {
    "several -e patterns are one OR, none dropped": (R) => `grep -rn -e alpha -e beta ${R}/docs`,
    "rg is case-sensitive by default": (R) => `rg -c import ${R}/Case.md`,
    "rg ignores case with -S only for a lowercase pattern": (R) => `rg -S import ${R}/Case.md`,
    "rg prints no line numbers without -n": (R) => `rg alpha ${R}/docs`,
    "a single file operand with -r prints no file name": (R) => `grep -rn alpha ${R}/docs/a.md`,
    "operand / prints /a, not //a": (R) => `grep -r beta ${R}/`,
    "operand . prints ./a": (R) => `cd ${R}/docs && grep -r beta .`,
    "context groups are separated by --": (R) => `grep -n -A1 alpha ${R}/docs/a.md`,
    "a missing operand exits 2": (R) => `grep alpha ${R}/missing`,
    "-I, -s and --color=never are options": (R) => `grep -rIs --color=never alpha ${R}/docs ${R}/missing`,
    "--include GLOB as two words": (R) => `grep -r --include '*.md' beta ${R}/docs`,
    "--binary-files=without-match": (R) => `grep -r --binary-files=without-match beta ${R}/docs`,
    "ls -p marks directories": (R) => `ls -p ${R}/docs`,
    "ls with several operands": (R) => `ls ${R}/docs/a.md ${R}/Case.md ${R}/docs/sub`,
    "ls -d DIR/ lists the directory as typed": (R) => `ls -d ${R}/docs/sub/ ${R}/docs/a.md`,
    "tree draws boxes and counts the directory itself": (R) => `tree ${R}/docs`,
    "grep -r walks dotfiles": (R) => `grep -rl alpha ${R}/docs`,
    "grep -T aligns numbers to the file's size and tabs the text": (R) => `grep -Tnb alpha ${R}/docs/a.md`,
    "grep -f - takes its patterns from standard input": (R) => `printf 'beta\\nx\\n' | grep -rc -f - ${R}/docs`,
    "grep -f FILE, several of them": (R) => `grep -rn -f ${R}/docs/sub/b.md -f ${R}/Case.md ${R}/docs`,
    "rg --files lists what its walk would search": (R) => `rg --files ${R}/docs ${R}/missing`,
    "rg --column prints the first match's column": (R) => `rg --column alpha ${R}/docs/a.md`,
    "rg --vimgrep prints a line per match": (R) => `rg --vimgrep -C1 a ${R}/docs`,
    "ls: a file named with a trailing slash is not a directory": (R) => `ls ${R}/docs/a.md/ ${R}/docs/sub; ls -d ${R}/docs/a.md/; ls -l ${R}/docs/a.md//`,
    "du: a file named with a trailing slash is not a directory": (R) => `du ${R}/docs/a.md/ ${R}/docs/sub`,
    "find: a file named with a trailing slash is not a directory": (R) => `find ${R}/docs/a.md/ ${R}/docs/sub/`,
    "grep: a file named with a trailing slash is not a directory": (R) => `grep -c alpha ${R}/docs/a.md/ ${R}/docs/a.md; grep -r beta ${R}/docs/a.md/.`,
    "rg: a file named with a trailing slash is not a directory": (R) => `rg -c alpha ${R}/docs/a.md/ ${R}/docs/a.md`,
    "tree: a file named with a trailing slash is not a directory": (R) => `tree ${R}/docs/a.md/`,
    "ls lays out and sorts names by the columns glibc gives their characters": (R) => `ls -m -w 30 ${R}/wide; ls --sort=width ${R}/wide; ls -C -w 40 ${R}/wide`,
    "ls --sort=width measures a name as it is quoted": (R) => `ls --sort=width -b ${R}/wide; ls --sort=width -Q ${R}/wide`,
    "ls pads the names a shell quoting style leaves unquoted when it quotes one": (R) =>
      `ls --quoting-style=shell -C ${R}/wide; ls --sort=width --quoting-style=shell-escape -x ${R}/wide; ls -go --time-style=+ --quoting-style=shell ${R}/wide; ls -C --quoting-style=c-maybe ${R}/wide; ls --quoting-style=shell -C -w 0 ${R}/wide; ls --quoting-style=shell -m ${R}/wide ${R}/wide/abc`,
    "grep -P: lookahead and lookbehind": (R) => `grep -rnP 'alpha(?= again)' ${R}/docs; grep -rhP '(?<!al)pha' ${R}/docs`,
    "grep -P: \\K keeps what follows out of -o's match": (R) => `grep -ohP 'alpha \\K\\w+' ${R}/docs/a.md`,
    "grep -P: backreferences": (R) => `grep -cP '(x)\\n?\\1' ${R}/docs/a.md; grep -rlP '([a-z])\\1' ${R}/docs ${R}/Case.md`,
    "grep -P: -w, -x and -i around a lookaround": (R) => `grep -wP 'be(?=ta)\\w+' ${R}/docs/sub/b.md; grep -xcP 'x(?!y)' ${R}/docs/a.md; grep -iP '(?<=^)import' ${R}/Case.md`,
    "grep -P: PCRE's words for a pattern it rejects": (R) => `grep -P 'a(?=b' ${R}/docs/a.md; grep -P 'a(?<=b+)' ${R}/docs/a.md; grep -P '(a)\\2' ${R}/docs/a.md; echo $?`,
    "grep -P: -o steps over empty matches": (R) => `grep -onP '(?=alpha)|beta' ${R}/docs/a.md`,
    "grep -P: from standard input": (R) => `printf 'k=1\\nk=22\\n' | grep -oP 'k=\\K\\d+'; cat ${R}/docs/a.md | grep -cP '(?<=^al)pha' -`,
  };
  // Lines whose standard error is compared too.
  const inWords = new Set(["grep -P: PCRE's words for a pattern it rejects"]);
  for (const [name, line] of Object.entries(cases)) {
    test(name, async () => {
      const [want] = runReference(copy, [line]);
      const got = await run(bash, line(""));
      const shown = (r) => ({ stdout: r.stdout, exitCode: r.exitCode, ...(inWords.has(name) ? { stderr: r.stderr } : {}) });
      assert.deepEqual(shown(got), shown(want), line(""));
    });
  }
});
