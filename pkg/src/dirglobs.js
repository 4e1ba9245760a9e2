// Globs that end in `/`, as bash expands them. `ls -d */` is how agents list directories:
// in bash a pattern ending in `/` matches directories only and keeps the slash
// (`guides/ api/`), where just-bash's expansion drops the slash and matches files too. A
// transform (see shell.js) replaces such a word with the expansion of a command of the
// package's, made where the word is expanded (after any `cd` before it in the line):
//   ls -d */   →   { mapfile -t -d '' NAME < <(CHECK '*/'); ls -d "${NAME[@]}"; }
// The command lists directories through the filesystem and matches names with the
// package's one glob matcher; as in bash (nullglob and failglob off), a pattern that
// matches nothing stays as typed, dotfiles match only a pattern that starts with a dot,
// and matches are sorted by code point (the C.UTF-8 locale). A word whose pattern the
// matcher does not model, or that mixes in an expansion (`$dir/*/`), is left to just-bash.

import { group, literal, quoted, simple, statement } from "./ast.js";

/** The command's name, as the transform calls it. */
const EXPAND = "chromafs-dir-glob";
const GLOB_CHARS = /[*?[]/;

/** The pattern a word spells, when it is literal text and globs ending in `/`; else null. */
function patternOf(word) {
  let pattern = "";
  let globbed = false;
  for (const part of word.parts) {
    if (part.type === "Glob") {
      pattern += part.pattern;
      globbed = true;
    } else if (part.type === "Literal" || part.type === "Escaped" || part.type === "SingleQuoted") {
      // Literal text: its glob characters escaped.
      pattern += part.value.replace(/[*?[\]\\]/g, "\\$&");
    } else return null;
  }
  return globbed && pattern.endsWith("/") ? pattern : null;
}

/** Whether the matcher models every segment of `pattern` (`matches(glob, name)` throws when not). */
function modelled(pattern, matches) {
  try {
    for (const seg of pattern.split("/")) if (GLOB_CHARS.test(seg)) matches(seg, "");
    return true;
  } catch {
    return false;
  }
}

let counter = 0;

/**
 * `node` (a simple command or a `for`) with its words that are directory globs replaced by
 * their expansion, made just before it runs; `then(node)` is applied to the command that
 * runs (itself, when it has no such word).
 */
function withDirGlobs(node, matches, then = (n) => n) {
  const key = node.type === "SimpleCommand" ? "args" : node.type === "For" ? "words" : null;
  if (!key || !Array.isArray(node[key])) return then(node);
  const reads = [];
  const words = node[key].map((word) => {
    const pattern = patternOf(word);
    if (!pattern || !modelled(pattern, matches)) return word;
    const name = `__chromafs_glob_${++counter % 1_000_000}`;
    // mapfile -t -d '' NAME < <(CHECK PATTERN)
    const from = { type: "ProcessSubstitution", direction: "input", body: { type: "Script", statements: [statement(simple(EXPAND, [quoted(pattern)]))] } };
    const redirect = { type: "Redirection", fd: null, operator: "<", target: { type: "Word", parts: [from] } };
    reads.push(statement(simple("mapfile", [literal("-t"), literal("-d"), quoted(""), literal(name)], [redirect])));
    return { type: "Word", parts: [{ type: "DoubleQuoted", parts: [{ type: "ParameterExpansion", parameter: `${name}[@]`, operation: null }] }] };
  });
  if (!reads.length) return then(node);
  return group([...reads, statement(then({ ...node, [key]: words }))]);
}

/** Byte order of UTF-8 names, as `sort` orders them under C.UTF-8 (in every runtime: no Buffer). */
function byCodePoint(a, b) {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
const unescape = (s) => s.replace(/\\(.)/g, "$1");

/**
 * The command that expands a pattern over `fs` (the shell's filesystem) with `matches`:
 * the directories it names, each with its slash, NUL-terminated.
 */
function expandCommand(fs, matches) {
  const isDir = async (p) => (await fs.stat(p).catch(() => null))?.isDirectory === true;
  return {
    name: EXPAND,
    async execute([pattern], ctx) {
      const absolute = pattern.startsWith("/");
      let found = [absolute ? "/" : ""];
      for (const seg of pattern.split("/").filter(Boolean)) {
        const next = [];
        for (const shown of found) {
          const dir = fs.resolvePath(ctx.cwd, shown || ".");
          const join = (name) => (shown === "" ? name : shown.endsWith("/") ? `${shown}${name}` : `${shown}/${name}`);
          if (!GLOB_CHARS.test(seg)) {
            const named = join(unescape(seg));
            if (await isDir(fs.resolvePath(ctx.cwd, named))) next.push(named);
            continue;
          }
          const entries = await fs.readdirWithFileTypes(dir).catch(() => []);
          for (const e of entries) {
            if (e.name.startsWith(".") && !seg.startsWith(".")) continue;
            if (e.name === "." || e.name === "..") continue;
            if (matches(seg, e.name) && (e.isDirectory || (await isDir(fs.resolvePath(dir, e.name))))) next.push(join(e.name));
          }
        }
        found = next.sort(byCodePoint);
      }
      const words = found.length ? found.map((p) => `${p}/`) : [unescape(pattern)];
      return { stdout: words.map((w) => `${w}\0`).join(""), stderr: "", exitCode: 0 };
    },
  };
}

export { withDirGlobs, expandCommand, EXPAND };
