// Bundles api/exec.js into a Vercel Edge Function in the Build Output API layout:
//
//   .vercel/output/config.json
//   .vercel/output/functions/api/exec.func/.vc-config.json
//   .vercel/output/functions/api/exec.func/index.js               (ESM bundle)
//   .vercel/output/functions/api/exec.func/chromafs_core_bg.wasm  (imported as `?module`)
//   .vercel/output/functions/api/exec.func/chromafs_tools_bg.wasm (imported as `?module`)
//
// Deploy with `vercel deploy --prebuilt`. The bundle resolves packages the way Vercel's
// edge builder does (conditions edge-light, worker, browser), replaces `node:zlib` (which
// the edge runtime lacks) with a stub, and keeps each `.wasm?module` import as an import
// of a file next to the bundle: Vercel compiles that wasm when it loads the function and
// hands the code a ready `WebAssembly.Module` (compiling from bytes at run time is refused).
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
export const outputDir = join(here, ".vercel/output");
export const functionDir = join(outputDir, "functions/api/exec.func");

/** Keeps `import x from "./a.wasm?module"` as is and copies the wasm next to the bundle. */
function wasmModulePlugin(wasmFiles) {
  return {
    name: "wasm-module",
    setup(build) {
      build.onResolve({ filter: /\.wasm\?module$/ }, async (args) => {
        const file = args.path.replace(/\?module$/, "");
        const resolved = await build.resolve(file, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        const name = basename(resolved.path);
        const previous = wasmFiles.get(name);
        if (previous && previous !== resolved.path) {
          return { errors: [{ text: `two different wasm files named ${name}: ${previous} and ${resolved.path}` }] };
        }
        wasmFiles.set(name, resolved.path);
        return { path: `./${name}?module`, external: true };
      });
    },
  };
}

export async function build({ minify = true, log = true } = {}) {
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync(functionDir, { recursive: true });
  const wasmFiles = new Map();
  const result = await esbuild.build({
    entryPoints: [join(here, "api/exec.js")],
    outfile: join(functionDir, "index.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["edge-light", "worker", "browser"],
    target: "es2022",
    minify,
    legalComments: "none",
    alias: { "node:zlib": join(here, "shims/zlib-unavailable.js") },
    plugins: [wasmModulePlugin(wasmFiles)],
    metafile: true,
    logLevel: log ? "warning" : "silent",
  });
  for (const [name, path] of wasmFiles) copyFileSync(path, join(functionDir, name));
  writeFileSync(
    join(functionDir, ".vc-config.json"),
    `${JSON.stringify(
      {
        runtime: "edge",
        entrypoint: "index.js",
        envVarsInUse: ["CHROMA_URL", "CHROMA_COLLECTION", "CHROMA_TOKEN", "CHROMA_TENANT", "CHROMA_DATABASE"],
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(outputDir, "config.json"), `${JSON.stringify({ version: 3 }, null, 2)}\n`);

  const files = ["index.js", ...wasmFiles.keys()].map((name) => {
    const bytes = readFileSync(join(functionDir, name));
    return { name, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, sha1: createHash("sha1").update(bytes).digest("hex") };
  });
  const summary = {
    functionDir,
    files,
    totalBytes: files.reduce((n, f) => n + f.bytes, 0),
    totalGzip: files.reduce((n, f) => n + f.gzip, 0),
    inputs: Object.keys(result.metafile.inputs).length,
  };
  if (log) {
    for (const f of files) console.log(`${f.name.padEnd(24)} ${String(f.bytes).padStart(9)} bytes  ${String(f.gzip).padStart(8)} gzip`);
    console.log(`${"total".padEnd(24)} ${String(summary.totalBytes).padStart(9)} bytes  ${String(summary.totalGzip).padStart(8)} gzip`);
  }
  return summary;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await build({ minify: !process.argv.includes("--no-minify") });
}
