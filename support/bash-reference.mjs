// GNU bash as an agent's own shell over the docs: the reference for multi-step work. The
// docs are a copy laid out on tmpfs (layCopy: byte-ordered walks), mounted read-only at
// /docs of a root of its own, beside a writable /tmp that lasts from one call to the next;
// GNU bash 5, coreutils, grep, sed, gawk, diffutils and findutils come from this machine's
// /usr, and ripgrep from .tools. Each call runs in a user and mount namespace
// (`unshare -r -m`) chrooted there, in the directory the last call ended in, with nothing
// rewritten: the paths the tools see are the paths chromafs shows.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./files.mjs";
import { layCopy } from "./gnu-reference.mjs";

const RG_DIR = path.join(ROOT, ".tools/ripgrep/bin");

/** Why the reference cannot run here, or null when it can. */
export function bashReferenceMissing() {
  if (process.platform !== "linux") return "needs Linux";
  const probe = spawnSync("unshare", ["-r", "-m", "true"], { encoding: "utf8" });
  if (probe.status !== 0) return `needs user and mount namespaces (unshare -r -m: ${(probe.stderr || probe.error?.message || "").trim()})`;
  if (!/GNU bash, version 5\./.test(spawnSync("bash", ["--version"], { encoding: "utf8" }).stdout ?? "")) return "needs GNU bash 5";
  if (!existsSync(path.join(RG_DIR, "rg"))) return "needs ripgrep in .tools/ripgrep (scripts/setup.sh)";
  if (!/^GNU Awk 5\./.test(spawnSync("awk", ["--version"], { encoding: "utf8" }).stdout ?? "")) return "needs gawk 5 as awk (scripts/setup.sh installs it)";
  return null;
}

/** The top-level entries of this machine's / that the chroot takes from it (programs, libraries, devices). */
const SYSTEM = ["usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc"];

/**
 * A shell over `files` (`{ path, content, mtime? }`, paths below /docs): `run(line)` runs
 * one command line as `bash -c` would, in the directory the previous line left, and
 * resolves with `{ stdout, stderr, exitCode, cwd }`; `close()` removes everything.
 */
export function bashSession(files) {
  const copy = layCopy(files);
  const base = mkdtempSync("/dev/shm/chromafs-bash-");
  const root = path.join(base, "root");
  const tmp = path.join(base, "tmp");
  const out = path.join(base, "out");
  for (const d of [root, tmp, out, path.join(root, "docs"), path.join(root, "tmp"), path.join(root, "dev"), path.join(root, "proc"), path.join(root, "opt/rg")]) mkdirSync(d, { recursive: true });
  const binds = [];
  for (const name of SYSTEM) {
    const from = `/${name}`;
    if (!existsSync(from)) continue;
    const st = lstatSync(from);
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), path.join(root, name));
    else {
      mkdirSync(path.join(root, name));
      binds.push([from, path.join(root, name)]);
    }
  }
  const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  // Inside the namespace: the system read-only, /dev, the docs read-only, /tmp writable.
  const setup = [
    ...binds.map(([from, to]) => `mount --rbind ${q(from)} ${q(to)}`),
    `mount --rbind /dev ${q(path.join(root, "dev"))}`,
    // Process substitution's /dev/fd/63 is /proc/self/fd/63.
    `mount --rbind /proc ${q(path.join(root, "proc"))}`,
    `mount --bind ${q(RG_DIR)} ${q(path.join(root, "opt/rg"))}`,
    `mount --bind ${q(copy.root)} ${q(path.join(root, "docs"))}`,
    `mount -o remount,bind,ro ${q(path.join(root, "docs"))}`,
    `mount --bind ${q(tmp)} ${q(path.join(root, "tmp"))}`,
  ].join(" && ");
  let cwd = "/";
  return {
    run(line) {
      const script = `cd -- "$CHROMAFS_CWD" || exit 99; trap 'pwd >&3' EXIT; ${line}`;
      const inner = `${setup} && exec chroot ${q(root)} /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/opt/rg LC_ALL=C.UTF-8 HOME=/ CHROMAFS_CWD=${q(cwd)} bash -c ${q(script)} 3>${q(path.join(out, "cwd"))}`;
      const r = spawnSync("unshare", ["-r", "-m", "sh", "-c", inner], { encoding: "utf8", maxBuffer: 64 << 20, timeout: 60_000 });
      if (r.error) throw r.error;
      const left = readFileSync(path.join(out, "cwd"), "utf8").trim();
      if (left) cwd = left;
      return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status, cwd };
    },
    close() {
      rmSync(base, { recursive: true, force: true });
      copy.remove();
    },
  };
}
