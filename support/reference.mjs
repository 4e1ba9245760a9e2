// The reference shell's filesystem: just-bash over an InMemoryFs holding the same files,
// which chromafs's output is compared with, byte for byte, by the tests and benchmarks.
import { InMemoryFs } from "just-bash";

const isDevNull = (p) => typeof p === "string" && p.replace(/\/+/g, "/").replace(/\/$/, "") === "/dev/null";

/**
 * The reference: just-bash's own InMemoryFs with the same files and mtimes (directories
 * get the newest mtime below them, as chromafs reports). It is wrapped in a plain object
 * so Bash does not add its default /bin, /tmp… layout, and it has a /dev/null, as every
 * system does.
 */
export async function referenceFs(files) {
  const init = {};
  const dirTimes = new Map();
  for (const f of files) {
    init[`/${f.path}`] = { content: new Uint8Array(f.content), mtime: new Date(f.mtime) };
    dirTimes.set("/", Math.max(dirTimes.get("/") ?? 0, f.mtime));
    const parts = f.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const d = `/${parts.slice(0, i).join("/")}`;
      dirTimes.set(d, Math.max(dirTimes.get(d) ?? 0, f.mtime));
    }
  }
  const mem = new InMemoryFs(init);
  for (const [d, t] of dirTimes) await mem.utimes(d, new Date(t), new Date(t));
  const fs = {};
  for (const name of [
    "readFile", "readFileBuffer", "readFileBytes", "writeFile", "appendFile", "exists", "stat", "lstat", "mkdir",
    "readdir", "readdirWithFileTypes", "rm", "cp", "mv", "resolvePath", "getAllPaths", "chmod", "symlink", "link",
    "readlink", "realpath", "utimes",
  ]) {
    fs[name] = (...args) => mem[name](...args);
  }
  const devNull = { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o666, size: 0, mtime: new Date(0) };
  fs.writeFile = (p, ...rest) => (isDevNull(p) ? Promise.resolve() : mem.writeFile(p, ...rest));
  fs.appendFile = (p, ...rest) => (isDevNull(p) ? Promise.resolve() : mem.appendFile(p, ...rest));
  fs.exists = async (p) => isDevNull(p) || mem.exists(p);
  fs.stat = (p) => (isDevNull(p) ? Promise.resolve({ ...devNull }) : mem.stat(p));
  fs.lstat = (p) => (isDevNull(p) ? Promise.resolve({ ...devNull }) : mem.lstat(p));
  fs.readFile = (p, ...rest) => (isDevNull(p) ? Promise.resolve("") : mem.readFile(p, ...rest));
  fs.readFileBuffer = (p) => (isDevNull(p) ? Promise.resolve(new Uint8Array()) : mem.readFileBuffer(p));
  fs.readFileBytes = (p) => (isDevNull(p) ? Promise.resolve("") : mem.readFileBytes(p));
  return fs;
}
