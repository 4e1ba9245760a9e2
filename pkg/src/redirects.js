// Redirections that fail as bash's do. In bash, `echo one; echo hi > /a.md; echo two`
// prints `one`, `bash: /a.md: Read-only file system` and `two`, with status 0: the
// redirection fails that one command, which does not run, and the line goes on. just-bash
// instead lets the filesystem's error end the whole line. So before just-bash runs a line,
// a transform (shell.js) puts a check in front of every command
// whose output goes to a file: `{ CHECK TARGET… && CMD > TARGET; }`. The check expands the
// targets as the redirection will, asks the filesystem whether each would open
// (`fs.writeError`, which writes nothing), and fails as bash does when one would not.
//
// The same transform tells a command chromafs answers where its streams go, as a process
// would see them: `grep -rn x / > /tmp/hits` gets `CHROMAFS_STDOUT_FILE=/tmp/hits` in its
// environment, so that it does not read the file it writes, as GNU grep and rg do not;
// `ls /a /nope 2>&1` gets `CHROMAFS_STDERR_MERGED=1`, so that it writes both streams in
// the order the real tool's reach their common file (see commands.js).
//
// A target is checked only when expanding it twice changes nothing (no command
// substitution, arithmetic, assignment or glob), and only while the check can print its
// error where bash would: on the command's stderr as it was, or after `2>/dev/null` or
// `2>&1`; any other redirection is left to just-bash as it was.

import { ERRNO_TEXT } from "./errno.js";
import { group, literal, simple, statement } from "./ast.js";
import { TOOL_COMMANDS } from "./names.js";

/** The check's name, as the transform calls it. */
const CHECK = "chromafs-redirect-check";
/** Marks each target in the check's arguments (a target may expand to several words). */
const MARK = "\u0001>";

const OUTPUT = new Set([">", ">>", ">|", "&>", "&>>"]);
const QUIET_OPERATIONS = new Set(["DefaultValue", "UseAlternative", "Length", "Substring", "PatternRemoval", "PatternReplacement", "CaseModification"]);

/** Whether expanding `parts` again gives the same words and has no effect. */
function quiet(parts) {
  return parts.every((p) => {
    switch (p.type) {
      case "Literal":
      case "SingleQuoted":
      case "Escaped":
      case "TildeExpansion":
        return true;
      case "DoubleQuoted":
        return quiet(p.parts);
      case "ParameterExpansion":
        return !p.operation || (QUIET_OPERATIONS.has(p.operation.type) && (!p.operation.word || quiet(p.operation.word.parts ?? [])));
      default:
        return false;
    }
  });
}

/** Whether a redirection opens a file to write: `>`, `>>`, `>|`, `&>`, `&>>`, `>& FILE`. */
function opensFile(r) {
  if (r.target?.type !== "Word") return false;
  if (OUTPUT.has(r.operator)) return true;
  if (r.operator !== ">&") return false;
  const [only, ...rest] = r.target.parts;
  return !rest.length && only?.type === "Literal" && !/^(\d+-?|-)$/.test(only.value);
}

/** Whether a redirection points the command's stderr elsewhere. */
function movesStderr(r) {
  return r.fd === 2 || r.operator === "&>" || r.operator === "&>>" || (r.operator === ">&" && r.fd === null);
}

/** Whether a redirection of stderr opens nothing: to /dev/null, or a copy of a descriptor. */
function opensNothing(r) {
  const [only, ...rest] = r.target?.parts ?? [];
  const word = !rest.length && only?.type === "Literal" ? only.value : null;
  return word === "/dev/null" || (r.operator === ">&" && /^(\d+-?|-)$/.test(word ?? ""));
}

/**
 * What the check tests before `node` runs: `targets`, the redirections' words to test, in
 * order, and `carried`, the redirections of stderr before them that the check takes as its
 * own (`2>/dev/null`, `2>&1`), so that its error goes where bash's would. Targets after
 * a redirection of stderr that follows one of them are not tested.
 */
function checked(node) {
  const targets = [];
  const carried = [];
  for (const r of node.redirections ?? []) {
    const stderr = movesStderr(r);
    if (stderr && !targets.length && opensNothing(r)) {
      carried.push(structuredClone(r));
      continue;
    }
    if (opensFile(r) && quiet(r.target.parts)) targets.push(r.target);
    if (stderr) break;
  }
  return { targets, carried };
}

