// Runs a command and stops it (and its process group) when it runs longer than SECONDS, as
// GNU timeout does, for the systems that have no `timeout` (macOS):
//   node scripts/timeout.mjs SECONDS COMMAND [ARGS…]
// Exits with the command's status, or 124 when time ran out.
import { spawn } from "node:child_process";

const [seconds, command, ...args] = process.argv.slice(2);
if (!(Number(seconds) > 0) || !command) {
  console.error("usage: node scripts/timeout.mjs SECONDS COMMAND [ARGS…]");
  process.exit(2);
}
const child = spawn(command, args, { stdio: "inherit", detached: true });
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  console.error(`timeout: ${command} ran longer than ${seconds} s; stopped`);
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
  setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, 5000).unref();
}, Number(seconds) * 1000);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  clearTimeout(timer);
  process.exit(timedOut ? 124 : (code ?? (signal ? 128 : 1)));
});
