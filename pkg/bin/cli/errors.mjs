// The command line's two kinds of failure. The entry point (chromafs.mjs) catches them and
// decides from the kind how the failure is shown and which exit code it gets; anything
// else that escapes a command is a bug, shown with its stack.

/** A mistake in the command line: reported with a hint, exit code 2. */
export class UsageError extends Error {}

/** An expected failure (bad input, Chroma unreachable…): reported as one line, exit code 1. */
export class CliError extends Error {}
