// Bundles the demo page (src/app.js, with just-bash's browser build and chromafs) into
// dist/, and puts chromafs's wasm where the bundle will ask for it.
//   node build.mjs [--dev]   (--dev: not minified)
import { build } from "esbuild";
import { copyFile, mkdir, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "dist");
const minify = !process.argv.includes("--dev");

// chromafs's browser entry loads its wasm with
//   new URL("./dist/web/chromafs_core_bg.wasm", import.meta.url)
// Bundled, `import.meta.url` is the bundle's own URL, so the wasm must sit at that path
// relative to dist/app.js. The browser then compiles it while it streams in.
const WASM_URL = "./dist/web/chromafs_core_bg.wasm";
const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("chromafs/package.json"));
const wasmSource = join(pkgDir, "dist", "web", "chromafs_core_bg.wasm");
await stat(wasmSource).catch(() => {
  throw new Error(`${wasmSource} is missing: build the package first (bash scripts/build.sh)`);
});

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

await build({
  absWorkingDir: here,
  entryPoints: { app: "src/app.js" },
  outdir: out,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  conditions: ["browser"],
  // just-bash's browser build imports node:zlib for gzip/gunzip/zcat/rg -z only.
  alias: { "node:zlib": join(here, "src", "zlib-stub.js") },
  // A bundled `process.env.NODE_ENV` check would otherwise throw in the page.
  define: { "process.env.NODE_ENV": '"production"' },
  loader: { ".css": "css" },
  minify,
  sourcemap: true,
  legalComments: "linked",
  logLevel: "warning",
});

const bundle = await readFile(join(out, "app.js"), "utf8");
if (!bundle.includes(WASM_URL)) {
  throw new Error(`the bundle no longer loads ${WASM_URL}; update build.mjs to match chromafs's browser entry`);
}
const wasmTarget = new URL(WASM_URL, "file://" + join(out, "app.js")).pathname;
await mkdir(dirname(wasmTarget), { recursive: true });
await copyFile(wasmSource, wasmTarget);
// The tools' module (head, sort, sed, awk…), which the page fetches on the first such command.
const TOOLS_URL = "./dist/web/chromafs_tools_bg.wasm";
if (!bundle.includes(TOOLS_URL)) throw new Error(`the bundle no longer loads ${TOOLS_URL}; update build.mjs`);
await copyFile(join(pkgDir, "dist", "web", "chromafs_tools_bg.wasm"), new URL(TOOLS_URL, "file://" + join(out, "app.js")).pathname);
// grep -P's engine, which the page fetches on the first pattern that may need it.
const PERL_URL = "./dist/web/chromafs_perl_bg.wasm";
if (!bundle.includes(PERL_URL)) throw new Error(`the bundle no longer loads ${PERL_URL}; update build.mjs`);
await copyFile(join(pkgDir, "dist", "web", "chromafs_perl_bg.wasm"), new URL(PERL_URL, "file://" + join(out, "app.js")).pathname);

const size = async (f) => ((await stat(f)).size / 1024).toFixed(0) + " KiB";
console.log(
  `built ${relative(process.cwd(), join(out, "app.js"))} (${await size(join(out, "app.js"))}), ` +
    `${relative(process.cwd(), wasmTarget)} (${await size(wasmTarget)})`,
);
