//! gnulib's `argmatch`: an option's value among a fixed list of words (`--sort=WORD`,
//! `--group=METHOD`), whole or abbreviated while it names one meaning.

use super::ctx::Ctx;

/// The meaning `word` names among `words` (each a word and its meaning), or `None` after
/// writing gnulib's complaint and the hint to `--help` (the tool then exits with 1).
pub(crate) fn argmatch<T: Copy + PartialEq>(ctx: &mut Ctx, option: &str, word: &str, words: &[(&str, T)]) -> Option<T> {
    if let Some(w) = words.iter().find(|w| w.0 == word) {
        return Some(w.1);
    }
    let matching: Vec<_> = words.iter().filter(|w| w.0.starts_with(word)).collect();
    let why = match matching.first() {
        Some(first) if matching.iter().all(|m| m.1 == first.1) => return Some(first.1),
        Some(_) => "ambiguous",
        None => "invalid",
    };
    ctx.error(format!("{why} argument ‘{word}’ for ‘{option}’"));
    ctx.err.push_str("Valid arguments are:");
    let mut previous: Option<T> = None;
    for (w, v) in words {
        if previous == Some(*v) {
            ctx.err.push_str(&format!(", ‘{w}’"));
        } else {
            ctx.err.push_str(&format!("\n  - ‘{w}’"));
        }
        previous = Some(*v);
    }
    ctx.err.push('\n');
    ctx.usage("", 1);
    None
}
