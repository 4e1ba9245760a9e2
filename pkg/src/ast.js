// just-bash syntax-tree nodes the package's shell transform writes (shell.js): the few
// shapes it inserts, spelled once.

/** A word of literal text. */
const literal = (value) => ({ type: "Word", parts: [{ type: "Literal", value }] });

/** A word quoted as 'value' (no expansion, no globbing). */
const quoted = (value) => ({ type: "Word", parts: [{ type: "SingleQuoted", value }] });

/** A simple command `name args… redirections…`. */
const simple = (name, args, redirections = []) => ({ type: "SimpleCommand", name: literal(name), args, assignments: [], redirections });

/** A pipeline of one command. */
const pipeline = (command) => ({ type: "Pipeline", commands: [command], negated: false, timed: false, timePosix: false });

/** A statement of commands joined by `operators` (`&&`, `||`); one command by default. */
const statement = (commands, operators = []) => ({ type: "Statement", pipelines: [commands].flat().map(pipeline), operators, background: false });

/** `{ statements; }` */
const group = (body) => ({ type: "Group", body, redirections: [] });

export { literal, quoted, simple, pipeline, statement, group };
