// What the package's own GNU-style commands (tee, mktemp) share of getopt_long's rules,
// until they join the one option grammar of the commands answered in Rust.

/**
 * A long option (`--name` or `--name=value`) read against `names` as getopt_long reads it:
 * `{ name, value }` with the full name (an unambiguous prefix counts), or `{ error }`, the
 * words of GNU's usage error.
 */
function longOption(arg, names) {
  const [typed, value] = arg.slice(2).split(/=(.*)/s);
  const matches = names.filter((n) => n.startsWith(typed));
  const name = names.includes(typed) ? typed : matches.length === 1 ? matches[0] : null;
  if (name) return { name, value };
  const why = matches.length ? `option '${arg}' is ambiguous; possibilities: ${matches.map((m) => `'--${m}'`).join(" ")}` : `unrecognized option '${arg}'`;
  return { error: why };
}

/** A GNU tool's usage error: its words, then where its help is. */
const usageText = (command, what) => `${command}: ${what}\nTry '${command} --help' for more information.\n`;

export { longOption, usageText };
