// What a command of the package's reads of just-bash's command context: a variable of its
// environment, and its standard input as text.

/** `key` in a command's environment (just-bash passes a Map, or an object). */
const envValue = (ctx, key) => (ctx.env instanceof Map ? ctx.env.get(key) : ctx.env?.[key]);

/** A command's standard input (a byte string, one character a byte) as UTF-8 text. */
function stdinText(stdin) {
  if (!stdin) return "";
  if (typeof stdin !== "string") return new TextDecoder().decode(stdin);
  const bytes = new Uint8Array(stdin.length);
  for (let i = 0; i < stdin.length; i++) bytes[i] = stdin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

export { envValue, stdinText };
