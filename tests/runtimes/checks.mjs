// What every runtime check asks of the package: connect to a real Chroma, list, read, grep
// and search through just-bash, refuse a write, and compare what comes back.
import { Bash } from "just-bash";

/** Runs the checks with this `ChromaFs` and `safeExec`; throws on the first difference. */
export async function smoke({ ChromaFs, safeExec, url, collection, bashOptions = {} }) {
  const fs = await ChromaFs.connect({ url, collection });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands(), ...bashOptions });
  const expect = async (command, stdout) => {
    const r = await safeExec(bash, command);
    if (r.stdout !== stdout || r.exitCode !== 0) {
      throw new Error(`${command}: expected ${JSON.stringify(stdout)}, got ${JSON.stringify(r)}`);
    }
  };
  await expect("ls /", "guides\nindex.md\n");
  await expect("cat /index.md", "# Home\nwelcome to the docs\n");
  await expect("grep -rn token /guides", "/guides/auth.md:1:send the token header\n");
  // A lookahead and \K: grep -P's engine, a module of its own loaded for them.
  await expect("grep -rhoP 'the \\K\\w+(?= header)' /guides", "token\n");
  await expect("search -l token header", "/guides/auth.md\n");
  const w = await safeExec(bash, "echo x > /index.md");
  if (w.exitCode !== 1 || !w.stderr.includes("Read-only file system")) throw new Error(`write: ${JSON.stringify(w)}`);
  fs.free();
}
