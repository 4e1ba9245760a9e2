// grep -P's backtracking engine (src/perl/): a wasm module of its own, loaded the first time
// a -P pattern may need what the core's engine does not do (lookaround, backreferences,
// \K, atomic groups, possessive quantifiers) or may be wrong in a way PCRE has words for.
// Once loaded, the core matches such patterns with it (`setPerlEngine`); until then, and
// where a build leaves it out, they run as just-bash's grep.

// -P in a cluster of short options, or --perl-regexp (a prefix of it).
const PERL_OPTION = /^(-[A-Za-z0-9]*P|--p)/;
// What the core's engine does not read: lookaround, (?>…), (?(…)…), named references,
// comments, \K, \k, \g, backreferences, \Q…\E, possessive quantifiers.
const BEYOND = /\(\?(<?[=!]|[>(#']|P[=<>]|<[A-Za-z_])|\\[KkgQ1-9]|[+*?}]\+/;

/** Whether an argument's parentheses do not pair up (PCRE names the mistake). */
function unpaired(arg) {
  let depth = 0;
  for (let i = 0; i < arg.length; i++) {
    if (arg[i] === "\\") i++;
    else if (arg[i] === "(") depth++;
    else if (arg[i] === ")" && --depth < 0) return true;
  }
  return depth !== 0;
}

/** Whether `name args` is a grep -P whose pattern may need the engine. */
function mayNeedPerl(name, args) {
  return name !== "rg" && args.some((a) => PERL_OPTION.test(a)) && args.some((a) => BEYOND.test(a) || unpaired(a));
}

/**
 * The loader of the engine for `core` (the core module's glue): `load()` returns the perl
 * module, or a promise of it. The engine is handed to the core once; a failed load is
 * tried again on the next command that needs it. `null` when the build has no such module.
 */
function perlLoader(core, load) {
  if (!load) return null;
  let ready;
  return () =>
    (ready ??= Promise.resolve()
      .then(load)
      .then((perl) => core.setPerlEngine((pattern, ignoreCase, word, line) => new perl.PerlRegex(pattern, ignoreCase, word, line)))
      .catch(() => {
        ready = undefined;
      }));
}

export { mayNeedPerl, perlLoader };
