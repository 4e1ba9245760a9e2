// The reference for the commands chromafs answers itself (grep, egrep, fgrep, rg, ls,
// find, tree, du): the real GNU tools and ripgrep, run by GNU bash over a copy of the same
// visible files. The copy is laid on tmpfs with each directory's entries created in
// descending byte order: tmpfs lists a directory newest first, so the tools' walks (grep's
// and find's fts, rg's walker with one thread, tree's and ls's sorted listings anyway) come
// out in ascending byte order, as chromafs's do.
//
// A command line is written either as a function of the root of the files, `(R) => …`, or
// as a string whose absolute paths (words starting with `/`, outside quotes, but not
// `/dev/…`) are taken to be below that root. The same line runs over chromafs (R = "")
// and over the copy (R = its directory); the copy's directory is then taken out of what
// the tools print. The locale is C.UTF-8: UTF-8 text, and names collated in code point
// order.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, utimesSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./files.mjs";

const RG = path.join(ROOT, ".tools/ripgrep/bin/rg");

/** Why the reference tools cannot run here, or null when they can. */
export function gnuToolsMissing() {
  if (process.platform !== "linux" || !existsSync("/dev/shm")) return "needs Linux with tmpfs at /dev/shm";
  const version = (cmd, args) => spawnSync(cmd, args, { encoding: "utf8" }).stdout ?? "";
  if (!/GNU grep\) 3\.(8|9|1\d)/.test(version("grep", ["--version"]))) return "needs GNU grep 3.8 or later";
  if (!/^tree v2\./.test(version("tree", ["--version"]))) return "needs tree 2.x (scripts/setup.sh installs it)";
  if (!/GNU coreutils\) 9\./.test(version("ls", ["--version"]))) return "needs GNU coreutils 9";
  if (!/GNU findutils\) 4\.(9|1\d)/.test(version("find", ["--version"]))) return "needs GNU findutils 4.9";
  if (!/^ripgrep 15\./.test(version(RG, ["--version"]))) return "needs ripgrep 15 in .tools/ripgrep (scripts/setup.sh)";
  return null;
}

/**
 * Output as just-bash hands it over: UTF-8 text, or, where the bytes are not UTF-8 (tree's
 * code page 437 lines), one character a byte.
 */
function asJustBashShows(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

/**
 * A command line written with absolute paths, as a function of the root: every word that
 * starts with `/` outside quotes (not `/dev/…`) is taken to be below the root.
 */
export function rooted(line) {
  if (typeof line === "function") return line;
  return (R) => {
    if (!R) return line;
    let out = "";
    let quote = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === quote) quote = null;
        else if (c === "\\" && quote === '"') out += line[i++];
        out += line[i] ?? "";
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      else if (c === "\\") {
        out += c + (line[++i] ?? "");
        continue;
      }
      const wordStart = i === 0 || /[\s;&|()<>=]/.test(line[i - 1]);
      if (c === "/" && wordStart && !line.startsWith("/dev/", i)) out += R;
      out += c;
    }
    return out;
  };
}

/**
 * A new directory on tmpfs whose path no pattern of the batteries can match: its name is
 * digits only. (mkdtemp's random letters could end in `s`, and then the real find's
 * `-wholename '*s/*'` matched the copy's own directory.)
 */
function plainDir() {
  for (let n = 0; ; n++) {
    const dir = `/dev/shm/chromafs-gnu-${process.pid}${String(Math.random()).slice(2, 10)}${n}`;
    try {
      mkdirSync(dir, { mode: 0o700 });
      return dir;
    } catch (e) {
      if (e.code !== "EEXIST" || n > 100) throw e;
    }
  }
}

/**
 * Lays `files` (`{ path, content, mtime? }`) out on tmpfs in descending creation order,
 * each file with its mtime and each directory with the newest below it (as chromafs
 * reports them), and the empty directories `dirs` (paths without a leading `/`).
 */
