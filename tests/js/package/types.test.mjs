// The package's type declarations are written by hand, beside a class that is also written
// by hand (pkg/src/chromafs.js) around one that is generated (the wasm glue's). These checks
// hold the declarations to the built package: every entry exports the values index.d.cts
// declares and no others, and ChromaFs and MountedFs have the methods declared for them,
// each taking as many parameters as declared; and they hold the class to the glue's: every
// method of the glue's is forwarded, with its parameters, but for its few internals, and
// none of the glue's objects reaches a host. The package's shape is read at run time and
// written out as TypeScript that the compiler checks against the declarations
// (tests/types/ holds the checks of the types themselves).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, chromaUrl } from "../helpers.mjs";

const PKG = path.join(ROOT, "pkg");
const require = createRequire(import.meta.url);

/** A union type of string literals. */
const union = (names) => (names.length ? names.map((n) => JSON.stringify(n)).join(" | ") : "never");

/** Own function-valued properties of `object`, leaving out the wasm glue's internals (`__wrap`…). */
function functionsOf(object) {
  return Object.getOwnPropertyNames(object).filter((n) => n !== "constructor" && !n.startsWith("__") && typeof Object.getOwnPropertyDescriptor(object, n).value === "function");
}

/**
 * What an ES entry exports, from its source: the browser, workerd and edge entries load
 * their wasm in ways Node cannot. Each exports its API in one `export const { … } = setup(…)`.
 */
function entryExports(file) {
  const text = readFileSync(path.join(PKG, file), "utf8");
  const statements = text.match(/^export\b.*$/gm) ?? [];
  assert.equal(statements.length, 1, `${file}: one export statement`);
  const list = /^export const \{([^}]*)\} = setup\(/.exec(statements[0]);
  assert.ok(list, `${file}: ${statements[0]}`);
  return list[1].split(",").map((n) => n.trim()).sort();
}

/**
 * Runs the compiler over `source` (TypeScript importing "chromafs"): its diagnostics, each
 * with the check it fails (the line's `export const NAME`), "" when none.
 */
function compile(source) {
  const dir = mkdtempSync(path.join(ROOT, "tests", "types", ".runtime-"));
  try {
    writeFileSync(path.join(dir, "runtime.ts"), source);
    const config = { compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], types: [], strict: true, noEmit: true, skipLibCheck: true }, files: ["runtime.ts"] };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    const r = spawnSync(path.join(ROOT, "node_modules", ".bin", "tsc"), ["-p", dir], { cwd: ROOT, encoding: "utf8", timeout: 120000 });
    const lines = source.split("\n");
    const named = (d) => d.replace(/^.*?runtime\.ts\((\d+),\d+\): /, (_, n) => `${/export const (\w+)/.exec(lines[n - 1])?.[1] ?? `line ${n}`}: `);
    return `${r.stdout}${r.stderr}${r.error ?? ""}`.trim().split("\n").map(named).join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `Equal` is exact type equality; `Methods<T>` the keys of T's function-valued members;
// `Arity` a method's parameter count, optional ones included (what `fn.length` counts when
// no parameter has a default, as in the wasm glue); `Matches` whether method K, if T
// declares it, may be called with N arguments (a JS method's optional parameter may have
// a default, which `fn.length` leaves out).
const PRELUDE = `
import { ChromaFs, type MountedFs } from "chromafs";
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Methods<T> = { [K in keyof T]-?: T[K] extends (...args: any[]) => any ? K : never }[keyof T];
type Arity<T, K> = K extends keyof T ? (T[K] extends (...args: infer P) => any ? Required<P>["length"] : never) : never;
type Counts<T, K> = K extends keyof T ? (T[K] extends (...args: infer P) => any ? P["length"] : never) : never;
type Matches<T, K extends string, N> = K extends Methods<T> ? (N extends Counts<T, K> ? true : false) : true;
void ChromaFs;
`;

/** A compile-time check named `name` that `type` is `true`. */
const check = (name, type) => `export const ${name.replace(/\W/g, "_")}: ${type} = true;\n`;

/** Checks that `T`'s methods are `arities`' names (all of them, or at least them) and take that many parameters. */
function methodChecks(prefix, type, arities, { exact }) {
  const names = union([...arities.keys()]);
  let out = exact ? check(`${prefix}_names`, `Equal<Methods<${type}>, ${names}>`) : check(`${prefix}_declared_exist`, `Equal<Exclude<Methods<${type}>, ${names}>, never>`);
  for (const [name, n] of arities) {
    out += check(`${prefix}_${name}`, `${exact ? "Equal<Arity" : "Matches"}<${type}, ${JSON.stringify(name)}${exact ? ">" : ""}, ${n}>`);
  }
  return out;
}

