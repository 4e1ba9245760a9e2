// Every option of `grep --help` and the ripgrep options agents type, each with a few
// patterns and operands (`/`, `.`, a directory, a single file, a missing path, standard
// input), run through chromafs and through the real GNU grep and ripgrep 15 over a copy
// of the same visible files (support/gnu-reference.mjs): the same stdout and exit status.
// gnu.test.mjs crosses the common options with every operand; this battery enumerates the
// rarer ones, so that an option whose answer is not the real tool's shows up by name.
// Lines still answered differently are described in STILL_DIFFERENT, with why: the test
// fails when a line none of them describes differs, or when one describes no line that
// differs any more (take it off the list).
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { ChromaFs, ingest } from "chromafs";
import { chromaUrl, newBash, run } from "../helpers.mjs";
import { generatedCorpus } from "../../../support/generated-corpus.mjs";
import { gnuToolsMissing, layCopy, runReference } from "../../../support/gnu-reference.mjs";

const missing = gnuToolsMissing();

/** The battery, as lines over the root `R` (see support/gnu-reference.mjs). */
function battery({ dir, file }) {
  const lines = [];
  const grep = (opts, pattern, ...operands) =>
    operands.forEach((op) => lines.push((R) => `grep ${opts} ${pattern} ${op(R)}`.replace(/\s+$/, "")));
  const root = (R) => `${R}/`;
  const dot = () => ".";
  const d = (R) => `${R}/${dir}`;
  const f = (R) => `${R}/${file}`;
  const gone = (R) => `${R}/nope.md ${R}/${dir}`;
  const rd = (R) => `-r ${R}/${dir}`;
  // grep: output shape
  for (const o of ["-T", "-Tn", "-Tb", "-Tnb", "-T -c", "-T -o", "-T -C1 -n", "--initial-tab -H"]) grep(`-r ${o}`, "Mintlify", d, f);
  grep("-T", "mint", f);
  for (const o of ["-b", "-ob", "-b -C1", "-bn", "-u", "-ub", "--unix-byte-offsets -b"]) grep(o, "mint", f, rd);
  for (const o of ["-z", "-zc", "-zl", "-zo", "-zn", "-z -v -c", "-zx", "--null-data -i"]) grep(`-r ${o}`, "'mint[a-z]*'", d, f, gone);
  grep("-z", "'^## '", f);
  grep("-zZ -l", "mint", rd);
  // grep: pattern sources
  lines.push((R) => `printf 'mint\\nnpm\\n' | grep -rn -f - ${R}/${dir}`);
  lines.push((R) => `printf 'mint\\n' | grep -c -f - -e npm ${R}/${file}`);
  lines.push((R) => `printf 'API\\n' | grep -f - -f - -c ${R}/${file}`);
  lines.push((R) => `printf '' | grep -f - ${R}/${file}`);
  lines.push((R) => `printf '' | grep -v -c -f - ${R}/${file}`);
  lines.push((R) => `printf '\\n' | grep -c -f - ${R}/${file}`);
  lines.push((R) => `grep -c -f /dev/null ${R}/${file}`);
  lines.push((R) => `grep -cxF -f ${R}/${file} ${R}/${file}`);
  lines.push((R) => `grep -rl -F -f ${R}/${file} ${R}/${dir}`);
  lines.push((R) => `grep -f ${R}/nope.md ${R}/${file}`);
  lines.push((R) => `grep -r -f ${R}/${dir} ${R}/${file}`);
  lines.push((R) => `printf 'mint\\n' | grep -f - -`);
  // grep: names and files
  lines.push((R) => `cat ${R}/${file} | grep -H --label=page.md mint`);
  lines.push((R) => `cat ${R}/${file} | grep -c --label page.md mint - ${R}/${file}`);
  lines.push((R) => `cat ${R}/${file} | grep -l --label=x mint`);
  for (const o of ["--line-buffered", "-U", "--binary", "-D read", "-D skip", "--devices=skip", "-d skip", "-d read", "-d recurse",
    "--directories=recurse", "--no-ignore-case", "-i --no-ignore-case", "--no-ignore-case -i", "--exclude-from=/dev/null",
    "-y", "--colour=never", "--color", "-s -d read"]) grep(`${o} -c`, "Mintlify", f, d, root);
  lines.push((R) => `grep -r --exclude-from=${R}/${file} -l mint ${R}/${dir}`);
  lines.push((R) => `grep -r --exclude-from=${R}/nope.md -l mint ${R}/${dir}`);
  for (const bad of ["-d bogus", "-D bogus", "--binary-files=x", "--color=sometimes", "--context=x", "-m x", "--nope", "-j"]) {
    grep(bad, "mint", f);
  }
  // rg: file lists
  for (const o of ["--files", "--files --sort path", "--files -g '*.json'", "--files -g '!*.mdx'", "--files -t json", "--files -T md",
    "--files --hidden", "--files -uu", "--files --max-depth 1", "--files -0", "--files --no-ignore"]) {
    for (const op of [root, dot, d, f, gone, () => ""]) lines.push((R) => `rg ${o} ${op(R)}`.trimEnd());
  }
  lines.push(() => "rg --type-list");
  // rg: the options agents type, each over a few operands
  const rg = (o, p, ...ops) => ops.forEach((op) => lines.push((R) => `rg ${o} ${p} ${op(R)}`.trimEnd()));
  for (const o of ["--files-with-matches", "--column", "--column -n", "--column -o", "--column -C1", "--vimgrep", "-T md", "--type-not json",
    "--sort path", "--sort=path", "-u", "-uu", "--hidden", "--no-ignore", "--max-depth 1", "--max-depth=2", "-d 1", "-L", "--follow",
    "-g '*.md' -g '!guides/**'", "--iglob '*.MDX'", "-m 2", "-A 2", "-B 2", "-C 2", "--heading -n", "--no-heading -n", "-S", "-s", "-w",
    "-x", "-v -c", "-c", "-l", "-o", "-F", "-N", "-n", "-b", "-ob", "-e mint -e npm", "-i -c", "--no-filename", "-H", "--count-matches"]) {
    rg(o, "Mintlify", root, d, f, gone);
  }
  lines.push((R) => `printf 'mint\\nnpm\\n' | rg -c -f - ${R}/${dir}`);
  lines.push((R) => `rg -c -F -f ${R}/${file} ${R}/${file}`);
  lines.push((R) => `rg --json mint ${R}/${file}`);
  return lines;
}

