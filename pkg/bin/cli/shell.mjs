// `chromafs shell` and `chromafs exec`: the read-only bash shell over the docs, interactive
// or fed on stdin, or one command line; the directory and variables a line leaves carry
// into the next, as in a real shell.
import { createInterface } from "node:readline";
import { Bash } from "just-bash";
import { safeExec } from "../../node.mjs";
import { withPageUrls } from "../../mcp/sources.mjs";
import { CliError } from "./errors.mjs";
import { connectOptions, docsName, groupsOf, sitesOf } from "./connection.mjs";
import { withEmbedOptions } from "./embed-options.mjs";
import { connectWithModel } from "./models.mjs";
import { plural } from "./format.mjs";
import { reportBroken, reportGroups, reportRecorded, reportShape } from "./reports.mjs";

export async function connect(conn, values) {
  const groups = groupsOf(values);
  const scratch = values.scratch === "none" ? undefined : (values.scratch ?? "/tmp");
  const sites = sitesOf(conn, values);
  const fs = await connectWithModel(withEmbedOptions({ ...connectOptions(conn, values), groups, scratch }, values));
  reportBroken(fs, conn);
  reportShape(fs, conn);
  reportGroups(fs, conn);
  reportRecorded(fs, conn);
  const cwd = fs.resolvePath("/", values.cwd ?? "/");
  // Reported here rather than as an `ls: .: No such file or directory` on every command.
  const where = await fs.stat(cwd).catch(() => null);
  if (!where) throw new CliError(`--cwd ${values.cwd}: no such directory in ${docsName(conn)}`);
  if (!where.isDirectory) throw new CliError(`--cwd ${values.cwd}: not a directory`);
  // `search --json` lines carry each page's public address under --base-url (or its mount's site).
  const customCommands = withPageUrls(fs.commands(), sites);
  return { fs, groups, cwd, docs: docsName(conn), bash: new Bash({ fs, cwd, customCommands }) };
}

/**
 * One bash session across many `exec` calls. just-bash starts every `exec` afresh from the
 * Bash's own cwd and environment, so the directory and the variables a line leaves behind
 * are carried into the next one, as in a real shell.
 */
class Session {
  constructor({ fs, bash, cwd }) {
    this.fs = fs;
    this.bash = bash;
    this.cwd = cwd;
    this.env = undefined;
  }

  async run(line, signal) {
    const options = { cwd: this.cwd, signal };
    if (this.env) Object.assign(options, { env: this.env, replaceEnv: true });
    const result = await safeExec(this.bash, line, options);
    // A failed top-level redirection comes back without an environment: nothing changed.
    if (result.env?.PWD) {
      // Normalised: just-bash's `cd ../x` from a top-level directory leaves PWD as `//x`.
      this.cwd = this.fs.resolvePath("/", result.env.PWD);
      // `$?` is the interpreter's own; everything else is the shell's state.
      const { "?": _status, ...env } = result.env;
      this.env = { ...env, PWD: this.cwd };
    }
    if (signal?.aborted) {
      // Interrupted with Ctrl-C: the prompt already shows ^C, and bash reports 128 + SIGINT.
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr.replace(/^bash: execution aborted\n/m, ""));
      return 130;
    }
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    return result.exitCode;
  }
}

export async function runExec(command, target) {
  return new Session(target).run(command);
}

/** Replaces the history entries of a command typed over several lines with the whole command. */
function rememberAsOne(rl, lines, command) {
  if (!Array.isArray(rl.history)) return;
  // readline keeps history newest first and leaves blank lines out of it.
  const count = lines.filter((l) => l.trim() !== "").length;
  rl.history.splice(0, Math.min(count, rl.history.length), command);
  for (let i = rl.history.length - 1; i > 0; i--) if (rl.history[i] === command) rl.history.splice(i, 1);
}

// `exit` or `exit N` on a line of its own ends the shell (N defaults to the last exit code).
const EXIT_LINE = /^\s*exit(?:\s+(\d+))?\s*;?\s*$/;

export async function runShell(target) {
  const session = new Session(target);
  const interactive = Boolean(process.stdin.isTTY);
  // Prompts and line editing go to stderr, as bash's do, so stdout carries only output.
  const rl = createInterface({
    input: process.stdin,
    output: interactive ? process.stderr : undefined,
    terminal: interactive,
    historySize: 1000,
    removeHistoryDuplicates: true,
  });

  // Ctrl-D can close the interface while a command runs; prompting after that would
  // resume stdin and keep the process alive with nothing reading it.
  let closed = false;
  rl.on("close", () => {
    closed = true;
  });
  const prompt = (text = `chromafs:${session.cwd}$ `) => {
    if (closed) return;
    rl.setPrompt(text);
    rl.prompt();
  };

  let status = 0;
  let pending = ""; // a line continued with a trailing backslash
  let typed = []; // the lines `pending` was made of, as typed
  let running = null; // AbortController of the command in progress, if any
  if (interactive) {
    const { files } = target.fs.stats();
    const groups = target.groups.length ? target.groups.join(",") : "none (public pages only)";
    process.stderr.write(
      `chromafs: ${target.docs}, ${plural(files, "file")} visible, groups: ${groups}; exit or Ctrl-D to quit\n`,
    );
    // Ctrl-C stops the running command, or discards the line being typed, as bash does.
    rl.on("SIGINT", () => {
      process.stderr.write("^C\n");
      if (running) {
        running.abort();
        return;
      }
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      pending = "";
      typed = [];
      prompt();
    });
    prompt();
  }

  for await (const raw of rl) {
    const line = pending + raw;
    if (/(^|[^\\])(\\\\)*\\$/.test(line)) {
      pending = line.slice(0, -1);
      typed.push(raw);
      if (interactive) prompt("> ");
      continue;
    }
    if (typed.length > 0 && interactive) rememberAsOne(rl, [...typed, raw], line);
    pending = "";
    typed = [];
    const exit = EXIT_LINE.exec(line);
    if (exit) {
      if (exit[1] !== undefined) status = Number(exit[1]) & 255;
      break;
    }
    // Blank lines and comments leave the last exit code alone, as in bash.
    if (line.trim() !== "" && !line.trimStart().startsWith("#")) {
      running = new AbortController();
      try {
        status = await session.run(line, running.signal);
      } finally {
        running = null;
      }
    }
    if (interactive) prompt();
  }
  // Ctrl-D leaves the cursor after the prompt.
  if (interactive && closed) process.stderr.write("\n");
  rl.close();
  return status;
}
