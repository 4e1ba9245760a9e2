// Redirections that fail as bash's do. In bash, `echo one; echo hi > /a.md; echo two`
// prints `one`, `bash: /a.md: Read-only file system` and `two`, with status 0: the
// redirection fails that one command, which does not run, and the line goes on. just-bash
// instead lets the filesystem's error end the whole line. So before just-bash runs a line,
// a transform (just-bash's own plugin interface) puts a check in front of every command
// whose output goes to a file: `{ CHECK TARGET… && CMD > TARGET; }`. The check expands the
// targets as the redirection will, asks the filesystem whether each would open
// (`fs.writeError`, which writes nothing), and fails as bash does when one would not.
//
// The same transform tells a search where its standard output goes, as a process would
// see it: `grep -rn x / > /tmp/hits` gets `CHROMAFS_STDOUT_FILE=/tmp/hits` in its
// environment, so that it does not read the file it writes, as GNU grep and rg do not.
//
// A target is checked only when expanding it twice changes nothing (no command
// substitution, arithmetic, assignment or glob), and only while the check can print its
// error where bash would: on the command's stderr as it was, or after `2>/dev/null` or
// `2>&1`; any other redirection is left to just-bash as it was.

import { ERRNO_TEXT } from "./errno.js";

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

const literal = (value) => ({ type: "Word", parts: [{ type: "Literal", value }] });

/** `{ CHECK ▸ T1 ▸ T2 && node; }` in place of `node`. */
function guarded(node, { targets, carried }) {
  const check = {
    type: "SimpleCommand",
    name: literal(CHECK),
    args: targets.flatMap((t) => [literal(MARK), structuredClone(t)]),
    assignments: [],
    redirections: carried,
    line: node.line,
  };
  const pipeline = (command) => ({ type: "Pipeline", commands: [command], negated: false, timed: false, timePosix: false });
  const statement = { type: "Statement", pipelines: [pipeline(check), pipeline(node)], operators: ["&&"], background: false };
  return { type: "Group", body: [statement], redirections: [] };
}

/** The variable that names a search's output file (commands.js reads it). */
const STDOUT_FILE = "CHROMAFS_STDOUT_FILE";
const SEARCHES = new Set(["grep", "egrep", "fgrep", "rg"]);

/** The word a command's standard output ends up in after its redirections, when it is a file. */
function stdoutFile(node) {
  let target = null;
  for (const r of node.redirections ?? []) {
    const both = r.operator === "&>" || r.operator === "&>>" || (r.operator === ">&" && r.fd === null && opensFile(r));
    if (both || ((r.fd ?? 1) === 1 && opensFile(r))) target = quiet(r.target.parts) ? r.target : null;
    else if ((r.fd ?? 1) === 1 && (r.operator === ">&" || OUTPUT.has(r.operator))) target = null;
  }
  return target;
}

/** Names a search's output file in its environment (see above). */
function tagSearch(node) {
  const [only, ...rest] = node.name?.parts ?? [];
  if (node.type !== "SimpleCommand" || rest.length || only?.type !== "Literal" || !SEARCHES.has(only.value)) return;
  const target = stdoutFile(node);
  if (target) node.assignments = [...node.assignments, { type: "Assignment", name: STDOUT_FILE, value: structuredClone(target), append: false, array: null }];
}

/** `ast` with a check before each command that writes to a file, wherever it is. */
function withChecks(ast) {
  const visit = (value) => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== "object") return;
    for (const key of Object.keys(value)) visit(value[key]);
    if (value.type === "Pipeline") {
      value.commands = value.commands.map((c) => {
        if (c.type === "FunctionDef") return c;
        tagSearch(c);
        const check = checked(c);
        return check.targets.length ? guarded(c, check) : c;
      });
    }
  };
  visit(ast);
  return ast;
}

/** The transform plugin just-bash runs on every line's syntax tree. */
const PLUGIN = { name: "chromafs-redirects", transform: ({ ast }) => ({ ast: withChecks(ast) }) };

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

const prepared = new WeakSet();

/**
 * Makes `bash` check its redirections as bash does (see above), once, when its filesystem
 * can say whether a path would open (a ChromaFs, mounts); other shells are left as they are.
 */
function checkRedirections(bash) {
  if (prepared.has(bash) || typeof bash?.fs?.writeError !== "function") return;
  if (typeof bash.registerTransformPlugin !== "function" || typeof bash.registerCommand !== "function") return;
  bash.registerCommand(checkCommand(bash.fs));
  bash.registerTransformPlugin(PLUGIN);
  prepared.add(bash);
}

export { checkRedirections, withChecks, CHECK, STDOUT_FILE };
