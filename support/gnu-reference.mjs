// The reference for the commands chromafs answers itself (grep, egrep, fgrep, rg, ls,
// tree): the real GNU tools and ripgrep, run by GNU bash over a copy of the same visible
// files. The copy is laid on tmpfs with each directory's entries created in descending
// byte order: tmpfs lists a directory newest first, so the tools' walks (grep's fts,
// rg's walker with one thread) come out in ascending byte order, as chromafs's do.
//
// Every command line is written with `R` standing for the root of the files, so the same
// line runs over chromafs (R = "") and over the copy (R = its directory); the copy's
// directory is then taken out of what the tools print. The locale is C.UTF-8: UTF-8
// text, and names collated in code point order.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
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
  if (!/^ripgrep 15\./.test(version(RG, ["--version"]))) return "needs ripgrep 15 in .tools/ripgrep (scripts/setup.sh)";
  return null;
}

/** Lays `files` (`{ path, content }`) out on tmpfs in descending creation order. */
export function layCopy(files) {
  const dir = mkdtempSync("/dev/shm/chromafs-gnu-");
  const root = path.join(dir, "root");
  mkdirSync(root);
  // Every directory's entries, created children-first, each directory's in descending order.
  const children = new Map([["", new Set()]]);
  for (const f of files) {
    const parts = f.path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const parent = parts.slice(0, i).join("/");
      const me = parts.slice(0, i + 1).join("/");
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent).add(me);
      if (i < parts.length - 1 && !children.has(me)) children.set(me, new Set());
    }
  }
  const content = new Map(files.map((f) => [f.path, f.content]));
  const create = (rel) => {
    const kids = [...(children.get(rel) ?? [])].sort((a, b) => Buffer.compare(Buffer.from(b), Buffer.from(a)));
    for (const kid of kids) {
      const full = path.join(root, kid);
      if (content.has(kid)) writeFileSync(full, content.get(kid));
      else {
        mkdirSync(full);
        create(kid);
      }
    }
  };
  create("");
  return { root, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs every line (a function of the root, see above) in one GNU bash over the copy:
 * `[{ stdout, stderr, exitCode }]`, with the copy's directory taken out.
 */
export function runReference(copy, lines) {
  const work = mkdtempSync("/dev/shm/chromafs-gnu-out-");
  // rg with one thread walks in directory order; with several its output order is not defined.
  const script = [`export LC_ALL=C.UTF-8 PATH=${path.dirname(RG)}:/usr/bin:/bin`, "rg() { command rg -j1 \"$@\"; }", `cd ${copy.root}`];
  lines.forEach((line, i) => {
    writeFileSync(path.join(work, `${i}.sh`), line(copy.root));
    script.push(`(cd ${copy.root} && . ${work}/${i}.sh) < /dev/null > ${work}/${i}.out 2> ${work}/${i}.err; echo $? > ${work}/${i}.rc`);
  });
  execFileSync("bash", ["-c", script.join("\n")], { stdio: "ignore", maxBuffer: 1 << 30 });
  const strip = (s) => s.split(copy.root).join("");
  const out = lines.map((_, i) => ({
    stdout: strip(readFileSync(path.join(work, `${i}.out`), "utf8")),
    stderr: strip(readFileSync(path.join(work, `${i}.err`), "utf8")),
    exitCode: Number(readFileSync(path.join(work, `${i}.rc`), "utf8")),
  }));
  rmSync(work, { recursive: true, force: true });
  return out;
}
