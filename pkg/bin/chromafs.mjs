#!/usr/bin/env node
// The chromafs command-line tool: ingest a folder of docs into a Chroma collection, then
// browse it with a read-only bash shell (interactive, piped, or one command at a time), or
// serve it to agents over MCP. This file reads the command line; each command is a module
// of cli/.

import { parseArgs } from "node:util";
import { readFile } from "node:fs/promises";
import { annotate } from "../node.mjs";
import { CliError, UsageError } from "./cli/errors.mjs";
import { connection } from "./cli/connection.mjs";
import { plural } from "./cli/format.mjs";
import { runIngest, unknownModel, withEmbedModel } from "./cli/ingest.mjs";
import { runMcp } from "./cli/mcp.mjs";
import { whyMissing } from "./cli/missing.mjs";
import { connect, runExec, runShell } from "./cli/shell.mjs";

const USAGE = `Usage: chromafs <command> [options]

A read-only bash shell over documentation stored in a Chroma collection.

Commands:
  ingest DIR          write the text files under DIR into a collection (re-runnable:
                      writes and embeds only the chunks that changed, removes records of
                      pages no longer there)
  annotate            write access and directories onto the chunks of a collection
                      written by another tool, so searches are scoped inside Chroma
  shell               interactive shell; reads commands line by line when stdin is
                      not a terminal and exits with the last command's exit code
  exec "COMMAND"      run one command, exit with its exit code
  mcp                 serve the docs to agents over the Model Context Protocol: stdio
                      (what desktop and command-line agents launch), or --http PORT

Connection options (every command):
  --url URL           Chroma server (default: $CHROMAFS_URL, else http://127.0.0.1:8000)
  --collection NAME   collection (default: $CHROMAFS_COLLECTION)
  --tenant T          tenant (default: default_tenant)
  --database D        database (default: default_database)
  --token TOKEN       sent as x-chroma-token (default: $CHROMAFS_TOKEN)

ingest options:
  --access FILE       JSON object mapping path globs to {"isPublic": bool, "groups": [..]};
                      the last matching glob wins, pages no glob matches are public; a
                      glob that matches no page stops the ingest before anything is written
  --default-private   pages no glob matches are private instead of public
  --versions FILE     JSON object mapping path globs to a version of the docs
                      ({"v1/**": "v1"}); the last matching glob wins; pages no glob
                      matches belong to every version (a glob that matches no page
                      stops the ingest)
  --version-folders   a page no --versions glob matches belongs to the version its
                      top folder names, when that folder is named like one (v2/,
                      1.4/, v1.x/)
  --chunk-bytes N     largest chunk in bytes (default 4096)
  --lease-ms N        how long this run holds the collection unless it renews its lease
                      (default 60000): another ingest is refused meanwhile, and one that
                      was killed holds it no longer than this
  --plain-tree        store the path tree as plain JSON instead of gzip+base64
  --hidden            also ingest dotfiles and dot-directories (.env, .github/…),
                      which are left out by default (.git never goes in)
  --no-ignore         also ingest what .gitignore files ignore (left out by default)
  --embed [MODEL]     embed the chunks with a built-in model (see chromafs/embed), so
                      \`search\` ranks by meaning as well as words; shell, exec and mcp then
                      use the model by themselves for this collection. MODEL is
                      all-MiniLM-L6-v2 (English, the default) or multilingual-e5-small
                      (about a hundred languages; twice as slow to embed), or
                      openai:NAME for an embedding service (below), which is recorded
                      in the collection as Chroma's own clients record it

annotate options:
  --grep-index        also write the grep index of the pages (greps read it instead of
                      asking Chroma); only for a collection whose writer changes the
                      tree with every write, or is followed by annotate each time: a
                      chunk rewritten in place behind the index is not seen through it

Embedding services (ingest, shell, exec, mcp):
  --embed openai:NAME the OpenAI-compatible service's model NAME (OpenAI, Azure
                      OpenAI, vLLM, Ollama, LM Studio, LiteLLM, TEI); the key comes
                      from $OPENAI_API_KEY or $CHROMA_OPENAI_API_KEY (or --embed-key-env)
  --embed-url URL     the service's base URL (default https://api.openai.com/v1);
                      for shell, exec and mcp without --embed, the origin a
                      collection's recorded api_base may be at
  --embed-dimensions N  ask the service for vectors of N numbers
  --embed-key-env NAME  read the key from $NAME (never give a key as an option)

shell, exec and mcp:
  --mount /DIR=COLLECTION[@URL]
                      mount a collection as the directory /DIR instead of --collection
                      (repeatable: several doc sets in one shell; grep, find and search
                      work across them or inside one; @URL is that mount's public site)
  --scratch DIR       a writable in-memory directory beside the read-only docs, for
                      the session (mcp: for each caller) (default: /tmp; "none" for
                      no scratch directory)
  --docs-version V    see only version V of the docs and the pages of no version
                      (grep, ls, search and every other command); a version that
                      does not exist is an error naming those that do

shell and exec options:
  --groups a,b        access groups of the session (default: none, public pages only)
  --cwd DIR           starting directory (default: /)
  --base-url URL      the docs' public site: \`search --json\` lines carry each page's
                      URL (the rule is mcp's --base-url below)

mcp options:
  --groups a,b        access groups over stdio (default: none, public pages only)
  --http PORT         serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio
  --host H            address to listen on with --http (default 127.0.0.1)
  --tokens FILE       JSON object mapping bearer tokens (16 characters or more) to
                      group lists, for --http; keep it readable by you alone
  --issuer URL        with --http, accept OAuth access tokens (JWTs) this identity
                      provider issued: signature by its keys (from its metadata),
                      issuer, audience and expiry checked; the groups come from a
                      claim; a token that fails a check gets 401
  --audience URL      the audience tokens must name (default: the public URL)
  --jwks URL          the provider's key set, when its metadata does not say it
  --groups-claim NAME the claim holding the groups: an array of names or one
                      space-separated string (default: groups)
  --public-url URL    the endpoint's address as clients reach it, behind a proxy
                      (default http://HOST:PORT/mcp); the resource in the server's
                      /.well-known/oauth-protected-resource metadata
  --require-token     with --http, refuse requests without a token (401); without
                      it they see the public pages only
  --allow-origin URL  with --http, a browser origin that may call the server
                      (repeatable); other Origins get 403
  --call-timeout-ms N wall time of one tool call (default 30000); a call also stops
                      when its client goes away
  --max-requests N    Chroma requests one call may send (default 200)
  --calls-in-flight N calls one client may have running at once (default 4)
  --workers N         worker threads the calls run in (default: the cores, at
                      least 2); a call that computes or grows without end is
                      stopped there while other callers are answered (0: in
                      the server's own thread, without that protection)
  --memory-mib N      the JavaScript heap of each worker, shared by the calls it
                      runs at once (default 512)
  --shell-idle-ms N   how long a caller's shell (its directory and scratch files) is
                      kept after its last call (default 1800000, 30 minutes; 0: none);
                      kept for stdio's client and authenticated callers, never for
                      anonymous ones
  --tool-prefix P     prefix of the tool names (e.g. docs_ gives docs_bash, docs_search)
  --docs NAME         what the docs are, for the tools' descriptions
  --base-url URL      the docs' public site: search results carry each page's URL
                      (the path under URL, its extension dropped, index pages as
                      their directory: /guides/index.mdx is URL/guides)

  -h, --help          show this help
  --version           print the version

Examples:
  chromafs ingest ./docs --collection docs --access access.json --embed
  OPENAI_API_KEY=… chromafs ingest ./docs --collection docs --embed openai:text-embedding-3-small
  chromafs annotate --collection docs-from-another-tool
  chromafs shell --collection docs --groups admin
  chromafs exec "grep -rn access_token /" --collection docs
  chromafs shell --mount /docs=docs@https://docs.example.com --mount /api=api-reference
  chromafs mcp --collection docs --http 8808 --issuer https://login.example.com \\
    --public-url https://docs.example.com/mcp --base-url https://docs.example.com
  printf 'cd /guides\\nls\\n' | chromafs shell --collection docs
`;

