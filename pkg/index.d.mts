// The ESM view of index.d.cts (the CommonJS entry's types): the ESM entries have named
// exports only, and so does this file, so that `import x from "chromafs"` does not type-check.
export * from "./index.cjs";
