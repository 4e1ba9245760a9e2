// Bundles the package's JS API (pkg/src/*.js, ES modules) into one ES module and one
// CommonJS module: `node scripts/bundle-api.mjs OUT_DIR` writes OUT_DIR/api.mjs and
// OUT_DIR/api.cjs. Both hold the same code: each source file in dependency order, in a
// function scope of its own, its imports taken from the modules before it and its exports
// returned. Only the two forms the sources use are understood, and anything else fails the
// build rather than being bundled wrongly:
//   import { a, b as c } from "./file.js";   (at the top of a file)
//   export { a, b };                         (the file's last statement)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const SRC = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "pkg", "src");
const ENTRY = "api.js";
const IMPORT = /^import \{([^}]*)\} from "\.\/([A-Za-z0-9_-]+\.js)";$/;
const EXPORT = /^export \{([^}]*)\};$/;

const fail = (file, message) => {
  throw new Error(`pkg/src/${file}: ${message}`);
};
const names = (list) =>
  list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const binding = (file) => `$${file.replace(/\.js$/, "").replace(/[^A-Za-z0-9_]/g, "_")}`;

/** One source file: its dependencies, and its text with imports and exports rewritten. */
function load(file) {
  const lines = readFileSync(path.join(SRC, file), "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const deps = [];
  let exported = null;
  const out = lines.map((line, i) => {
    const imp = IMPORT.exec(line);
    if (imp) {
      deps.push(imp[2]);
      const pattern = names(imp[1]).map((n) => n.replace(/^(\S+)\s+as\s+(\S+)$/, "$1: $2"));
      return `const { ${pattern.join(", ")} } = ${binding(imp[2])};`;
    }
    const exp = EXPORT.exec(line);
    if (exp) {
      if (i !== lines.length - 1) fail(file, `line ${i + 1}: the export list must be the last line`);
      exported = names(exp[1]);
      if (exported.some((n) => !/^[A-Za-z_$][\w$]*$/.test(n))) fail(file, "renamed exports are not supported");
      return `return { ${exported.join(", ")} };`;
    }
    if (/^\s*(import|export)\b/.test(line)) fail(file, `line ${i + 1}: unsupported module syntax: ${line}`);
    return line;
  });
  if (!exported) fail(file, "no `export { … };` line");
  return { file, deps, exported, text: out.join("\n") };
}

/** The modules `ENTRY` needs, each after the ones it imports. */
function ordered() {
  const done = new Map();
  const visiting = new Set();
  const visit = (file, from) => {
    if (done.has(file)) return;
    if (visiting.has(file)) fail(from, `import cycle through ${file}`);
    visiting.add(file);
    const mod = load(file);
    for (const dep of mod.deps) visit(dep, file);
    visiting.delete(file);
    done.set(file, mod);
  };
  visit(ENTRY, ENTRY);
  return [...done.values()];
}

const modules = ordered();
const body = modules
  .map((m) => `// pkg/src/${m.file}\nconst ${binding(m.file)} = (() => {\n${m.text}\n})();\n`)
  .join("\n");
const api = modules.at(-1);
const header = `// Built by scripts/bundle-api.mjs from pkg/src/ (${modules.map((m) => m.file).join(", ")}): edit those.\n`;
const outDir = process.argv[2];
if (!outDir) throw new Error("usage: node scripts/bundle-api.mjs OUT_DIR");
writeFileSync(path.join(outDir, "api.mjs"), `${header}\n${body}\nexport const { ${api.exported.join(", ")} } = ${binding(api.file)};\n`);
writeFileSync(path.join(outDir, "api.cjs"), `${header}"use strict";\n\n${body}\nmodule.exports = ${binding(api.file)};\n`);
