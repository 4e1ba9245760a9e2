//! What a listing command reads before it runs: tree's `--fromfile` lists (`.` standard
//! input) and `--hintro`/`--houtro` pages, du's `-X`/`--exclude-from` patterns and
//! `--files0-from` operands (`-` standard input). They are read through the session (see
//! [`crate::fs::named`]) before the command is answered, from the listing and these texts.

use super::Unsupported;
use crate::fs::named::{read_named, Unreadable};
use crate::fs::Filesystem;

/// A file a command reads first, as typed, and whether it names standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    pub typed: String,
    pub stdin: bool,
}

/// The texts read, by name as typed.
#[derive(Debug, Default)]
pub(crate) struct Inputs {
    texts: Vec<(Named, Result<String, Unreadable>)>,
}

impl Inputs {
    /// The text of the file `typed` (standard input when `stdin`), or why it cannot be
    /// read; `Unsupported` when it was not read (the command did not say it reads it).
    pub(crate) fn text(&self, typed: &str, stdin: bool) -> Result<Result<&str, Unreadable>, Unsupported> {
        let found = self.texts.iter().find(|(n, _)| n.typed == typed && n.stdin == stdin);
        match found {
            Some((_, text)) => Ok(text.as_deref().map_err(|e| *e)),
            None => Err(Unsupported::new("a file the command reads was not read first")),
        }
    }
}

/// Reads `files` from `cwd`; `stdin` is standard input's text when the host passed it.
pub(crate) async fn read(
    fs: &Filesystem,
    cwd: &str,
    files: Vec<Named>,
    stdin: Option<&str>,
) -> Result<Inputs, Unsupported> {
    let mut inputs = Inputs::default();
    for n in files {
        let text = match (n.stdin, stdin) {
            (true, Some(text)) => Ok(text.to_string()),
            (true, None) => return Err(Unsupported::new("standard input was not passed")),
            (false, _) => read_named(fs, cwd, &n.typed).await,
        };
        inputs.texts.push((n, text));
    }
    Ok(inputs)
}
