// The words an agent reads about the shell: a tool description saying what the filesystem
// is, that it is read-only, and how to use it well. Kept apart so it can be reworded
// without touching any code that runs commands.

/**
 * A description of the shell for an agent's tool definition (for example bash-tool's
 * `promptOptions.toolPrompt`): what the filesystem is, that it is read-only, and which
 * commands work best. `docs` names the documentation, e.g. "the Acme API docs"; `scratch`
 * the session's writable directory, when it has one (`"/tmp"`); `keptMinutes`, when the
 * host keeps the working directory and the scratch directory from one call to the next,
 * for how long after the last call (an MCP server does, for a caller it knows).
 */
function toolDescription({ docs = "the documentation", scratch, keptMinutes } = {}) {
  const writes = scratch
    ? [
        `Only ${scratch} is writable: a scratch directory of your own for intermediate results`,
        `(\`grep -rl token / > ${scratch}/hits; wc -l ${scratch}/hits\`). Writing anywhere else fails with`,
        "'Read-only file system'.",
      ]
    : ["Nothing can be written: redirecting to a file, rm, mv, cp, mkdir and touch fail with", "'Read-only file system'."];
  const calls = keptMinutes
    ? [
        `Your working directory${scratch ? ` and ${scratch}` : ""} carry over from one call to the next, as in a`,
        `terminal, until ${keptMinutes} minutes pass without a call; variables do not.`,
      ]
    : ["Each call starts in `/`; a `cd` lasts only for that call, so chain with `&&` or use", "absolute paths."];
  return [
    `A read-only bash shell over ${docs}. Each page is a file and each section a directory.`,
    "",
    "Start with `ls /` or `tree -L 2 /` to see the sections, then read pages with `cat`,",
    "`head -n 60` or `sed -n '40,120p'`. Search with `grep -rn PATTERN /` or `rg -n PATTERN /`",
    "(add -i to ignore case, -l to list files only, -C 2 for context, --include='*.md' to",
    "filter): searches run in the database first, so searching the whole tree is fast. Find",
    "files by name with `find / -name '*auth*'`. Pipes work (`grep -rl token / | head`).",
    "",
    "When you do not know the exact words, `search QUESTION` ranks the pages that best answer",
    "it (`search -n 5 how do I rotate an API key`) and prints each as PATH:START-END with its",
    "most telling line: read it with `sed -n 'START,ENDp' PATH`, then grep for exact strings.",
    "",
    ...writes,
    ...calls,
    "Pages you may not see do not exist here.",
  ].join("\n");
}

export { toolDescription };
