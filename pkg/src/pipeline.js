// Pipelines that stop early. just-bash runs each stage of a pipeline to the end before the
// next starts, so `grep -rn WORD / | head -20` would search every page to print twenty
// lines. When a whole line is one search piped into `head` and nothing else, the shell
// transform (shell.js) tells the search, in its own environment, how many lines will be
// taken (`CHROMAFS_LINES_TAKEN`, read by commands.js, as redirects.js tells a command where
// its streams go); the search (in Rust) stops once it has printed them, if nothing after
// them could change what the line shows. The hint travels with the command it is about,
// so lines running at once on one filesystem, or through another copy of this module,
// keep theirs apart.

import { SEARCH_COMMANDS } from "./names.js";

/** The variable that tells a search how many of its lines `head` takes. */
const LINES_TAKEN = "CHROMAFS_LINES_TAKEN";

/** How many lines `head ARGS` prints, or null for any other use of head. */
function headLines(args) {
  const number = (s) => (/^[0-9]{1,9}$/.test(s) ? Number(s) : null);
  if (args.length === 0) return 10;
  if (args.length === 2 && args[0] === "-n") return number(args[1]);
  if (args.length !== 1) return null;
  const [a] = args;
  if (a.startsWith("--lines=")) return number(a.slice(8));
  if (a.startsWith("-n")) return number(a.slice(2));
  if (a.startsWith("-")) return number(a.slice(1));
  return null;
}

/** The text of a word that no expansion changes (literal or quoted parts), else null. */
function plain(word) {
  let text = "";
  for (const part of word?.parts ?? [null]) {
    if (part?.type === "Literal" || part?.type === "SingleQuoted" || part?.type === "Escaped") text += part.value;
    else if (part?.type === "DoubleQuoted" && part.parts.every((p) => p.type === "Literal")) text += part.parts.map((p) => p.value).join("");
    else return null;
  }
  return text;
}

/**
 * When the script `ast` is one line `SEARCH ARGS | head [-n N]` and nothing else (no other
 * statement, no `!`, no redirection on either command), puts the lines head takes in the
 * search's environment.
 */
function tagLinesTaken(ast) {
  const [only, ...more] = ast?.statements ?? [];
  if (!only || more.length || only.background || only.pipelines?.length !== 1) return;
  const [line] = only.pipelines;
  if (line.negated || line.timed || line.commands?.length !== 2) return;
  const [search, head] = line.commands;
  const bare = (c) => c.type === "SimpleCommand" && !c.redirections?.length && !c.assignments?.length;
  if (!bare(search) || !bare(head) || !SEARCH_COMMANDS.includes(plain(search.name)) || plain(head.name) !== "head") return;
  const headArgs = head.args.map(plain);
  const lines = headArgs.includes(null) ? null : headLines(headArgs);
  if (lines === null) return;
  const value = { type: "Word", parts: [{ type: "Literal", value: String(lines) }] };
  search.assignments = [{ type: "Assignment", name: LINES_TAKEN, value, append: false, array: null }];
}

export { tagLinesTaken, LINES_TAKEN };
