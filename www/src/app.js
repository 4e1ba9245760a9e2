// The demo page: a terminal running just-bash over a chromafs filesystem, in the browser.
// Chroma is reached through the page server's same-origin proxy at /chroma.
import { Bash } from "just-bash/browser";
import { ChromaFs, safeExec } from "chromafs";
import "./style.css";

const ROLES = {
  public: [],
  billing: ["billing"],
  oncall: ["oncall"],
  admin: ["admin"],
};
const CHROMA_URL = location.origin + "/chroma"; // absolute: chromafs rejects relative URLs
const MAX_SHOWN = 200_000; // characters of one stream shown in the page
const HISTORY_KEY = "chromafs-demo-history";
// Strips terminal colour and cursor sequences; the page styles streams itself.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(?:\x07|\x1b\\)/g;

const $ = (id) => document.getElementById(id);
const ui = {
  groups: $("groups"),
  status: $("status"),
  terminal: $("terminal"),
  scrollback: $("scrollback"),
  form: $("form"),
  prompt: $("prompt"),
  input: $("input"),
};

const state = {
  collection: "",
  role: "public",
  fs: null,
  bash: null,
  cwd: "/",
  env: undefined,
  searches: 0, // search commands run through fs.commands(), to tell which stats entries are new
  running: null, // AbortController of the command in progress
  connecting: false,
  history: loadHistory(),
  historyAt: -1,
  draft: "",
};

// ---------------------------------------------------------------------------------------
// Connecting

/** Embeds texts through the demo server's POST /embed. */
async function embedThroughServer(texts) {
  const res = await fetch("/embed", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ texts }) });
  if (!res.ok) throw new Error(`/embed answered ${res.status}: ${(await res.text()).trim()}`);
  return (await res.json()).embeddings;
}

async function connect(role) {
  state.connecting = true;
  ui.groups.disabled = true;
  ui.input.disabled = true;
  const groups = ROLES[role];
  const started = performance.now();
  const line = system(`connecting as ${role}…`);
  let fs;
  try {
    // /tmp is this session's own, in memory: `grep … > /tmp/hits; wc -l /tmp/hits` works.
    fs = await ChromaFs.connect({ url: CHROMA_URL, collection: state.collection, groups, scratch: "/tmp", embed: state.embed });
  } catch (error) {
    line.remove();
    system(`could not open collection ${state.collection} as ${role}: ${error.message}`, "error");
    system("pick a group to try again");
    setStatus("Not connected", true);
    ui.status.title = error.message;
    state.connecting = false;
    ui.groups.disabled = false;
    ui.input.disabled = !state.bash;
    if (!state.bash) document.body.dataset.error = "1";
    return false;
  }
  const ms = performance.now() - started;
  const old = state.fs;
  state.fs = fs;
  state.role = role;
  state.bash = new Bash({ fs, cwd: "/", customCommands: counted(fs.commands()) });
  state.env = undefined;
  // Stay where we were if that directory is still visible to the new groups.
  const here = await fs.stat(state.cwd).catch(() => null);
  if (!here || !here.isDirectory) state.cwd = "/";
  if (old) old.free();

  const s = fs.stats();
  const tree = s.treeFromCache ? "tree from this page's cache" : "tree loaded";
  line.textContent =
    `connected as ${role}${groups.length ? ` (groups: ${groups.join(", ")})` : " (no groups: public pages only)"} · ` +
    `${plural(s.files, "file")} visible · ${tree} · ${plural(s.requests, "request")} · ${formatMs(ms)}`;
  line.dataset.role = role;
  setStatus(`${plural(s.files, "file")} visible in ${state.collection}`);
  ui.status.title = `collection ${fs.info().collectionId}, tree ${fs.info().treeVersion}`;
  renderPrompt();
  state.connecting = false;
  ui.groups.disabled = false;
  ui.input.disabled = false;
  document.body.dataset.role = role;
  delete document.body.dataset.error;
  document.body.dataset.ready = "1";
  return true;
}