test("every entry exports the values index.d.cts declares, and no others", async () => {
  const esm = Object.keys(await import("chromafs")).sort();
  assert.ok(esm.includes("ChromaFs") && esm.includes("safeExec"), esm.join(" "));
  assert.deepEqual(Object.keys(require("chromafs")).sort(), esm, "node.cjs");
  for (const entry of ["browser.mjs", "workerd.mjs", "edge.mjs"]) assert.deepEqual(entryExports(entry), esm, entry);
  assert.equal(compile(`${PRELUDE}${check("exports", `Equal<keyof typeof import("chromafs"), ${union(esm)}>`)}`), "");
});

/** The glue's ChromaFs class, as the Node entry loads it. */
async function glueClass() {
  return (await import(pathToFileURL(path.join(PKG, "dist/web/chromafs_core.js")).href)).ChromaFs;
}

test("ChromaFs has the methods index.d.cts declares, and no others, with their parameter counts", async () => {
  const { ChromaFs } = await import("chromafs");
  const arities = (object) => new Map(functionsOf(object).map((n) => [n, object[n].length]));
  const statics = arities(ChromaFs);
  const methods = arities(ChromaFs.prototype);
  assert.ok(statics.has("connect") && methods.has("readFile") && methods.has("commands"));
  const source = PRELUDE + methodChecks("static", "typeof ChromaFs", statics, { exact: true }) + methodChecks("method", "ChromaFs", methods, { exact: true });
  assert.equal(compile(source), "");
});

// The glue's members that are its own business: making and dropping a wrapper of a Rust value.
const GLUE_INTERNALS = { statics: ["__wrap"], methods: ["__destroy_into_raw"] };

test("ChromaFs forwards every method of the wasm glue's class, with its parameters, and changes nothing of it", async () => {
  const { ChromaFs } = await import("chromafs");
  const Glue = await glueClass();
  const own = (object) => Object.getOwnPropertyNames(object).filter((n) => n !== "constructor" && typeof Object.getOwnPropertyDescriptor(object, n).value === "function");
  for (const [kind, glue, facade] of [["statics", Glue, ChromaFs], ["methods", Glue.prototype, ChromaFs.prototype]]) {
    const internals = GLUE_INTERNALS[kind];
    for (const n of internals) assert.equal(typeof glue[n], "function", `the glue's ${kind} have no ${n}: drop it from the list`);
    const forwarded = own(glue).filter((n) => !internals.includes(n));
    assert.deepEqual(
      forwarded.map((n) => [n, Object.hasOwn(facade, n) ? facade[n].length : "missing"]),
      forwarded.map((n) => [n, glue[n].length]),
      `${kind}: every one of the glue's is forwarded, with as many parameters`,
    );
    assert.deepEqual(own(facade).filter((n) => n.startsWith("__")), [], `${kind}: no internals of the glue's`);
  }
  // Nothing is added to the glue's class.
  assert.equal(Glue.connectMounts, undefined);
  assert.equal(Glue.prototype.commands, undefined);
  assert.ok(ChromaFs !== Glue && !(ChromaFs.prototype instanceof Glue));
});

test("a session and what it makes are ChromaFs objects holding nothing of the glue's in sight", async () => {
  const { ChromaFs, ingest } = await import("chromafs");
  const Glue = await glueClass();
  await ingest({ url: chromaUrl(), collection: "types-facade", files: [{ path: "a.md", content: "a\n" }] });
  const fs = await ChromaFs.connect({ url: chromaUrl(), collection: "types-facade" });
  const other = fs.withEmbed({});
  const mounted = await ChromaFs.connectMounts({ url: chromaUrl(), mounts: { "/docs": "types-facade", "/more": "types-facade" } });
  try {
    for (const session of [fs, other, ...mounted.all]) {
      assert.equal(Object.getPrototypeOf(session), ChromaFs.prototype);
      assert.ok(!(session instanceof Glue));
      assert.deepEqual(Reflect.ownKeys(session), [], "no own properties: the session is private");
    }
    assert.equal(await other.readFile("/a.md"), "a\n");
    assert.throws(() => fs.shareBudget({}), TypeError);
    assert.throws(() => new ChromaFs({}), TypeError);
  } finally {
    fs.free();
    other.free();
    mounted.free();
  }
});

test("MountedFs has the methods index.d.cts declares, with their parameter counts", async () => {
  const { ChromaFs, ingest } = await import("chromafs");
  await ingest({ url: chromaUrl(), collection: "types-mounted", files: [{ path: "a.md", content: "a\n" }] });
  const fs = await ChromaFs.connectMounts({ url: chromaUrl(), mounts: { "/docs": "types-mounted" } });
  try {
    // The class has helpers of its own beside its API: every declared method must be there.
    const proto = Object.getPrototypeOf(fs);
    const methods = new Map(functionsOf(proto).map((n) => [n, proto[n].length]));
    assert.ok(methods.has("readFile") && methods.has("commands"));
    assert.equal(compile(PRELUDE + methodChecks("mounted", "MountedFs", methods, { exact: false })), "");
  } finally {
    fs.free();
  }
});
