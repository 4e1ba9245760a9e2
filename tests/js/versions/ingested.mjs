// A versioned collection for the version tests: pages written to a folder of their own and
// ingested by the CLI, versions from their top folders and from rules, access from rules.
import path from "node:path";
import { writeFile } from "node:fs/promises";
import { chromaUrl, chromafsCli, tempDir, writeTree } from "../helpers.mjs";

/**
 * `chromafs ingest --version-folders` of `pages` (`{ path: text }`) into `collection`, with
 * `versions` (globs → version) and `access` (globs → access) as its rule files: the CLI's
 * result (`status`, `stderr`…).
 */
export async function ingestVersioned(collection, pages, { versions, access }) {
  const dir = tempDir(collection);
  const rulesDir = tempDir(`${collection}-rules`);
  await writeTree(dir, pages);
  const rules = path.join(rulesDir, "versions.json");
  const accessRules = path.join(rulesDir, "access.json");
  await writeFile(rules, JSON.stringify(versions));
  await writeFile(accessRules, JSON.stringify(access));
  return chromafsCli("ingest", dir, "--url", chromaUrl(), "--collection", collection, "--version-folders", "--versions", rules, "--access", accessRules);
}
