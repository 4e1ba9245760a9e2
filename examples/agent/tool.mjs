// The docs as an AI SDK tool: a just-bash shell over ChromaFs, wrapped by bash-tool.
import { Bash } from "just-bash";
import { createBashTool } from "bash-tool";
import { ChromaFs, toolDescription, bashToolSandbox } from "chromafs";

/**
 * `groups` must come from the signed-in user's verified identity: they decide which
 * pages exist for the agent. `embed` (optional) embeds the agent's `search` questions with
 * the model that embedded the collection; without it `search` ranks by the words alone.
 */
export async function createDocsTools({ url, collection, groups = [], docs = "the documentation", embed }) {
  // /tmp is the agent's own scratch directory (in memory, this session only).
  const fs = await ChromaFs.connect({ url, collection, groups, scratch: "/tmp", embed });
  const bash = new Bash({ fs, cwd: "/", customCommands: fs.commands() });
  const { tools } = await createBashTool({
    // bashToolSandbox: failed writes read as bash's error line instead of failing the call.
    sandbox: bashToolSandbox(bash),
    destination: "/",
    // A ready description; it also skips bash-tool's probing of /usr/bin, which a
    // read-only docs tree does not have.
    promptOptions: { toolPrompt: toolDescription({ docs, scratch: "/tmp" }) },
  });
  return { tools, fs };
}
