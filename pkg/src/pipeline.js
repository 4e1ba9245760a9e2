// Pipelines that stop early. just-bash runs each stage of a pipeline to the end before the
// next starts, so `grep -rn WORD / | head -20` would search every page to print twenty
// lines. safeExec sees the whole line first: when it is one search piped into `head` and
// nothing else, it tells the search how many lines will be taken, and the search (in
// Rust) stops once it has printed them, if nothing after them could change what the line
// shows. Only lines whose words are all literal are recognised, so the words read here are
// exactly the arguments the command receives; anything else runs as it always has.

import { SEARCH_COMMANDS } from "./names.js";

// Characters of an unquoted word that no shell expansion touches.
const PLAIN = /^[A-Za-z0-9_./:=,@%+^-]$/;

/** The words of `line` and where its one `|` is, or null when any part is not literal. */
function literalWords(line) {
  const words = [];
  let pipe = -1;
  let word = null;
  const end = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " " || c === "\t") {
      end();
    } else if (c === "|") {
      end();
      if (pipe !== -1 || words.length === 0) return null;
      pipe = words.length;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) return null;
      word = (word ?? "") + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      const close = line.indexOf('"', i + 1);
      if (close === -1) return null;
      const inner = line.slice(i + 1, close);
      // `$`, a backquote, `\` and `!` expand inside double quotes.
      if (/[$\x60\\!]/.test(inner)) return null;
      word = (word ?? "") + inner;
      i = close;
    } else if (PLAIN.test(c)) {
      word = (word ?? "") + c;
    } else {
      return null;
    }
  }
  end();
  return pipe === -1 ? null : { words, pipe };
}

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

/**
 * `{ name, args, lines }` when `line` is `SEARCH ARGS | head [-n N]` in literal words, the
 * search's output taken by head alone; null otherwise.
 */
function searchIntoHead(line) {
  if (typeof line !== "string" || line.length > 4096) return null;
  const parsed = literalWords(line);
  if (!parsed) return null;
  const { words, pipe } = parsed;
  const [name, ...args] = words.slice(0, pipe);
  const [after, ...headArgs] = words.slice(pipe);
  if (!SEARCH_COMMANDS.includes(name) || after !== "head") return null;
  const lines = headLines(headArgs);
  return lines === null ? null : { name, args, lines };
}

// The line safeExec is running on each filesystem, and how many lines are running on it:
// with two at once, no search can tell which line it belongs to, and none stops early.
const expected = new WeakMap();
const running = new WeakMap();

/** Runs `body` with `line`'s search told how many lines head takes, when it is one. */
async function withPipeline(fs, line, body) {
  if (typeof fs !== "object" || fs === null) return body();
  running.set(fs, (running.get(fs) ?? 0) + 1);
  const hint = searchIntoHead(line);
  if (hint) expected.set(fs, hint);
  try {
    return await body();
  } finally {
    if (expected.get(fs) === hint) expected.delete(fs);
    running.set(fs, running.get(fs) - 1);
  }
}

/**
 * The lines head takes of this search's output, when it is the search of the line being
 * run (same name and arguments); once only.
 */
function linesTaken(fs, name, args) {
  const hint = expected.get(fs);
  if (!hint || running.get(fs) !== 1 || hint.name !== name || hint.args.length !== args.length) return undefined;
  if (hint.args.some((a, i) => a !== args[i])) return undefined;
  expected.delete(fs);
  return hint.lines;
}

export { searchIntoHead, withPipeline, linesTaken };
