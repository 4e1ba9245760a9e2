// The ESM view of index.d.ts. index.d.ts is CommonJS-format (pkg/package.json has no
// "type"), which would let ESM code type-check `import x from "chromafs"`; the ESM entries
// have named exports only, and so does this file.
export * from "./index.js";