const OPTIONS = {
  url: { type: "string" },
  collection: { type: "string" },
  tenant: { type: "string" },
  database: { type: "string" },
  token: { type: "string" },
  access: { type: "string" },
  "chunk-bytes": { type: "string" },
  "lease-ms": { type: "string" },
  "grep-index": { type: "boolean" },
  "plain-tree": { type: "boolean" },
  hidden: { type: "boolean" },
  "no-ignore": { type: "boolean" },
  embed: { type: "string" },
  "embed-url": { type: "string" },
  "embed-dimensions": { type: "string" },
  "embed-key-env": { type: "string" },
  http: { type: "string" },
  host: { type: "string" },
  tokens: { type: "string" },
  "require-token": { type: "boolean" },
  issuer: { type: "string" },
  audience: { type: "string" },
  jwks: { type: "string" },
  "groups-claim": { type: "string" },
  "public-url": { type: "string" },
  "base-url": { type: "string" },
  mount: { type: "string", multiple: true },
  "allow-origin": { type: "string", multiple: true },
  "call-timeout-ms": { type: "string" },
  "max-requests": { type: "string" },
  "calls-in-flight": { type: "string" },
  workers: { type: "string" },
  "memory-mib": { type: "string" },
  "shell-idle-ms": { type: "string" },
  "tool-prefix": { type: "string" },
  docs: { type: "string" },
  "default-private": { type: "boolean" },
  versions: { type: "string" },
  "version-folders": { type: "boolean" },
  "docs-version": { type: "string" },
  groups: { type: "string", multiple: true },
  cwd: { type: "string" },
  scratch: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
};