/** `{ CHECK ▸ T1 ▸ T2 && node; }` in place of `node`. */
function guarded(node, { targets, carried }) {
  const check = { ...simple(CHECK, targets.flatMap((t) => [literal(MARK), structuredClone(t)]), carried), line: node.line };
  return group([statement([check, node], ["&&"])]);
}

/** The variables that tell a command answered here where its streams go (commands.js reads them). */
const STDOUT_FILE = "CHROMAFS_STDOUT_FILE";
const STDERR_MERGED = "CHROMAFS_STDERR_MERGED";
const ANSWERED = new Set(["grep", "egrep", "fgrep", "rg", "ls", "find", "tree", "du", ...TOOL_COMMANDS]);
const SEARCHES = new Set(["grep", "egrep", "fgrep", "rg"]);

/**
 * Where a command's standard output and standard error end up after its redirections, in
 * order: `file`, the word of the file standard output goes to (null: not a file, or a word
 * that cannot be expanded twice), and `merged`, whether standard error goes where standard
 * output goes (`2>&1`, `&> FILE`).
 */
function streamsOf(node) {
  // Where each stream goes: "stdout", "stderr", "fd N", or "file I" (the I-th redirection's).
  let [out, err] = ["stdout", "stderr"];
  const words = new Map();
  for (const [i, r] of (node.redirections ?? []).entries()) {
    const fd = r.fd ?? (r.operator.startsWith("<") ? 0 : 1);
    const both = r.operator === "&>" || r.operator === "&>>" || (r.operator === ">&" && r.fd === null && opensFile(r));
    const dup = r.operator === ">&" && !opensFile(r) ? r.target.parts?.[0]?.value : undefined;
    const file = `file ${i}`;
    if (both || opensFile(r)) words.set(file, quiet(r.target.parts) ? r.target : null);
    if (both) [out, err] = [file, file];
    else if (dup !== undefined) {
      const to = dup === "1" ? out : dup === "2" ? err : `fd ${dup}`;
      if (fd === 1) out = to;
      else if (fd === 2) err = to;
    } else if (opensFile(r) || OUTPUT.has(r.operator)) {
      if (fd === 1) out = file;
      else if (fd === 2) err = file;
    }
  }
  return { file: words.get(out) ?? null, merged: out === err };
}

/** Tells a command answered here where its streams go, in its environment (see above). */
function tagStreams(node) {
  const [only, ...rest] = node.name?.parts ?? [];
  if (node.type !== "SimpleCommand" || rest.length || only?.type !== "Literal" || !ANSWERED.has(only.value)) return;
  const { file, merged } = streamsOf(node);
  const tags = [];
  if (file && SEARCHES.has(only.value)) tags.push([STDOUT_FILE, structuredClone(file)]);
  if (merged) tags.push([STDERR_MERGED, literal("1")]);
  if (tags.length) node.assignments = [...node.assignments, ...tags.map(([name, value]) => ({ type: "Assignment", name, value, append: false, array: null }))];
}

/** `node` with a check of its redirections before it runs, or `node` when it needs none. */
function withCheck(node) {
  if (node.type === "FunctionDef") return node;
  const check = checked(node);
  return check.targets.length ? guarded(node, check) : node;
}

/** The check itself: a just-bash command over `fs`, the shell's filesystem. */
const checkCommand = (fs) => ({
  name: CHECK,
  async execute(args, ctx) {
    const groups = [];
    for (const a of args) {
      if (a === MARK) groups.push([]);
      else groups.at(-1)?.push(a);
    }
    for (const words of groups) {
      // A target that expands to no word or several is just-bash's to refuse.
      if (words.length !== 1 || !words[0] || /^\/dev\/(stdout|stderr|full)$/.test(words[0])) continue;
      const [target] = words;
      const error = fs.writeError(fs.resolvePath(ctx.cwd, target));
      const text = error && ERRNO_TEXT[error.code];
      if (text) return { stdout: "", stderr: `bash: ${target}: ${text}\n`, exitCode: 1 };
    }
    return { stdout: "", stderr: "", exitCode: 0 };
  },
});

export { withCheck, tagStreams, checkCommand, CHECK, STDOUT_FILE, STDERR_MERGED };
