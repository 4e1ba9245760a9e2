// The options that choose who embeds text: `--embed openai:MODEL` names an embedding
// service (ingest embeds the chunks with it, shell, exec and mcp their queries), and for
// the commands that search, `--embed-url` / `--embed-key-env` allow the service a
// collection records. The built-in models are models.mjs's.
import { openAiEmbedder } from "../../node.mjs";
import { CliError, UsageError } from "./errors.mjs";
import { urlOption } from "./urls.mjs";

/** The service of `--embed openai:MODEL`: openAiEmbedder's options, or undefined for another `--embed`. */
export function serviceOf(values) {
  const spec = values.embed;
  if (spec === undefined || !spec.startsWith(SERVICE)) {
    if (values["embed-dimensions"] !== undefined) throw new UsageError(`--embed-dimensions applies to --embed ${SERVICE}MODEL`);
    return undefined;
  }
  const model = spec.slice(SERVICE.length).trim();
  if (!model) throw new UsageError(`--embed ${SERVICE}MODEL must name the service's model, such as ${SERVICE}text-embedding-3-small`);
  const options = { model };
  const url = urlOption(values, "embed-url");
  if (url) options.url = url;
  const dims = values["embed-dimensions"];
  if (dims !== undefined) {
    if (!/^\d+$/.test(dims) || Number(dims) === 0 || Number(dims) > 65536) throw new UsageError(`--embed-dimensions must be a whole number from 1 to 65536, got '${dims}'`);
    options.dimensions = Number(dims);
  }
  const keyEnv = keyVariable(values);
  if (keyEnv) options.apiKeyEnv = keyEnv;
  return options;
}

/** `--embed-key-env NAME`, checked: the name of an environment variable. */
function keyVariable(values) {
  const name = values["embed-key-env"];
  if (name === undefined) return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--embed-key-env must name an environment variable, got '${name}'`);
  return name;
}

/** How `--embed openai:MODEL` is spelled. */
export const SERVICE = "openai:";

/**
 * The connect options of `conn` with the session's embedder: `--embed openai:MODEL`'s
 * service, or else what the collection records, which `--embed-url` and `--embed-key-env`
 * allow (see pkg/src/recorded.js).
 */
export function withEmbedOptions(options, values) {
  const service = serviceOf(values);
  if (service) {
    try {
      return { ...options, embed: openAiEmbedder(service) };
    } catch (e) {
      throw e instanceof TypeError ? new UsageError(e.message) : new CliError(e.message);
    }
  }
  if (values.embed !== undefined) throw new UsageError(`--embed takes ${SERVICE}MODEL here: the built-in models are loaded by themselves for the collections they embedded`);
  const allow = urlOption(values, "embed-url");
  const keyEnv = keyVariable(values);
  if (!allow && !keyEnv) return options;
  return { ...options, collectionEmbedding: { allowOrigins: allow ? [new URL(allow).origin] : [], keyEnv: keyEnv ? [keyEnv] : [] } };
}
