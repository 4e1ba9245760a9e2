// Several collections in one shell: each mounted as a top-level directory (`/docs`,
// `/api`), with its own tree, access, embedding model and caches. Every mount is a
// ChromaFs of its own that shows its pages under its directory (`mountAt`), so a command
// that stays inside one mount is that mount's command, pushed down to Chroma exactly as
// on a single collection. A recursive grep that reaches several mounts (`grep -rn x /`) is
// split into one grep per mount where their outputs joined are its output, as the core
// plans it; any other command that reaches several runs as just-bash's own over all of
// them, within one budget that every mount draws on (the first mount's limits). `search`
// asks each mount and interleaves their hits by rank. Paths outside every mount (the
// scratch directory) belong to the first mount.

import { bracketed } from "./bracket.js";
import { searchCommand, toolCommand, COMMAND_NAMES } from "./commands.js";
import { withFailures } from "./failures.js";
import { SEARCH_COMMANDS, TOOL_COMMANDS, RANKED } from "./names.js";
import { LOAD_TOOLS } from "./tools.js";
import { versionSessions, versionUnknown, connectRefused } from "./versioned.js";

/** A mount directory as given (`/docs`, `/docs/`) → its name (`docs`), or an error. */
function mountName(dir) {
  const [, name] = /^\/([^/]+)\/?$/.exec(String(dir)) ?? [];
  if (!name || name === "." || name === "..") {
    throw new TypeError(`a mount must be a top-level directory such as "/docs", got ${JSON.stringify(dir)}`);
  }
  return name;
}