/** Wraps the search commands to count how many ran, so a command's plans can be shown. */
function counted(commands) {
  return commands.map((command) => ({
    ...command,
    execute(args, ctx) {
      state.searches += 1;
      return command.execute(args, ctx);
    },
  }));
}

// ---------------------------------------------------------------------------------------
// Running commands

async function run(line) {
  const command = line.trim();
  if (!command) {
    echo(line).dataset.state = "done";
    return;
  }
  remember(command);
  if (command === "clear") {
    ui.scrollback.replaceChildren();
    return;
  }
  const entry = echo(line);
  const { fs, bash } = state;
  const options = { cwd: state.cwd, signal: (state.running = new AbortController()).signal };
  if (state.env) Object.assign(options, { env: state.env, replaceEnv: true });
  document.body.dataset.busy = "1";
  ui.input.readOnly = true;
  ui.groups.disabled = true;

  try {
    await execute(entry, fs, bash, line, options);
  } catch (error) {
    // Not expected (safeExec resolves on every command failure), but never leave the page stuck.
    output(entry, "stderr", `${error?.message ?? error}\n`);
    entry.dataset.state = "done";
    entry.dataset.exit = "1";
  } finally {
    state.running = null;
    delete document.body.dataset.busy;
    ui.input.readOnly = false;
    ui.groups.disabled = false;
    renderPrompt();
    scrollDown();
  }
}

async function execute(entry, fs, bash, line, options) {
  const before = fs.stats();
  const searchesBefore = state.searches;
  const started = performance.now();
  const result = await safeExec(bash, line, options);
  const ms = performance.now() - started;
  const aborted = options.signal.aborted;

  if (result.env?.PWD) {
    // Normalised: `cd ../x` from a top-level directory leaves PWD as `//x`.
    state.cwd = fs.resolvePath("/", result.env.PWD);
    const { "?": _status, ...env } = result.env;
    state.env = { ...env, PWD: state.cwd };
  }
  const after = fs.stats();
  const newSearches = Math.min(state.searches - searchesBefore, after.commands.length);
  const plans = newSearches > 0 ? after.commands.slice(-newSearches) : [];

  const stderr = aborted ? result.stderr.replace(/^bash: execution aborted\n/m, "") + "^C\n" : result.stderr;
  const exitCode = aborted ? 130 : result.exitCode;
  output(entry, "stdout", result.stdout);
  output(entry, "stderr", stderr);
  meta(entry, {
    exitCode,
    ms,
    requests: after.requests - before.requests,
    bytes: after.bytesReceived - before.bytesReceived,
    cacheHits: after.cacheHits - before.cacheHits,
    plans,
  });
  entry.dataset.state = "done";
  entry.dataset.exit = String(exitCode);
}

/** Adds a command's entry with its prompt line. */
function echo(line) {
  const entry = el("div", "entry");
  entry.dataset.state = "running";
  const cmd = el("div", "cmdline");
  cmd.append(promptNode(), el("span", "cmd", line));
  entry.append(cmd);
  ui.scrollback.append(entry);
  scrollDown();
  return entry;
}

function output(entry, stream, text) {
  if (!text) return;
  let shown = text.replace(ANSI, "");
  let cut = "";
  if (shown.length > MAX_SHOWN) {
    cut = `\n… ${plural(shown.length - MAX_SHOWN, "more character")} not shown`;
    shown = shown.slice(0, MAX_SHOWN);
  }
  const pre = el("pre", `out ${stream}`, shown.endsWith("\n") ? shown.slice(0, -1) : shown);
  if (cut) pre.append(el("span", "cut", cut));
  entry.append(pre);
}