/**
 * The help of one command: its line of the command list, the option sections that name it
 * (or every command), and its examples. The sections are USAGE's, so the two never differ.
 */
function helpFor(command) {
  const blocks = USAGE.trimEnd().split("\n\n");
  const named = (heading) => /every command/.test(heading) || heading.toLowerCase().split(/[^a-z]+/).includes(command);
  const entry = (lines) => {
    const at = lines.findIndex((l) => l.startsWith(`  ${command} `) || l === `  ${command}`);
    if (at < 0) return [];
    const end = lines.findIndex((l, i) => i > at && /^ {2}\S/.test(l));
    return lines.slice(at, end < 0 ? undefined : end);
  };
  const listed = entry(blocks.find((b) => b.startsWith("Commands:")).split("\n"));
  const synopsis = listed[0]?.trim().split(/ {2,}/)[0] ?? command;
  const out = [`Usage: chromafs ${synopsis} [options]`, ""];
  for (const block of blocks) {
    const [heading, ...lines] = block.split("\n");
    if (heading === "Commands:") out.push(...entry(lines), "");
    else if (heading === "Examples:") {
      const mine = lines.flatMap((l, i) => (l.startsWith(`  chromafs ${command} `) || l.includes(` chromafs ${command} `) ? [l, ...(lines[i + 1]?.startsWith("    ") ? [lines[i + 1]] : [])] : []));
      if (mine.length) out.push(heading, ...mine, "");
    } else if (/:$/.test(heading) && named(heading)) out.push(block, "");
  }
  out.push("  -h, --help          show this help; chromafs --help lists every command", "");
  return out.join("\n");
}

// Which options each command accepts besides the connection options and --help.
const EMBED_OPTIONS = ["embed", "embed-url", "embed-dimensions", "embed-key-env"];
const COMMAND_OPTIONS = {
  ingest: ["access", "versions", "version-folders", "chunk-bytes", "lease-ms", "plain-tree", "default-private", "hidden", "no-ignore", ...EMBED_OPTIONS],
  annotate: ["grep-index"],
  shell: ["groups", "cwd", "scratch", "docs-version", "base-url", "mount", ...EMBED_OPTIONS],
  exec: ["groups", "cwd", "scratch", "docs-version", "base-url", "mount", ...EMBED_OPTIONS],
  mcp: [
    ["groups", "http", "host", "tokens", "require-token", "allow-origin", "call-timeout-ms", "max-requests", "calls-in-flight", "tool-prefix", "docs"],
    ["workers", "memory-mib", "scratch", "docs-version", "shell-idle-ms"],
    ["issuer", "audience", "jwks", "groups-claim", "public-url", "base-url", "mount"],
    EMBED_OPTIONS,
  ].flat(),
};
const COMMON_OPTIONS = ["url", "collection", "tenant", "database", "token", "help"];

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: withEmbedModel(argv), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs's messages go on with advice about `--`; the first sentence is the point.
    if (typeof error?.code === "string" && error.code.startsWith("ERR_PARSE_ARGS")) {
      const first = error.message.split(". ")[0];
      throw new UsageError(first.charAt(0).toLowerCase() + first.slice(1));
    }
    throw error;
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;

  if (values.version) {
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    process.stdout.write(`chromafs ${pkg.version}\n`);
    return 0;
  }
  if (values.help || command === undefined || command === "help") {
    // `chromafs ingest --help` and `chromafs help ingest`: that command's part of the help.
    const about = command === "help" ? args[0] : command;
    process.stdout.write(about !== undefined && Object.hasOwn(COMMAND_OPTIONS, about) ? helpFor(about) : USAGE);
    return 0;
  }
  if (!Object.hasOwn(COMMAND_OPTIONS, command)) throw new UsageError(`unknown command '${command}'`);
  const allowed = new Set([...COMMON_OPTIONS, ...COMMAND_OPTIONS[command]]);
  for (const name of Object.keys(values)) {
    if (!allowed.has(name)) throw new UsageError(`option --${name} does not apply to '${command}'`);
  }

  const conn = connection(values);
  return runCommand(command, args, conn, values, argv).catch(async (error) => {
    // A collection that does not exist: the operator is told why (a tenant, a database, a
    // server that is not Chroma), or which collections there are.
    const why = await whyMissing(error, conn);
    throw why ? new CliError(why) : error;
  });
}