class MountedFs {
  /** The mounts of one version each opened for these (see `ofVersion`). */
  #versions;
  /**
   * `mounts`: [name, ChromaFs] pairs, the first holding what is outside every mount;
   * `ChromaFs`: their class, whose parsers read command lines as the mounts' commands do.
   */
  constructor(mounts, ChromaFs, versions = null) {
    this.ChromaFs = ChromaFs;
    this.#versions = versions;
    this.mounts = [...mounts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    [this.homeName, this.home] = mounts[0];
    this.byName = new Map(this.mounts);
  }

  /** The mount a normalised path is in: its ChromaFs, or null for `/` itself. */
  owner(path) {
    if (path === "/") return null;
    const name = path.slice(1).split("/")[0];
    return this.byName.get(name) ?? this.home;
  }

  at(path) {
    return this.owner(this.resolvePath("/", path)) ?? this.home;
  }

  isRoot(path) {
    return this.resolvePath("/", path) === "/";
  }

  get all() {
    return this.mounts.map((m) => m[1]);
  }

  resolvePath(base, path) {
    return this.home.resolvePath(base, path);
  }
  readFile(path, options) {
    return this.at(path).readFile(path, options);
  }
  readFileBuffer(path) {
    return this.at(path).readFileBuffer(path);
  }
  writeFile(path, content, options) {
    return this.at(path).writeFile(path, content, options);
  }
  appendFile(path, content, options) {
    return this.at(path).appendFile(path, content, options);
  }
  writeError(path) {
    if (this.isRoot(path)) return Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${path}'`), { code: "EISDIR" });
    return this.at(path).writeError(path);
  }
  /** The scratch directory is the first mount's. */
  saveScratch() {
    return this.home.saveScratch();
  }
  restoreScratch(saved) {
    return this.home.restoreScratch(saved);
  }
  exists(path) {
    return this.at(path).exists(path);
  }
  async stat(path) {
    if (!this.isRoot(path)) return this.at(path).stat(path);
    // The root is as new as the newest mount.
    const all = await Promise.all(this.all.map((fs) => fs.stat("/")));
    const newest = all.reduce((a, b) => (b.mtime > a.mtime ? b : a));
    return { ...all[0], mtime: newest.mtime };
  }
  lstat(path) {
    return this.at(path).lstat(path);
  }
  mkdir(path, options) {
    return this.at(path).mkdir(path, options);
  }
  async readdir(path) {
    if (!this.isRoot(path)) return this.at(path).readdir(path);
    const names = new Set();
    for (const fs of this.all) for (const n of await fs.readdir("/")) names.add(n);
    return [...names].sort();
  }
  async readdirWithFileTypes(path) {
    if (!this.isRoot(path)) return this.at(path).readdirWithFileTypes(path);
    const entries = new Map();
    for (const fs of this.all) for (const e of await fs.readdirWithFileTypes("/")) if (!entries.has(e.name)) entries.set(e.name, e);
    return [...entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  rm(path, options) {
    return this.at(path).rm(path, options);
  }
  cp(src, dest, options) {
    return this.at(src).cp(src, dest, options);
  }
  mv(src, dest) {
    return this.at(src).mv(src, dest);
  }
  getAllPaths() {
    return [...new Set(this.all.flatMap((fs) => fs.getAllPaths()))].sort();
  }
  chmod(path, mode) {
    return this.at(path).chmod(path, mode);
  }
  symlink(target, linkPath) {
    return this.at(linkPath).symlink(target, linkPath);
  }
  link(existingPath, newPath) {
    return this.at(newPath).link(existingPath, newPath);
  }
  readlink(path) {
    return this.at(path).readlink(path);
  }
  realpath(path) {
    return this.at(path).realpath(path);
  }
  utimes(path, atime, mtime) {
    return this.at(path).utimes(path, atime, mtime);
  }

  /** One command over every mount: marks to hand back to `endCommand`. */
  beginCommand(limits) {
    return this.all.map((fs) => fs.beginCommand(limits));
  }
  endCommand(marks) {
    const reports = this.all.map((fs, i) => fs.endCommand(marks[i]));
    return { total: reports.reduce((n, r) => n + r.total, 0), unreported: reports.flatMap((r) => r.unreported), reports };
  }
  abortCommand() {
    for (const fs of this.all) fs.abortCommand();
  }
  /** Each mount states its own pages' headings, in one request at most; a path in no mount has none. */
  async pageHeadings(paths) {
    const headings = paths.map(() => ({ title: null, description: null }));
    await Promise.all(
      [...this.#byMount(paths)].map(async ([fs, at]) => {
        const got = await fs.pageHeadings(at.map((i) => paths[i]));
        at.forEach((i, k) => (headings[i] = got[k]));
      }),
    );
    return headings;
  }
  async pageTitles(paths) {
    return (await this.pageHeadings(paths)).map((h) => h.title);
  }
  /** Each mount plans the reads of its own pages. */
  planReads(paths) {
    for (const [fs, at] of this.#byMount(paths)) fs.planReads(at.map((i) => paths[i]));
  }
  /** The indexes of `paths` under each mount. */
  #byMount(paths) {
    const byMount = new Map();
    paths.forEach((p, i) => {
      const fs = this.byName.get(this.resolvePath("/", p).slice(1).split("/")[0]);
      if (fs) byMount.set(fs, [...(byMount.get(fs) ?? []), i]);
    });
    return byMount;
  }
  async isCurrent() {
    const current = await Promise.all(this.all.map((fs) => fs.isCurrent()));
    return current.every(Boolean);
  }
  /** The mounts of `version` alone and their pages of none (see ChromaFs's `ofVersion`). */
  async ofVersion(version) {
    return (await this.#leaseVersion(version, false)).fs;
  }
  /** The mounts of `version` held until `release()` (see ChromaFs's `leaseVersion`). */
  leaseVersion(version) {
    return this.#leaseVersion(version, true);
  }
  async #leaseVersion(version, counted) {
    if (!this.#versions) throw new TypeError("ofVersion: these mounts were not opened by ChromaFs.connectMounts");
    const lease = await this.#versions.lease(version, counted);
    return { fs: lease.fs ?? this, release: lease.release };
  }
  free() {
    this.#versions?.free();
    for (const fs of this.all) fs.free();
  }

  /** Each mount's statistics, by directory, and their requests and files summed. */
  stats() {
    const mounts = Object.fromEntries(this.mounts.map(([name, fs]) => [`/${name}`, fs.stats()]));
    const sum = (field) => Object.values(mounts).reduce((n, s) => n + (s[field] ?? 0), 0);
    return { requests: sum("requests"), files: sum("files"), mounts };
  }
  /** Each mount's `info()`, by directory. */
  info() {
    return { mounts: Object.fromEntries(this.mounts.map(([name, fs]) => [`/${name}`, fs.info()])) };
  }

  /**
   * Why `version` can be no search's nor session's over these mounts, when none of them
   * has a page of it (a mount that has none shows its pages of no version), else null.
   */
  unknownVersion(version) {
    const seen = this.mounts.map(([name, fs]) => [name, fs.versions()]);
    // Mounts scoped to a version have that one alone.
    const scope = seen.find(([, v]) => v.scoped)?.[1].default;
    if (scope != null && scope !== version) return versionUnknown(version, [scope]);
    if (seen.some(([, v]) => v.mountVersions === undefined && v.versions.includes(version))) return null;
    const each = seen.map(([name, v]) => `/${name}: ${(v.mountVersions ?? v.versions).join(", ") || "none"}`);
    return `version ${JSON.stringify(version)} does not exist in any mount; the versions of each are ${each.join("; ")}`;
  }

  /** The mounts a ranked search under `dir` reads: one, or all of them for `/`. */
  searched(dir) {
    const owner = this.owner(dir);
    return owner ? [owner] : this.all;
  }

  /** `fs.search()` over the mounts: each mount's hits, interleaved by rank. */
  async search(query, options = {}) {
    const dir = this.resolvePath(options.cwd ?? "/", options.path ?? ".");
    // Without `k`, as many as the search command shows by default.
    const k = options.k ?? this.ChromaFs.readSearchLine([], "/").k;
    const unknown = options.version === undefined ? null : this.unknownVersion(options.version);
    if (unknown) throw Object.assign(new Error(`EINVAL: invalid argument, search '${dir}': ${unknown}`), { code: "EINVAL" });
    const ranked = await Promise.all(this.searched(dir).map((fs) => fs.search(query, { ...options, cwd: "/", path: dir })));
    const hits = interleave(ranked, k);
    // A version no mount answers: the other versions' pages that do, as each mount names them.
    const others = hits.length ? [] : interleave(ranked.map((r) => r.otherVersions ?? []), OTHER_VERSIONS);
    return others.length ? Object.assign(hits, { otherVersions: others }) : hits;
  }

  /** The `search` command over the mounts (see `search --help`). */
  async searchCommand(args, cwd) {
    // Read by the command's own parser: its help, its pages and its directory.
    const line = this.ChromaFs.readSearchLine(args, this.resolvePath(cwd, "."));
    const mounts = this.searched(line.dir ?? this.resolvePath(cwd, "."));
    const unknown = typeof line.version === "string" ? this.unknownVersion(line.version) : null;
    if (unknown && !line.help) return { stdout: "", stderr: `search: ${unknown}\n`, exitCode: 2 };
    if (mounts.length === 1 || line.help) return mounts[0].searchCommand(args, cwd);
    const ran = await Promise.all(mounts.map((fs) => fs.searchCommand(args, cwd)));
    const usage = ran.find((r) => r.exitCode === 2 && !r.stdout);
    if (usage && ran.every((r) => r.exitCode === 2)) return usage;
    const blocks = interleave(ran.map((r) => r.blocks ?? []), line.k);
    const hits = interleave(ran.map((r) => r.hits ?? []), line.k);
    const stderr = ran.filter((r) => r.exitCode === 2).map((r) => r.stderr).join("");
    const others = ran.filter((r) => r.otherVersions?.length);
    if (!blocks.length && !stderr && others.length) {
      // Each mount names its own pages of other versions.
      const otherVersions = interleave(others.map((r) => r.otherVersions), OTHER_VERSIONS);
      return { stdout: "", stderr: others.map((r) => r.stderr).join(""), exitCode: 1, blocks, hits, otherVersions };
    }
    if (!blocks.length && !stderr) return { stdout: "", stderr: "search: no page answers the query\n", exitCode: 1 };
    return { stdout: blocks.join(""), stderr, exitCode: stderr ? 2 : 0, blocks, hits };
  }

  /** just-bash custom commands over the mounts (pass as `customCommands`). */
  commands() {
    const own = new Map(this.mounts.map(([, fs]) => [fs, new Map(fs.commands().map((c) => [c.name, c]))]));
    return COMMAND_NAMES.map((name) => ({
      name,
      execute: async (args, ctx) => {
        if (name === RANKED) return searchCommand(this, args, ctx);
        // The tools read through the shell's filesystem, whichever mounts that reaches.
        if (TOOL_COMMANDS.includes(name)) return toolCommand(this, this.ChromaFs[LOAD_TOOLS], name, args, ctx);
        const split = SEARCH_COMMANDS.includes(name) && name !== "rg" ? await this.splitSearch(name, args, ctx.cwd) : null;
        if (split) return this.runSplit(split, (fs, a) => own.get(fs).get(name).execute(a, { ...ctx, fs }));
        const mounts = await this.reached(args, ctx.cwd);
        if (mounts.length === 1) {
          // The mount's own command, on a context whose filesystem is that mount: it is
          // then answered (or narrowed) there, as on a single collection.
          return own.get(mounts[0]).get(name).execute(args, { ...ctx, fs: mounts[0] });
        }
        if (typeof ctx.origCommand !== "function") return { stdout: "", stderr: `bash: ${name}: command not found\n`, exitCode: 127 };
        const ran = await bracketed(this, ctx.signal, () => ctx.origCommand(args));
        const failCode = SEARCH_COMMANDS.includes(name) ? 2 : 1;
        return withFailures(name, ran.result, ran.report, (p) => this.resolvePath(ctx.cwd, p), failCode);
      },
    }));
  }

  /**
   * A grep over several mounts as one grep per mount, each its mount's own search pushed
   * down to its collection, when their outputs joined are its output: `[fs, args]` pairs,
   * or `null`. The split is planned by the search's own parser (`ChromaFs.splitSearch`).
   */
  async splitSearch(name, args, cwd) {
    const root = await this.readdir("/");
    const names = this.mounts.map(([n]) => n);
    const parts = this.ChromaFs.splitSearch(name, args, cwd, names, this.homeName, root);
    return parts && parts.map((p) => [this.byName.get(p.mount), p.args]);
  }

  /** The parts of a split search, one after another, as one command's output. */
  async runSplit(parts, run) {
    const results = [];
    for (const [fs, args] of parts) results.push(await run(fs, args));
    // A usage error is said once, as the whole command says it.
    const [first] = results;
    const same = (r) => r.stdout === first.stdout && r.stderr === first.stderr && r.exitCode === first.exitCode;
    if (first.stderr && !first.stdout && results.every(same)) return first;
    const code = results.some((r) => r.exitCode === 2) ? 2 : results.some((r) => r.exitCode === 0) ? 0 : 1;
    return { stdout: results.map((r) => r.stdout).join(""), stderr: results.map((r) => r.stderr).join(""), exitCode: code };
  }

  /**
   * The mounts a command line reaches: those of the arguments that name existing paths,
   * or the working directory's when none does; every mount when one of them is `/` or
   * the command may run others (`bash`, `xargs`).
   */
  async reached(args, cwd) {
    const paths = [];
    for (const a of args) {
      if (a.startsWith("-") || a.includes("\0")) continue;
      const p = this.resolvePath(cwd, a);
      if (await this.exists(p).catch(() => false)) paths.push(p);
    }
    if (!paths.length) paths.push(this.resolvePath("/", cwd));
    const owners = new Set(paths.map((p) => this.owner(p)));
    return owners.has(null) ? this.all : [...owners];
  }
}

/** The most pages of other versions a search of one version names (as a single collection's search does). */
const OTHER_VERSIONS = 3;

/** Rankings merged by rank (the first of each, then the second of each…), the first `k`. */
function interleave(rankings, k) {
  const out = [];
  for (let rank = 0; out.length < k && rankings.some((r) => rank < r.length); rank++) {
    for (const r of rankings) if (rank < r.length && out.length < k) out.push(r[rank]);
  }
  return out;
}

/**
 * Connects every mount of `options.mounts` (`{ "/docs": "collection" }`, or an object of
 * options for that mount: `{ collection, ...overrides }`), each with the other options.
 */
async function connectMounts(ChromaFs, options) {
  const { mounts, scratch, ...common } = options ?? {};
  const given = Object.entries(mounts ?? {});
  if (!given.length) throw new TypeError("connectMounts: mounts must name at least one directory and its collection");
  const names = new Set();
  const specs = given.map(([dir, spec]) => {
    const name = mountName(dir);
    if (names.has(name)) throw new TypeError(`mount /${name} is given twice`);
    names.add(name);
    return [name, typeof spec === "string" ? { collection: spec } : spec];
  });
  const opened = [];
  try {
    for (const [i, [name, spec]] of specs.entries()) {
      const own = { ...common, ...spec, mountAt: `/${name}`, ...(i === 0 && scratch ? { scratch } : {}) };
      opened.push([name, await ChromaFs[CONNECT_MOUNT](own)]);
    }
  } catch (e) {
    for (const [, fs] of opened) fs.free();
    throw e;
  }
  // One command over several mounts may send what one command may, not that much a mount.
  for (const [, fs] of opened.slice(1)) fs.shareBudget(opened[0][1]);
  const versions = versionSessions((version) => connectMounts(ChromaFs, { ...options, version }), options.version);
  const mounted = new MountedFs(opened, ChromaFs, versions);
  // A version some mounts lack: they show their pages of no version; one that none has is an error.
  const unknown = common.version === undefined ? null : mounted.unknownVersion(common.version);
  if (unknown) {
    mounted.free();
    throw connectRefused(unknown);
  }
  return mounted;
}

/** How `connectMounts` opens a mount: as `ChromaFs.connect`, but a version it lacks is the mounts' to judge. */
const CONNECT_MOUNT = Symbol("connect a mount");

export { connectMounts, CONNECT_MOUNT };
