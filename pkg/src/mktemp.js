// `mktemp`, which just-bash lacks and agents reach for (`f=$(mktemp) && … > "$f"`): a new
// empty file (or with -d a directory) under a name made from a template's trailing X's,
// printed on standard output, as GNU coreutils' mktemp makes one. In chromafs it can only
// succeed in the scratch directory (`/tmp`, the default); elsewhere it fails with the
// filesystem's reason, in mktemp's words. Options: -d, -u, -q, -t, -p DIR and --tmpdir[=DIR],
// --suffix=SUFF; `--` ends them.

import { errnoOf } from "./errno.js";
import { envValue } from "./context.js";
import { longOption, usageText } from "./getopt.js";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LONG = ["directory", "dry-run", "quiet", "suffix", "tmpdir", "help", "version"];
const HELP = `Usage: mktemp [OPTION]... [TEMPLATE]
Make a new empty file (or directory) named after TEMPLATE, whose last component ends in at
least 3 X's that become random letters and digits, and print its name. Without TEMPLATE:
tmp.XXXXXXXXXX in $TMPDIR, else /tmp.

  -d, --directory         make a directory
  -u, --dry-run           make nothing; print a name
  -q, --quiet             say nothing when it cannot be made
      --suffix=SUFF       put SUFF after the X's
  -p DIR, --tmpdir[=DIR]  TEMPLATE is relative to DIR ($TMPDIR, else /tmp, when not given)
  -t                      TEMPLATE is a file name in $TMPDIR, else the -p DIR, else /tmp
      --help              show this help
      --version           show the version
`;

const fail = (text) => ({ stdout: "", stderr: text, exitCode: 1 });
const usage = (what) => fail(usageText("mktemp", what));

/** The options and template, or a usage error's result. */
function parse(args) {
  const o = { directory: false, dryRun: false, quiet: false, t: false, tmpdir: undefined, suffix: undefined, template: undefined };
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const { name: long, value, error } = longOption(a, LONG);
      if (error) return { error: usage(error) };
      if (long === "help" || long === "version") return { [long]: true };
      if (value !== undefined && !["suffix", "tmpdir"].includes(long)) return { error: usage(`option '--${long}' doesn't allow an argument`) };
      if (long === "directory") o.directory = true;
      else if (long === "dry-run") o.dryRun = true;
      else if (long === "quiet") o.quiet = true;
      else if (long === "tmpdir") o.tmpdir = value ?? "";
      else if (long === "suffix") {
        if (value === undefined && i + 1 >= args.length) return { error: usage(`option '--suffix' requires an argument`) };
        o.suffix = value ?? args[++i];
      }
    } else if (a.startsWith("-") && a !== "-") {
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        if (c === "d") o.directory = true;
        else if (c === "u") o.dryRun = true;
        else if (c === "q") o.quiet = true;
        else if (c === "t") o.t = true;
        else if (c === "p") {
          const value = a.slice(j + 1) || args[++i];
          if (value === undefined) return { error: usage(`option requires an argument -- 'p'`) };
          o.tmpdir = value;
          break;
        } else return { error: usage(`invalid option -- '${c}'`) };
      }
    } else positional.push(a);
  }
  if (positional.length > 1) return { error: usage(`too many templates`) };
  o.template = positional[0];
  return { o };
}

/** `n` random letters and digits. */
function randomName(n) {
  const bytes = new Uint8Array(n);
  try {
    crypto.getRandomValues(bytes);
  } catch {
    for (let i = 0; i < n; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  return [...bytes].map((b) => LETTERS[b % LETTERS.length]).join("");
}

/** Runs `mktemp` with `args` in just-bash's command context `ctx`. */
async function mktemp(args, ctx) {
  const parsed = parse(args);
  if (parsed.error) return parsed.error;
  if (parsed.help) return { stdout: HELP, stderr: "", exitCode: 0 };
  if (parsed.version) return { stdout: "mktemp (chromafs)\n", stderr: "", exitCode: 0 };
  const { o } = parsed;
  const env = (key) => envValue(ctx, key);
  const tmpdir = env("TMPDIR") || "/tmp";
  let template = o.template ?? "tmp.XXXXXXXXXX";
  let dir = null;
  if (o.template === undefined || o.tmpdir !== undefined) dir = o.tmpdir || tmpdir;
  if (o.t) {
    if (template.includes("/")) return fail(`mktemp: invalid template, ‘${template}’, contains directory separator\n`);
    dir = env("TMPDIR") || o.tmpdir || "/tmp";
  } else if (dir !== null && o.template !== undefined && template.startsWith("/")) {
    return fail(`mktemp: invalid template, ‘${template}’; with --tmpdir, it may not be absolute\n`);
  }
  if (o.suffix !== undefined) {
    if (o.suffix.includes("/")) return fail(`mktemp: invalid suffix ‘${o.suffix}’, contains directory separator\n`);
    template += o.suffix;
  }
  const suffixLength = o.suffix?.length ?? 0;
  const full = dir === null ? template : `${dir.replace(/\/+$/, "")}/${template}`;
  const head = full.slice(0, full.length - suffixLength);
  const xs = /X*$/.exec(head.slice(head.lastIndexOf("/") + 1))[0].length;
  const tail = full.slice(full.length - suffixLength);
  if (xs < 3) return fail(`mktemp: too few X's in template ‘${o.suffix === undefined ? full : head}’\n`);
  const stem = head.slice(0, head.length - xs);
  const kind = o.directory ? "directory" : "file";
  for (let tries = 0; tries < 100; tries++) {
    const name = `${stem}${randomName(xs)}${tail}`;
    const path = ctx.fs.resolvePath(ctx.cwd, name);
    if (await ctx.fs.exists(path)) continue;
    if (o.dryRun) return { stdout: `${name}\n`, stderr: "", exitCode: 0 };
    try {
      if (o.directory) await ctx.fs.mkdir(path);
      else await ctx.fs.writeFile(path, "");
      return { stdout: `${name}\n`, stderr: "", exitCode: 0 };
    } catch (e) {
      if (o.quiet) return fail("");
      return fail(`mktemp: failed to create ${kind} via template ‘${full}’: ${errnoOf(e)[1]}\n`);
    }
  }
  return fail(o.quiet ? "" : `mktemp: failed to create ${kind} via template ‘${full}’: File exists\n`);
}

/** The command, for a just-bash shell's `customCommands`. */
const MKTEMP = { name: "mktemp", execute: mktemp };

export { MKTEMP };