async function runCommand(command, args, conn, values, argv) {
  switch (command) {
    case "ingest": {
      // `--embed NAME DIR` with a name that is no model: the name, not a second directory.
      const named = argv[argv.indexOf("--embed") + 1];
      if (args.length === 2 && args.includes(named)) throw unknownModel(named);
      if (args.length !== 1) throw new UsageError("ingest takes one directory: chromafs ingest DIR --collection NAME");
      return runIngest(args[0], conn, values);
    }
    case "annotate": {
      if (args.length !== 0) throw new UsageError(`annotate takes no arguments, got '${args[0]}'`);
      let a;
      try {
        a = await annotate({ ...conn, grepIndex: Boolean(values["grep-index"]) });
      } catch (e) {
        // Nothing to do is no failure: ingest's chunks carry all annotate would write.
        if (!/was written by chromafs ingest/.test(e?.message)) throw e;
        process.stdout.write(`${e.message.replace(/^\w+: [^,]*, /, "")}; nothing to annotate\n`);
        return 0;
      }
      process.stdout.write(
        `annotated ${plural(a.chunks, "chunk")} of collection ${a.collection}: ${a.updated} written, ${a.chunks - a.updated} already right` +
          `${a.orphans ? `, ${a.orphans} of pages the tree does not name (made private)` : ""}` +
          `${a.readById ? "; every page's chunks counted: pages are read by id" : ""}` +
          `; grep index: ${plural(a.grepIndex.records, "record")}${a.grepIndex.written ? `, ${a.grepIndex.written} written` : ""}` +
          `${a.grepIndex.removed ? `, ${a.grepIndex.removed} of an older index removed` : ""}; ${plural(a.requests, "request")}\n`,
      );
      return 0;
    }
    case "shell":
      if (args.length !== 0) throw new UsageError(`shell takes no arguments, got '${args[0]}' (use exec to run a command)`);
      return runShell(await connect(conn, values));
    case "mcp":
      if (args.length !== 0) throw new UsageError(`mcp takes no arguments, got '${args[0]}'`);
      return runMcp(conn, values);
    case "exec":
      if (args.length !== 1) throw new UsageError('exec takes one command, quoted: chromafs exec "ls -la /guides"');
      return runExec(args[0], await connect(conn, values));
  }
}

// ---------------------------------------------------------------------------------------

// After an abort, just-bash can leave a command's own promise to reject later with
// ExecutionAbortedError (its exec() has already settled); that is not a failure here.
process.on("unhandledRejection", (reason) => {
  if (reason?.name === "ExecutionAbortedError") return;
  throw reason;
});

// A reader that goes away (`chromafs exec "cat /big.md" | head`) ends the tool quietly.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof UsageError) {
      process.stderr.write(`chromafs: ${error.message}\nTry 'chromafs --help'.\n`);
      process.exitCode = 2;
    } else if (error instanceof CliError || typeof error?.code === "string") {
      // Expected failures: filesystem and Chroma errors carry a code and a full message.
      process.stderr.write(`chromafs: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`chromafs: unexpected error: ${error?.stack ?? error}\n`);
      process.exitCode = 1;
    }
  },
);