/** Lines known to print something else than the real tool, and why (see the docs' list). */
const STILL_DIFFERENT = [
  [/^grep .*(-[a-zA-Z]*z|--null-data)/, "grep -z is left to just-bash"],
  [/^grep .*--exclude-from/, "grep --exclude-from is left to just-bash"],
  [/\| rg .*-f -|^rg .* -f /, "rg -f is left to just-bash"],
  [/^rg --json/, "rg --json prints elapsed times"],
];
const known = (cmd) => STILL_DIFFERENT.some(([re]) => re.test(cmd));

describe("every grep option and the rg options agents type, as the real tools answer them", { skip: missing ?? false }, () => {
  let files;
  let fs;
  let bash;
  before(async () => {
    files = await generatedCorpus();
    await ingest({ url: chromaUrl(), collection: "gnu-options", files });
    fs = await ChromaFs.connect({ url: chromaUrl(), collection: "gnu-options" });
    bash = newBash(fs, { customCommands: fs.commands() });
  });

  test("the same stdout and exit status, answered in Rust", async (t) => {
    const dir = "guides";
    const file = files.find((x) => x.path.startsWith(`${dir}/`) && x.content.length > 200).path;
    const lines = battery({ dir, file });
    const copy = layCopy(files);
    try {
      const expected = runReference(copy, lines);
      const differ = [];
      const delegated = [];
      for (const [i, line] of lines.entries()) {
        const cmd = line("");
        const got = await run(bash, cmd);
        const want = expected[i];
        const last = fs.stats().commands.at(-1);
        if (last && !last.native && last.delegated && /^(e|f)?grep |^rg /.test(cmd.replace(/^.*\| /, ""))) delegated.push(`${cmd}  <- ${last.delegated}`);
        if (got.stdout !== want.stdout || got.exitCode !== want.exitCode) {
          differ.push(cmd);
          if (!known(cmd) && process.env.CHROMAFS_GNU_FAILURES) {
            const show = (r) => JSON.stringify({ stdout: r.stdout.slice(0, 300), stderr: r.stderr.slice(0, 200), exitCode: r.exitCode });
            t.diagnostic(`${cmd}\n  chromafs  ${show(got)}\n  reference ${show(want)}`);
          }
        }
      }
      t.diagnostic(`${lines.length - differ.length} of ${lines.length} lines print the same stdout and exit status; ${delegated.length} delegated`);
      if (process.env.CHROMAFS_GNU_FAILURES) delegated.forEach((d) => t.diagnostic(`delegated: ${d}`));
      assert.deepEqual(differ.filter((c) => !known(c)), [], "lines that differ from the real tool");
      const stale = STILL_DIFFERENT.filter(([re]) => !differ.some((c) => re.test(c))).map(([, why]) => why);
      assert.deepEqual(stale, [], "no line differs for these any more: take them off STILL_DIFFERENT");
      assert.ok(lines.length >= 380, `only ${lines.length} command lines`);
    } finally {
      copy.remove();
    }
  });
});
