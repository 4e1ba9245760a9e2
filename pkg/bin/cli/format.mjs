// Counts and sizes in words, as every message of the command-line tool writes them.

/** `n` and the word for that many: `1 page`, `2 pages`. */
export function plural(n, word, words = `${word}s`) {
  return `${n} ${n === 1 ? word : words}`;
}

/** A size in bytes as people read it: `512 B`, `1.5 MiB`. */
export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
