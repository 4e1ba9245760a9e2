//! `--help` and `--version`: the texts GNU's tools print, by command.

/// `name --help`'s text.
pub(crate) fn help(name: &str) -> &'static str {
    TEXTS.iter().find(|(n, _, _)| *n == name).map_or("", |t| t.1)
}

/// `name --version`'s text.
pub(crate) fn version(name: &str) -> &'static str {
    TEXTS.iter().find(|(n, _, _)| *n == name).map_or("", |t| t.2)
}

macro_rules! texts {
    ($($name:literal),*) => {
        &[$(($name, include_str!(concat!("texts/", $name, ".help")), include_str!(concat!("texts/", $name, ".version")))),*]
    };
}

const TEXTS: &[(&str, &str, &str)] = texts!(
    "awk",
    "basename",
    "cmp",
    "comm",
    "cut",
    "diff",
    "dirname",
    "expand",
    "fmt",
    "fold",
    "head",
    "join",
    "md5sum",
    "mktemp",
    "nl",
    "paste",
    "realpath",
    "sed",
    "seq",
    "sha1sum",
    "sha256sum",
    "sort",
    "tac",
    "tail",
    "tee",
    "tr",
    "unexpand",
    "uniq",
    "wc",
    "xargs"
);
