//! Packs the long texts the commands print (ripgrep's type list, grep's help, the
//! `--version` texts) into one deflated block, which `base::texts` inflates when one is
//! printed: they are read rarely, and the module ships to edge runtimes, where 12 KB of
//! plain text costs more than the few microseconds of inflating it.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

/// Each text: the constant `base::texts` names it by, and its file.
const TEXTS: [(&str, &str); 7] = [
    ("RG_TYPES", "src/search/native/rg-types.txt"),
    ("RG_VERSION", "src/search/native/rg-version.txt"),
    ("GREP_HELP", "src/search/args/grep-help.txt"),
    ("GREP_VERSION", "src/search/args/grep-version.txt"),
    ("DU_VERSION", "src/commands/du-version.txt"),
    ("FIND_VERSION", "src/commands/find-version.txt"),
    ("LS_VERSION", "src/commands/ls-version.txt"),
];

fn main() {
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let (mut all, mut names) = (Vec::new(), String::new());
    for (name, file) in TEXTS {
        println!("cargo:rerun-if-changed={file}");
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let start = all.len();
        all.extend_from_slice(text.as_bytes());
        writeln!(names, "pub(crate) const {name}: Text = Text({start}, {});", all.len()).unwrap();
    }
    println!("cargo:rerun-if-changed=build.rs");
    fs::write(Path::new(&out).join("texts.deflate"), miniz_oxide::deflate::compress_to_vec(&all, 10)).unwrap();
    fs::write(Path::new(&out).join("texts.rs"), names).unwrap();
}
