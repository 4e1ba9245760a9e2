// What a command of the package's reads of just-bash's command context: a variable of its
// environment, and its standard input as bytes or as text.

/** `key` in a command's environment (just-bash passes a Map, or an object). */
const envValue = (ctx, key) => (ctx.env instanceof Map ? ctx.env.get(key) : ctx.env?.[key]);

/** Standard input or a file as just-bash hands it over (a byte string, one character a byte, or bytes), as bytes. */
function bytesOf(given) {
  if (!given) return new Uint8Array(0);
  if (typeof given !== "string") return given instanceof Uint8Array ? given : new Uint8Array(given);
  const bytes = new Uint8Array(given.length);
  for (let i = 0; i < given.length; i++) bytes[i] = given.charCodeAt(i);
  return bytes;
}

/** A command's standard input as UTF-8 text. */
const stdinText = (stdin) => new TextDecoder().decode(bytesOf(stdin));

export { envValue, bytesOf, stdinText };
