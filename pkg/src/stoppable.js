// An embedder whose calls end with the command that made them.
//
// A session's commands are bracketed (`beginCommand` … `endCommand`), and a bracket that is
// aborted (its deadline, its client gone: `abortCommand`) stops the session's Chroma
// requests. The embedding function is the host's, called from the wasm module with texts
// alone; wrapped here, each of its calls also gets `{ signal }`, the running command's, so
// that a search stopped at its deadline does not leave a request open to a hanging service
// (holding one of the service's slots) for the service's whole timeout. An embedder that
// takes no second argument ignores it. Where network causes go to the log
// (`networkErrors: "log"`, as an MCP server sets), an embedding failure reaches the agent
// without the service's address: the cause is logged.

/**
 * The running command's signal, for one session: `begin()`, `abort()`, `end()` (which aborts
 * what is still open), `signal`. The signal is made when a call first asks for it: most
 * commands embed nothing, and an abort builds an exception with its stack.
 */
function commandSignal() {
  let running = false;
  let aborted = false;
  let controller = null;
  return {
    begin() {
      running = true;
      aborted = false;
      controller = null;
    },
    abort() {
      aborted = running;
      controller?.abort();
    },
    end() {
      // A call still open when its command ended (the command's own time limit) serves nobody.
      controller?.abort();
      running = aborted = false;
      controller = null;
    },
    get signal() {
      if (!running) return undefined;
      if (!controller) {
        controller = new AbortController();
        if (aborted) controller.abort();
      }
      return controller.signal;
    },
  };
}

/** What an agent is told of an embedding failure whose cause went to the log. */
function withoutAddress(e) {
  console.error(`chromafs: ${e?.message ?? e}`);
  const code = typeof e?.code === "string" ? e.code : "EIO";
  const said = code === "ECANCELED" ? "the call was stopped" : code === "ETIMEDOUT" ? "it did not answer in time" : "it failed";
  return Object.assign(new Error(`the embedding service could not embed the question: ${said} (the cause is in the server's log)`), { code });
}

/**
 * `embed` (a function, or an object with `embed` and perhaps `embedQuery`) calling through
 * with `{ signal }` of `calls` (a commandSignal); with `logged`, failures lose the service's
 * address (see above). Everything else the object has is read through, unchanged.
 */
function stoppable(embed, calls, logged) {
  const wrap = (f, self) =>
    async function (texts) {
      try {
        return await f.call(self, texts, { signal: calls.signal });
      } catch (e) {
        throw logged ? withoutAddress(e) : e;
      }
    };
  if (typeof embed === "function") return wrap(embed, undefined);
  if (!embed || typeof embed !== "object" || typeof embed.embed !== "function") return embed;
  const own = { embed: wrap(embed.embed, embed) };
  if (typeof embed.embedQuery === "function") own.embedQuery = wrap(embed.embedQuery, embed);
  // Every other property is read from the object itself, getters with it as `this` (a
  // class's private fields are its own).
  return new Proxy(embed, { get: (target, key) => (Object.hasOwn(own, key) ? own[key] : Reflect.get(target, key, target)) });
}

/** `options` with its `embed`, when it has one, made stoppable (see `stoppable`). */
function withStoppableEmbed(options, calls, logged) {
  return options?.embed === undefined ? options : { ...options, embed: stoppable(options.embed, calls, logged) };
}

export { commandSignal, stoppable, withStoppableEmbed };
