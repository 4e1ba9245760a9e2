// The ChromaFs class a host holds: the package's own class around a session of the wasm
// module (`src/js/mod.rs`), every public method written out here and forwarded to that
// session. What the class adds is JavaScript's: each call made in the context the package
// was loaded in (see `setup` in api.js), the embedding function a collection records
// (recorded.js), several collections as mounts (mounts.js), and just-bash's custom
// commands (commands.js). The wasm module's objects stay inside: where the Rust side
// answers with a session (`connect`, `withEmbed`), this class answers with a ChromaFs.

import { commandsOf } from "./commands.js";
import { LOAD_TOOLS } from "./tools.js";
import { connectMounts, CONNECT_MOUNT } from "./mounts.js";
import { versionSessions, versionUnknown, connectRefused } from "./versioned.js";
import { recordedChoice } from "./recorded.js";
import { PROBE, reaches } from "./probe.js";
import { commandSignal, stoppable, withStoppableEmbed } from "./stoppable.js";

/** `using fs = await ChromaFs.connect(…)` frees the session, where the runtime has `Symbol.dispose`. */
const DISPOSE = Symbol.dispose ?? Symbol("dispose");

/**
 * The ChromaFs class over `Core`, the wasm module's session class. `run(f)`, when given,
 * calls `f` in the context the package was loaded in (in Node, `AsyncLocalStorage.snapshot()`):
 * every call into the wasm module goes through it. `recipeModule` goes to the embedder made
 * from a collection's record (see recorded.js). `loadTools` returns the tools module, or a
 * promise of it (see tools.js); `loadPerl` hands grep -P's engine to the core (see perl.js).
 */
