// The versions a Mintlify site declares: `navigation.versions` in the folder's docs.json,
// each entry a `version` and the navigation (groups, tabs, pages…) of its pages. A page
// listed under one version belongs to it; a page listed under several, or outside every
// version, belongs to every version, as Mintlify shows it. Pages are named without their
// extension (`v2/quickstart` is v2/quickstart.mdx or .md).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { CliError } from "./errors.mjs";

/** Characters a glob reads as more than themselves: a slug holding one gets no rule. */
const GLOB = /[*?[\]{}\\!]/;

/**
 * The versions docs.json under `dir` declares for the pages `slugs`: `{ rules, default }`,
 * the rules `{ slug: version }` (each slug matching itself) and the default version (the
 * one marked `default: true`, else the first, as Mintlify has it); null when there is no
 * docs.json or it declares no versions.
 */
export async function docsJsonVersions(dir, slugs) {
  let text;
  try {
    text = await readFile(path.join(dir, "docs.json"), "utf8");
  } catch (e) {
    if (e.code === "ENOENT" || e.code === "EISDIR") return null;
    throw new CliError(`docs.json: ${e.message}`);
  }
  let config;
  try {
    config = JSON.parse(text);
  } catch (e) {
    throw new CliError(`docs.json: not JSON (${e.message}); fix it, or move it out of the folder`);
  }
  const listed = new Map(); // slug → versions it is listed under (null: outside every version)
  const known = new Set(slugs);
  const slugOf = (ref) => {
    const name = ref.replace(/^\/+/, "");
    return [name, `${name}.mdx`, `${name}.md`].find((s) => known.has(s));
  };
  const walk = (node, version, depth) => {
    if (depth > 64 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, version, depth + 1));
    const own = typeof node.version === "string" && node.version.trim() ? node.version : version;
    for (const [key, value] of Object.entries(node)) {
      if (key === "pages" && Array.isArray(value)) {
        for (const page of value) {
          if (typeof page !== "string") continue;
          const slug = slugOf(page);
          if (!slug) continue;
          if (!listed.has(slug)) listed.set(slug, new Set());
          listed.get(slug).add(own ?? null);
        }
      }
      walk(value, own, depth + 1);
    }
  };
  const versions = config?.navigation?.versions;
  if (!Array.isArray(versions) || !versions.length) return null;
  walk(config.navigation, null, 0);
  const rules = {};
  for (const [slug, under] of listed) {
    if (under.size !== 1 || under.has(null) || GLOB.test(slug)) continue;
    rules[slug] = [...under][0];
  }
  const named = versions.filter((v) => typeof v?.version === "string" && v.version.trim());
  const marked = named.find((v) => v.default === true) ?? named[0];
  // The default is a version some page belongs to, or none.
  const defaultVersion = marked && Object.values(rules).includes(marked.version) ? marked.version : undefined;
  return { rules, default: defaultVersion };
}
