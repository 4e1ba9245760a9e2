// The commands a ChromaFs answers itself or wraps, by kind: the one list each is spelled in.

// Searches asked of Chroma first.
const SEARCH_COMMANDS = ["grep", "egrep", "fgrep", "rg"];
// just-bash's built-ins that read files. Each is wrapped to report failed reads.
const FILE_COMMANDS = [
  "cat", "head", "tail", "wc", "sort", "uniq", "comm", "cut", "paste", "rev", "nl", "fold", "expand", "unexpand",
  "strings", "split", "column", "join", "tee", "ls", "stat", "find", "du", "tree", "sed", "awk", "diff", "md5sum",
  "sha1sum", "sha256sum", "file", "html-to-markdown", "tac", "od", "base64", "gzip", "gunzip", "zcat", "tar", "jq",
  "yq", "xan", "sqlite3", "xargs", "bash", "sh", "readlink",
];
// Commands the tools module answers as GNU's do (src/tools/), whether or not just-bash has them.
const TOOL_COMMANDS = [
  "awk", "basename", "cmp", "comm", "cut", "diff", "dirname", "expand", "fmt", "fold", "head", "join", "md5sum", "mktemp", "nl", "paste", "realpath", "sed", "seq", "sha1sum", "sha256sum", "sort", "tac", "tail", "tee", "tr", "unexpand", "uniq", "wc", "xargs",
];
// Commands that may be answered from the listing in Rust.
const LISTING_COMMANDS = ["ls", "find", "tree", "du"];
// chromafs's own command: a ranked search; just-bash has no such command.
const RANKED = "search";

export { SEARCH_COMMANDS, FILE_COMMANDS, TOOL_COMMANDS, LISTING_COMMANDS, RANKED };