export function layCopy(files, dirs = []) {
  const dir = plainDir();
  const root = path.join(dir, "root");
  mkdirSync(root);
  const children = new Map([["", new Set()]]);
  const times = new Map();
  for (const f of files) {
    const parts = f.path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const parent = parts.slice(0, i).join("/");
      const me = parts.slice(0, i + 1).join("/");
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent).add(me);
      if (i < parts.length - 1 && !children.has(me)) children.set(me, new Set());
      if (f.mtime !== undefined) times.set(parent, Math.max(times.get(parent) ?? 0, f.mtime));
    }
  }
  for (const d of dirs) {
    children.get("").add(d);
    children.set(d, new Set());
  }
  const content = new Map(files.map((f) => [f.path, f]));
  const create = (rel) => {
    const kids = [...(children.get(rel) ?? [])].sort((a, b) => Buffer.compare(Buffer.from(b), Buffer.from(a)));
    for (const kid of kids) {
      const full = path.join(root, kid);
      const file = content.get(kid);
      if (file) {
        writeFileSync(full, file.content);
        if (file.mtime !== undefined) utimesSync(full, file.mtime / 1000, file.mtime / 1000);
      } else {
        mkdirSync(full);
        create(kid);
      }
    }
    // A directory's time is set once its entries are made (making them changes it).
    if (times.has(rel)) utimesSync(path.join(root, rel), times.get(rel) / 1000, times.get(rel) / 1000);
  };
  create("");
  mirrorRoot(dir, root, children.get(""), children, times.get(""));
  return { root, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The copy belongs to whoever runs the tests; a collection has no owners, and chromafs's
 * `ls -l` names just-bash's `user` (docs/concepts/native-commands.md). The reference's
 * long-format lines name this process's user and group as `user` too, so that the rest
 * of each line is compared.
 */
const HOST = (() => {
  const id = (flag) => spawnSync("id", [flag], { encoding: "utf8" }).stdout?.trim() ?? "";
  return { user: id("-un"), group: id("-gn") };
})();
const escapedName = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
function ownersAsChromafs(out) {
  if (!HOST.user) return out;
  const names = `(?:${[HOST.user, HOST.group].filter(Boolean).map(escapedName).join("|")})`;
  const line = new RegExp(`^([-d][-rwx]{9} +\\d+ )${names}( +)(?:${names}( +))?`, "gm");
  const renamed = out.replace(line, (_, head, gap1, gap2) => `${head}user${gap1}${gap2 === undefined ? "" : `user${gap2}`}`);
  // tree -u/-g: each name in the bracket before an entry, padded to eight columns.
  const padded = [...new Set([HOST.user, HOST.group].filter(Boolean))].map((n) => `${escapedName(n)}${" ".repeat(Math.max(0, 8 - n.length))}`);
  const inBracket = new RegExp(`(?<=[[ ])(?:${padded.join("|")})(?=[ \\]])`, "g");
  return renamed.replace(/^([^[\n]*)(\[[^\]\n]*\]  )/gm, (_, head, bracket) => head + bracket.replace(inBracket, "user    "));
}

/**
 * On a real system `/..` is `/`: chromafs's `ls -la /` shows the root twice. The copy's
 * root has a parent, so that parent is made to look the same to `ls -l` — as many
 * entries and subdirectories (hidden padding beside `root`), the same mode and time.
 */
function mirrorRoot(dir, root, entries, children, time) {
  const subdirs = [...entries].filter((e) => children.has(e)).length;
  for (let i = 1; i < entries.size; i++) {
    const pad = path.join(dir, `.pad-${i}`);
    if (i < subdirs) mkdirSync(pad);
    else writeFileSync(pad, "");
  }
  chmodSync(dir, 0o755);
  if (time !== undefined) utimesSync(dir, time / 1000, time / 1000);
}

/**
 * `ls --dired`'s byte offsets counted again as if `root` were not in the text before
 * them (the copy's directory is taken out of what the tools print).
 */
function diredAgain(stdout, root) {
  if (!/^\/\/DIRED-OPTIONS\/\/ /m.test(stdout)) return stdout;
  const bytes = Buffer.from(stdout);
  const rootBytes = Buffer.from(root);
  const starts = [];
  for (let at = bytes.indexOf(rootBytes); at >= 0; at = bytes.indexOf(rootBytes, at + 1)) starts.push(at);
  const moved = (offset) => offset - rootBytes.length * starts.filter((s) => s < offset).length;
  return stdout.replace(/^(\/\/(?:SUB)?DIRED\/\/)((?: \d+)+)$/gm, (_, label, nums) =>
    label + nums.replace(/\d+/g, (n) => String(moved(Number(n)))));
}

/** Whether `stdout` is what `rg --json` prints: JSON Lines that end with its summary. */
const isRgJson = (stdout) => /^\{"data":\{"elapsed_total".*"type":"summary"\}$/m.test(stdout);

/**
 * `rg --json`'s output with its `bytes_printed` counted again as printed without the
 * copy's directory, which has been taken out of its paths: the bytes of each file's
 * messages from its `begin` to its `end`, and their sum in the summary.
 */
function printedAgain(stdout) {
  if (!isRgJson(stdout)) return stdout;
  let file = 0;
  let total = 0;
  const lines = stdout.split("\n").map((line) => {
    if (line.startsWith('{"type":"end"')) {
      total += file;
      line = line.replace(/"bytes_printed":\d+/, `"bytes_printed":${file}`);
      file = 0;
    } else if (line.startsWith('{"data":{"elapsed_total"')) {
      line = line.replace(/"bytes_printed":\d+/, `"bytes_printed":${total}`);
    } else if (line) {
      file += Buffer.byteLength(line) + 1;
    }
    return line;
  });
  return lines.join("\n");
}

/**
 * A result as it can be compared with another run's: `rg --json`'s elapsed times, the one
 * part of its output that differs from run to run (ripgrep's own too), taken out.
 */
export function withoutTimes(r) {
  if (!isRgJson(r.stdout)) return r;
  return { ...r, stdout: r.stdout.replace(/"elapsed(_total)?":\{[^}]*\}/g, '"elapsed$1":{}') };
}

/**
 * Runs every line (see `rooted`) in one GNU bash over the copy, each from the copy's root
 * with no standard input: `[{ stdout, stderr, exitCode }]`, with the copy's directory
 * taken out.
 */
export function runReference(copy, lines) {
  const work = mkdtempSync("/dev/shm/chromafs-gnu-out-");
  // rg with one thread walks in directory order; with several its output order is not defined.
  // The tools' default colours: grep's change with GREP_COLORS and GREP_COLOR; `ls --color`
  // prints GNU's built-in colours (chromafs's) only with no LS_COLORS and a TERM it knows.
  const script = [
    `export LC_ALL=C.UTF-8 PATH=${path.dirname(RG)}:/usr/bin:/bin TERM=xterm`,
    "unset GREP_COLORS GREP_COLOR LS_COLORS COLORTERM",
    "rg() { command rg -j1 \"$@\"; }",
  ];
  lines.forEach((line, i) => {
    writeFileSync(path.join(work, `${i}.sh`), rooted(line)(copy.root));
    script.push(`(cd ${copy.root} && . ${work}/${i}.sh) < /dev/null > ${work}/${i}.out 2> ${work}/${i}.err; echo $? > ${work}/${i}.rc`);
  });
  writeFileSync(path.join(work, "all.sh"), script.join("\n"));
  execFileSync("bash", [path.join(work, "all.sh")], { stdio: "ignore" });
  const strip = (s) => ownersAsChromafs(s.split(copy.root).join(""));
  const out = lines.map((_, i) => ({
    stdout: printedAgain(strip(diredAgain(asJustBashShows(readFileSync(path.join(work, `${i}.out`))), copy.root))),
    stderr: strip(readFileSync(path.join(work, `${i}.err`), "utf8")),
    exitCode: Number(readFileSync(path.join(work, `${i}.rc`), "utf8")),
  }));
  rmSync(work, { recursive: true, force: true });
  return out;
}

/**
 * The GNU tools over a copy of `files`: `expect(line)` is what they print for a line
 * (string lines are remembered, and `prepare(lines)` runs many in one bash); `remove()`
 * takes the copy away.
 */
export function gnuReference(files, dirs = []) {
  const copy = layCopy(files, dirs);
  const known = new Map();
  return {
    prepare(lines) {
      const fresh = [...new Set(lines.filter((l) => typeof l !== "string" || !known.has(l)))];
      runReference(copy, fresh).forEach((r, i) => typeof fresh[i] === "string" && known.set(fresh[i], r));
    },
    expect(line) {
      if (typeof line !== "string") return runReference(copy, [line])[0];
      if (!known.has(line)) this.prepare([line]);
      return known.get(line);
    },
    remove: () => copy.remove(),
  };
}