function chromaFsClass(Core, run, recipeModule, loadTools, loadPerl) {
  const inContext = run ?? ((f) => f());

  class ChromaFs {
    /** The tools module (or a promise of it), loaded on first use: for mounts' commands. */
    static [LOAD_TOOLS] = loadTools;
    /** The wasm module's session. */
    #core;
    /** What `info().collectionEmbedding` adds: whether the function the collection records is used. */
    #recorded;
    /** This session's answer to the probe path (probe.js), equal to no other value. */
    #probeAnswer = Symbol("chromafs session");
    /** The running command's signal, which the embedder's calls get (stoppable.js). */
    #calls;
    /** Whether network causes go to the log: embedding failures then lose their address. */
    #logged;
    /** The sessions of one version each opened for this one (see `ofVersion`). */
    #versions = null;

    /** Made by `connect` and `withEmbed`, around a session of the wasm module. */
    constructor(core, recorded, calls = commandSignal(), logged = false) {
      if (!(core instanceof Core)) throw new TypeError("a ChromaFs is opened with ChromaFs.connect");
      this.#core = core;
      this.#recorded = recorded;
      this.#calls = calls;
      this.#logged = logged;
    }

    /**
     * Opens a session; a collection whose configuration records an embedding service is
     * searched with it, when the host gave no `embed` of its own and chromafs can call it.
     */
    static async connect(options) {
      const fs = await ChromaFs[CONNECT_MOUNT](options);
      // One collection under a directory of its own is no mount among several: a version
      // it has no page of is an error here, as without `mountAt`.
      const lacking = options?.version === undefined ? undefined : fs.versions().mountVersions;
      if (lacking) {
        fs.free();
        throw connectRefused(versionUnknown(options.version, lacking));
      }
      return fs;
    }
    /** `connect` for one of `connectMounts`'s mounts, which may lack the version the others have. */
    static async [CONNECT_MOUNT](options) {
      const fs = await ChromaFs.#open(options);
      fs.#versions = versionSessions((version) => ChromaFs.connect({ ...options, version }), options?.version);
      return fs;
    }
    static async #open(options) {
      const calls = commandSignal();
      const logged = options?.networkErrors === "log";
      const core = await inContext(() => Core.connect(withStoppableEmbed(options, calls, logged)));
      const recorded = recordedChoice(inContext(() => core.info()), options, recipeModule);
      if (!recorded?.embedder) return new ChromaFs(core, recorded?.status, calls, logged);
      try {
        const embed = stoppable(recorded.embedder, calls, logged);
        return new ChromaFs(inContext(() => core.withEmbed({ embed })), recorded.status, calls, logged);
      } finally {
        core.free();
      }
    }
    /** Several collections in one shell, each under a directory of its own. */
    static connectMounts(options) {
      return connectMounts(ChromaFs, options);
    }
    static setProcessCacheBytes(bytes) {
      return inContext(() => Core.setProcessCacheBytes(bytes));
    }
    static forgetTrees() {
      return inContext(() => Core.forgetTrees());
    }
    static splitSearch(name, args, cwd, mounts, home, root) {
      return inContext(() => Core.splitSearch(name, args, cwd, mounts, home, root));
    }
    /** Whether `name` matches `glob` as one segment of bash's pathname expansion; throws for a glob it does not model. */
    static globMatches(glob, name) {
      return Core.globMatches(glob, name);
    }
    static readSearchLine(args, cwd) {
      return inContext(() => Core.readSearchLine(args, cwd));
    }

    readFile(path, options) {
      return inContext(() => this.#core.readFile(path, options));
    }
    readFileBuffer(path) {
      return inContext(() => this.#core.readFileBuffer(path));
    }
    readFileBytes(path) {
      return inContext(() => this.#core.readFileBytes(path));
    }
    writeFile(path, content, options) {
      return inContext(() => this.#core.writeFile(path, content, options));
    }
    appendFile(path, content, options) {
      return inContext(() => this.#core.appendFile(path, content, options));
    }
    exists(path) {
      return inContext(() => this.#core.exists(path));
    }
    stat(path) {
      return inContext(() => this.#core.stat(path));
    }
    lstat(path) {
      return inContext(() => this.#core.lstat(path));
    }
    mkdir(path, options) {
      return inContext(() => this.#core.mkdir(path, options));
    }
    readdir(path) {
      return inContext(() => this.#core.readdir(path));
    }
    readdirWithFileTypes(path) {
      return inContext(() => this.#core.readdirWithFileTypes(path));
    }
    rm(path, options) {
      return inContext(() => this.#core.rm(path, options));
    }
    cp(src, dest, options) {
      return inContext(() => this.#core.cp(src, dest, options));
    }
    mv(src, dest) {
      return inContext(() => this.#core.mv(src, dest));
    }
    /** The probe path (probe.js) is answered with this session's own value; any other path is resolved. */
    resolvePath(base, path) {
      if (path === PROBE) return this.#probeAnswer;
      return inContext(() => this.#core.resolvePath(base, path));
    }
    getAllPaths() {
      return inContext(() => this.#core.getAllPaths());
    }
    chmod(path, mode) {
      return inContext(() => this.#core.chmod(path, mode));
    }
    symlink(target, linkPath) {
      return inContext(() => this.#core.symlink(target, linkPath));
    }
    link(existingPath, newPath) {
      return inContext(() => this.#core.link(existingPath, newPath));
    }
    readlink(path) {
      return inContext(() => this.#core.readlink(path));
    }
    realpath(path) {
      return inContext(() => this.#core.realpath(path));
    }
    utimes(path, atime, mtime) {
      return inContext(() => this.#core.utimes(path, atime, mtime));
    }

    /** Why opening `path` to write would fail (`{ code, message }`, an Error), or null. */
    writeError(path) {
      return inContext(() => this.#core.writeError(path));
    }
    /** The scratch directory's content as bytes, or undefined without one. */
    saveScratch() {
      return inContext(() => this.#core.saveScratch());
    }
    /** Replaces the scratch directory's content with `saveScratch()`'s bytes (null: empty). */
    restoreScratch(saved) {
      return inContext(() => this.#core.restoreScratch(saved ?? null));
    }

    stats() {
      return inContext(() => this.#core.stats());
    }
    /** The session's facts; `collectionEmbedding` also says whether the recorded function is used. */
    info() {
      const facts = inContext(() => this.#core.info());
      if (this.#recorded) facts.collectionEmbedding = { ...facts.collectionEmbedding, ...this.#recorded };
      return facts;
    }
    /** just-bash custom commands for this filesystem (pass as `customCommands`). */
    commands() {
      return commandsOf(this, (ctx) => reaches(ctx.fs, this.#probeAnswer), loadTools, loadPerl);
    }
    planSearch(name, args, cwd, stdinEmpty, ownFs, linesWanted, stdin, stdoutFile) {
      return inContext(() => this.#core.planSearch(name, args, cwd, stdinEmpty, ownFs, linesWanted, stdin, stdoutFile));
    }
    runCommand(name, args, cwd, ownFs, stdin) {
      return inContext(() => this.#core.runCommand(name, args, cwd, ownFs, stdin));
    }
    beginCommand(limits) {
      this.#calls.begin();
      return inContext(() => this.#core.beginCommand(limits));
    }
    /** What each of at most 100 pages states it is, `{ title, description }` (each null when not stated): one request. */
    pageHeadings(paths) {
      return inContext(() => this.#core.pageHeadings(paths));
    }
    /** The title each of at most 100 pages states (front matter, else first heading), or null: one request. */
    async pageTitles(paths) {
      return (await this.pageHeadings(paths)).map((h) => h.title);
    }
    /** The running command will read `paths` in this order: they load in bulk, not a request each. */
    planReads(paths) {
      inContext(() => this.#core.planReads(paths));
    }
    /** The versions of the docs this session may choose among: `{ versions, default, scoped }`. */
    versions() {
      return inContext(() => this.#core.versions());
    }
    isCurrent() {
      return inContext(() => this.#core.isCurrent());
    }
    endCommand(mark) {
      this.#calls.end();
      return inContext(() => this.#core.endCommand(mark));
    }
    abortCommand() {
      this.#calls.abort();
      return inContext(() => this.#core.abortCommand());
    }
    /** From now on this session's commands draw on `other`'s budget (another ChromaFs of this class). */
    shareBudget(other) {
      if (!(other instanceof ChromaFs)) throw new TypeError("shareBudget: other must be a ChromaFs");
      return inContext(() => this.#core.shareBudget(other.#core));
    }
    /** The same session, searching with the embedder of `options`: a ChromaFs of its own. */
    withEmbed(options) {
      const given = withStoppableEmbed(options, this.#calls, this.#logged);
      return new ChromaFs(inContext(() => this.#core.withEmbed(given)), undefined, this.#calls, this.#logged);
    }
    search(query, options) {
      return inContext(() => this.#core.search(query, options));
    }
    searchCommand(args, cwd) {
      return inContext(() => this.#core.searchCommand(args, cwd));
    }
    /**
     * This session's docs, of `version` alone and the pages of none: a session opened with
     * this one's options and `version` the first time, kept for the next (a few versions,
     * the least recently used freed first) and freed with this one. Rejects as
     * `connect({ version })` does for a version this session does not see; a session
     * scoped to `version` is its own.
     */
    async ofVersion(version) {
      return (await this.#leaseVersion(version, false)).fs;
    }
    /** `ofVersion`'s session held for a call: not freed before `release()`, though let go of meanwhile. */
    leaseVersion(version) {
      return this.#leaseVersion(version, true);
    }
    async #leaseVersion(version, counted) {
      if (!this.#versions) throw new TypeError("ofVersion: this session was not opened by ChromaFs.connect");
      const lease = await this.#versions.lease(version, counted);
      return { fs: lease.fs ?? this, release: lease.release };
    }
    free() {
      this.#versions?.free();
      this.#core.free();
    }
    [DISPOSE]() {
      this.free();
    }
  }
  return ChromaFs;
}

export { chromaFsClass };
