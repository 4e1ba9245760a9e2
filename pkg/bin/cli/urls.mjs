// The URLs the command line is given, checked before anything is sent: Chroma's (`--url`),
// a service's or a site's (`urlOption`), and the browser origins a server lets in. The
// checks are the package's own (`fetch`'s reading of a URL); what differs per option is
// what it allows and how the mistake is told, and no message echoes a URL that may hold a key.
import { absoluteUrl, isHttp, httpUrl } from "../../dist/api.mjs";
import { UsageError } from "./errors.mjs";

/** Chroma's URL: `--url`, else $CHROMAFS_URL, else a local server's; checked. */
export function chromaUrl(values) {
  const url = values.url ?? process.env.CHROMAFS_URL ?? "http://127.0.0.1:8000";
  const parsedUrl = absoluteUrl(url);
  if (!isHttp(parsedUrl)) {
    // Not echoed whole: a URL may carry a key in its query string.
    throw new UsageError(`--url must be an http(s) URL${parsedUrl ? `, got ${parsedUrl.protocol} one` : ""}`);
  }
  if (parsedUrl.search) throw new UsageError("--url must not have a query string (pass credentials with --token)");
  return url;
}

/** An http(s) URL given for `--name`, checked, or `undefined` when not given. */
export function urlOption(values, name) {
  const text = values[name];
  if (text === undefined) return undefined;
  try {
    httpUrl(text, `--${name}`);
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL without query, fragment or credentials, got '${text}'`);
  }
  return text;
}

/** `--allow-origin` (repeatable): the browser origins a server answers, each checked. */
export function originsOption(values) {
  return (values["allow-origin"] ?? []).map((o) => {
    const url = absoluteUrl(o);
    if (!isHttp(url) || url.origin !== o.replace(/\/$/, "")) {
      throw new UsageError(`--allow-origin must be an origin such as https://app.example.com, got '${o}'`);
    }
    return url.origin;
  });
}
