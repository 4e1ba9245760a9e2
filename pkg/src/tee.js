// `tee` as GNU coreutils' writes: standard input to standard output and to each file, a
// file that cannot be written named with the reason the filesystem gave (`Read-only file
// system`, `No such file or directory`, `Is a directory`), and exit status 1 once any
// failed, the other files written all the same. (just-bash's says "No such file or
// directory" whatever the cause.) Options: -a/--append; -i and -p (no signals, no pipes
// that close early here), --output-error[=MODE] likewise; `--` ends them.

import { ERRNO_TEXT } from "./errno.js";
import { longOption, usageText } from "./getopt.js";

const LONG = ["append", "ignore-interrupts", "output-error"];

/** The files and whether to append, or the usage error GNU tee prints. */
function parse(args) {
  const files = [];
  let append = false;
  let options = true;
  const usage = (what) => ({ error: usageText("tee", what) });
  for (const a of args) {
    if (!options || a === "-" || !a.startsWith("-")) {
      files.push(a);
    } else if (a === "--") {
      options = false;
    } else if (a.startsWith("--")) {
      const { name: long, value, error } = longOption(a, LONG);
      if (error) return usage(error);
      if (long !== "output-error" && value !== undefined) return usage(`option '--${long}' doesn't allow an argument`);
      if (long === "output-error" && value !== undefined && !["warn", "warn-nopipe", "exit", "exit-nopipe"].includes(value)) {
        return { error: `tee: invalid argument '${value}' for '--output-error'\nValid arguments are:\n  - 'warn'\n  - 'warn-nopipe'\n  - 'exit'\n  - 'exit-nopipe'\nTry 'tee --help' for more information.\n` };
      }
      if (long === "append") append = true;
    } else {
      for (const c of a.slice(1)) {
        if (c === "a") append = true;
        else if (c !== "i" && c !== "p") return usage(`invalid option -- '${c}'`);
      }
    }
  }
  return { files, append };
}

/** Runs `tee` with `args` in just-bash's command context `ctx`; `text` is standard input as text. */
async function tee(args, ctx, text) {
  if (args.includes("--help") || args.includes("--version")) return ctx.origCommand(args);
  const parsed = parse(args);
  if (parsed.error) return { stdout: "", stderr: parsed.error, exitCode: 1 };
  // The bytes as they came (one character a byte), written as bytes.
  const bytes = typeof ctx.stdin === "string" ? ctx.stdin : new TextDecoder("latin1").decode(ctx.stdin ?? new Uint8Array());
  let stderr = "";
  for (const file of parsed.files) {
    // `-` is a file named so, for GNU tee (POSIX's standard output is not meant).
    const path = ctx.fs.resolvePath(ctx.cwd, file);
    try {
      if (parsed.append) await ctx.fs.appendFile(path, bytes, "binary");
      else await ctx.fs.writeFile(path, bytes, "binary");
    } catch (e) {
      stderr += `tee: ${file}: ${ERRNO_TEXT[e?.code] ?? "Input/output error"}\n`;
    }
  }
  return { stdout: text, stderr, exitCode: stderr ? 1 : 0 };
}

export { tee };
