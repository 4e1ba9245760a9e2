// The shell around just-bash, where it differs from bash in what agents do. Before just-bash
// runs a line, a transform (its own plugin interface) rewrites the line's syntax tree, and
// commands of the package's do at run time what bash does at that point:
//   - a redirection that cannot open fails its command alone, with bash's message
//     (redirects.js);
//   - a command chromafs answers knows where its streams go: a search does not read back
//     the file its output goes to, and `2>&1` keeps the order of what it wrote (redirects.js);
//   - a glob ending in `/` names directories, with the slash (dirglobs.js);
//   - a search piped into `head` alone knows how many of its lines are taken (pipeline.js).
// The shell is prepared once, by `safeExec`, when its filesystem is a ChromaFs or mounts
// (which say whether a path would open, and match globs); other shells are left as they are.

import { checkCommand, tagStreams, withCheck } from "./redirects.js";
import { expandCommand, withDirGlobs } from "./dirglobs.js";
import { tagLinesTaken } from "./pipeline.js";

/** The transform: every command of the tree, wherever it is, rewritten in place. */
function transform(ast, matches) {
  tagLinesTaken(ast);
  const visit = (value) => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== "object") return;
    for (const key of Object.keys(value)) visit(value[key]);
    if (value.type === "Pipeline") {
      value.commands = value.commands.map((c) => {
        tagStreams(c);
        return withDirGlobs(c, matches, withCheck);
      });
    }
  };
  visit(ast);
  return ast;
}

const prepared = new WeakSet();

/** Prepares `bash` (see above), once. */
function prepareShell(bash) {
  const fs = bash?.fs;
  if (prepared.has(bash) || typeof fs?.writeError !== "function") return;
  if (typeof bash.registerTransformPlugin !== "function" || typeof bash.registerCommand !== "function") return;
  const ChromaFs = fs.ChromaFs ?? fs.constructor;
  const matches = (glob, name) => ChromaFs.globMatches(glob, name);
  bash.registerCommand(checkCommand(fs));
  bash.registerCommand(expandCommand(fs, matches));
  bash.registerTransformPlugin({ name: "chromafs-shell", transform: ({ ast }) => ({ ast: transform(ast, matches) }) });
  prepared.add(bash);
}

export { prepareShell };