function meta(entry, { exitCode, ms, requests, bytes, cacheHits, plans }) {
  const line = el("div", "meta");
  const exit = el("span", `exit ${exitCode === 0 ? "ok" : "fail"}`, `exit ${exitCode}`);
  const time = el("span", "time", formatMs(ms));
  const req = el("span", "requests", requests === 0 ? "0 requests" : `${plural(requests, "request")} · ${formatBytes(bytes)}`);
  req.title = "Chroma requests this command made (fs.stats().requests)";
  if (requests === 0 && cacheHits > 0) req.textContent += " (cached)";
  entry.dataset.requests = String(requests);
  line.append(exit, dot(), time, dot(), req);
  for (const p of plans) {
    const plan = el("span", `plan plan-${p.plan}`, describePlan(p));
    plan.title =
      `${p.command}\nplan ${p.plan}: ${p.scope} in scope, ${p.candidates} candidates, ${p.searched} searched, ` +
      `${p.coarseMatches} coarse matches` + (p.note ? `\n${p.note}` : "");
    line.append(dot(), plan);
  }
  if (plans.length) entry.dataset.plan = plans.at(-1).plan;
  entry.append(line);
}

/** e.g. "narrow · 1 coarse + 1 prefetch · 2 of 4 files". */
function describePlan(p) {
  const parts = [p.plan];
  const reqs = [];
  if (p.coarseRequests) reqs.push(`${p.coarseRequests} coarse`);
  if (p.prefetchRequests) reqs.push(`${p.prefetchRequests} prefetch`);
  parts.push(reqs.length ? reqs.join(" + ") : "no requests");
  if (p.plan === "narrow") parts.push(`${p.candidates} of ${plural(p.scope, "file")}`);
  else if (p.plan === "prefetch") parts.push(plural(p.scope, "file"));
  return parts.join(" · ");
}

// ---------------------------------------------------------------------------------------
// Input: history, completion, Ctrl-C, Ctrl-L

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (state.running || state.connecting || !state.bash) return;
  const line = ui.input.value;
  ui.input.value = "";
  state.historyAt = -1;
  state.draft = "";
  run(line);
});

ui.input.addEventListener("keydown", (event) => {
  const { key } = event;
  if (key === "ArrowUp" || key === "ArrowDown") {
    event.preventDefault();
    browseHistory(key === "ArrowUp" ? 1 : -1);
  } else if (key === "Tab" && !event.shiftKey) {
    if (state.running || !state.fs) return;
    event.preventDefault();
    complete();
  } else if (event.ctrlKey && (key === "c" || key === "C") && !hasSelection()) {
    event.preventDefault();
    if (state.running) {
      state.running.abort();
    } else {
      echo(ui.input.value + "^C").dataset.state = "done";
      ui.input.value = "";
      state.historyAt = -1;
    }
  } else if (event.ctrlKey && (key === "l" || key === "L")) {
    event.preventDefault();
    ui.scrollback.replaceChildren();
  }
});

function browseHistory(step) {
  const { history } = state;
  if (!history.length) return;
  if (state.historyAt === -1) state.draft = ui.input.value;
  const next = Math.max(-1, Math.min(history.length - 1, state.historyAt + step));
  state.historyAt = next;
  ui.input.value = next === -1 ? state.draft : history[history.length - 1 - next];
  const end = ui.input.value.length;
  ui.input.setSelectionRange(end, end);
}

function remember(command) {
  const { history } = state;
  if (history.at(-1) !== command) history.push(command);
  if (history.length > 200) history.splice(0, history.length - 200);
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  } catch {
    // storage may be unavailable (private mode); history then lasts for the page
  }
}

function loadHistory() {
  try {
    const saved = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? "[]");
    return Array.isArray(saved) ? saved.filter((s) => typeof s === "string") : [];
  } catch {
    return [];
  }
}

