// Failed reads made visible in a command's output. just-bash's commands show a read that
// failed as "No such file or directory", skip it, or count it as no match; the Rust side
// reports which reads failed and why, and this rewrites the command's stderr text and exit
// code to say so.

// Failed reads listed one by one before the rest are counted.
const LISTED_FAILURES = 20;

/**
 * A command's result, made to say which reads failed: just-bash's line for a failed
 * operand becomes an I/O error with its cause, failures it did not mention are added,
 * output that may be missing something says so, and the exit code fails.
 */
function withFailures(name, result, report, resolve, failCode) {
  if (!report || report.total === 0) return result;
  const open = new Map(report.unreported.map((f) => [f.path, f.cause]));
  const line = (shown, cause) => `${name}: ${shown}: Input/output error (${cause})`;
  const lines = (result.stderr || "").split("\n");
  const trailing = lines.at(-1) === "" ? lines.pop() : null;
  const prefix = `${name}: `;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith(prefix)) continue;
    const rest = lines[i].slice(prefix.length);
    for (let at = rest.indexOf(": "); at > 0; at = rest.indexOf(": ", at + 1)) {
      const shown = rest.slice(0, at);
      const path = resolve(shown);
      if (open.has(path)) {
        lines[i] = line(shown, open.get(path));
        open.delete(path);
        break;
      }
    }
  }
  const extra = [...open];
  for (const [path, cause] of extra.slice(0, LISTED_FAILURES)) lines.push(line(path, cause));
  if (extra.length > LISTED_FAILURES) lines.push(`${name}: ${extra.length - LISTED_FAILURES} more files could not be read`);
  if (result.stdout) lines.push(`${name}: output incomplete: ${report.total} ${report.total === 1 ? "read" : "reads"} failed`);
  if (trailing !== null || lines.length > 0) lines.push("");
  const exitCode = result.exitCode === 0 || failCode === 2 ? failCode : result.exitCode;
  return { ...result, stderr: lines.join("\n"), exitCode };
}

export { withFailures };