/** Completes the path under the cursor from the directory listing. */
async function complete() {
  const { fs } = state;
  const value = ui.input.value;
  const caret = ui.input.selectionStart ?? value.length;
  const head = value.slice(0, caret);
  const word = /[^\s'"]*$/.exec(head)[0];
  if (head.length === word.length && !word.includes("/")) return; // a command name
  const slash = word.lastIndexOf("/");
  const dirPart = slash === -1 ? "" : word.slice(0, slash + 1);
  const base = word.slice(slash + 1);
  let entries;
  try {
    entries = await fs.readdirWithFileTypes(fs.resolvePath(state.cwd, dirPart || "."));
  } catch {
    return;
  }
  const matches = entries.filter((e) => e.name.startsWith(base));
  if (!matches.length) return;
  let insert;
  if (matches.length === 1) {
    const [only] = matches;
    insert = only.name.slice(base.length) + (only.isDirectory ? "/" : " ");
  } else {
    let common = matches[0].name;
    for (const m of matches) while (!m.name.startsWith(common)) common = common.slice(0, -1);
    insert = common.slice(base.length);
    if (!insert) {
      const listing = el("div", "entry completions");
      listing.dataset.state = "done";
      listing.append(el("pre", "out stdout", matches.map((m) => m.name + (m.isDirectory ? "/" : "")).join("  ")));
      ui.scrollback.append(listing);
      scrollDown();
      return;
    }
  }
  ui.input.value = head + insert + value.slice(caret);
  const at = caret + insert.length;
  ui.input.setSelectionRange(at, at);
}

function hasSelection() {
  const input = ui.input;
  return input.selectionStart !== input.selectionEnd || String(getSelection() ?? "") !== "";
}

// Clicking the terminal (not to select text) puts the cursor in the input.
ui.terminal.addEventListener("click", (event) => {
  if (event.target.closest("a, button, input") || String(getSelection() ?? "") !== "") return;
  ui.input.focus({ preventScroll: true });
});

for (const button of document.querySelectorAll(".example")) {
  button.addEventListener("click", () => {
    if (state.running || state.connecting || !state.bash) return;
    ui.input.value = "";
    run(button.dataset.command);
    ui.input.focus({ preventScroll: true });
  });
}

ui.groups.addEventListener("change", async (event) => {
  const role = event.target.value;
  if (!Object.hasOwn(ROLES, role) || (role === state.role && state.fs)) return;
  const ok = await connect(role);
  if (!ok) setRole(state.role);
  ui.input.focus({ preventScroll: true });
});

// ---------------------------------------------------------------------------------------
// Small helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function dot() {
  return el("span", "dot", " · ");
}

function promptNode() {
  const p = el("span", "prompt");
  p.append(el("span", "who", state.role), el("span", "sep", ":"), el("span", "cwd", state.cwd), el("span", "dollar", "$"));
  return p;
}

function renderPrompt() {
  ui.prompt.replaceChildren(...promptNode().childNodes);
}

function system(text, kind = "") {
  const line = el("div", `sys ${kind}`.trim(), text);
  ui.scrollback.append(line);
  scrollDown();
  return line;
}

function setStatus(text, error = false) {
  ui.status.textContent = text;
  ui.status.classList.toggle("error", error);
}

function setRole(role) {
  for (const radio of ui.groups.querySelectorAll("input")) radio.checked = radio.value === role;
}

function scrollDown() {
  ui.scrollback.scrollTop = ui.scrollback.scrollHeight;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function formatMs(ms) {
  return ms < 10 ? `${ms.toFixed(1)} ms` : ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

// ---------------------------------------------------------------------------------------
// Start

async function main() {
  $("loading")?.remove();
  let config;
  try {
    const response = await fetch("/config.json", { cache: "no-store" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    config = await response.json();
  } catch (error) {
    system(`could not read /config.json: ${error.message}`, "error");
    setStatus("Not connected", true);
    document.body.dataset.error = "1";
    return;
  }
  state.collection = String(config.collection ?? "");
  // The query of a `search` is embedded by the demo server, as a host's own embedding
  // service would embed it (the model does not run in the page).
  if (config.embed) state.embed = { model: "all-MiniLM-L6-v2", embed: embedThroughServer };
  const fromUrl = new URLSearchParams(location.search).get("as");
  const role = Object.hasOwn(ROLES, fromUrl ?? "") ? fromUrl : "public";
  setRole(role);
  system(`chromafs · collection ${state.collection} through ${CHROMA_URL}`);
  if (await connect(role)) {
    system("type a command, or pick one above; switch groups to see the internal pages appear");
    ui.input.focus({ preventScroll: true });
  }
}

main();
