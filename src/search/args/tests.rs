//! Command lines as just-bash reads them.

use super::*;

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn grep_mirrors_just_bash() {
    let g = parse_grep(&s(&["-rin", "-e", "one", "-e", "two", "-A2", "-m", "3", "x", "--include=*.md", "y"]), 0);
    assert_eq!(g.pattern.as_deref(), Some("two"), "the last -e wins");
    assert!(g.ignore_case && g.recursive);
    assert_eq!(g.file_operands, vec![8, 10]);
    let g = parse_grep(&s(&["-vxfpats", "x"]), 0);
    assert_eq!(g.pattern_files, s(&["pats"]));
    assert!(g.invert && g.line_regexp);
    assert!(parse_grep(&s(&["--color=never", "x", "y"]), 0).invalid);
    assert!(parse_grep(&s(&["-f"]), 0).invalid, "-f needs a file");
    assert!(parse_grep(&s(&["-r"]), 0).invalid, "missing pattern");
    assert_eq!(parse_grep(&s(&["-E", "a", "b"]), 1).file_operands, vec![2], "injected words are not operands");
    assert_eq!(parse_grep(&s(&["-F", "x"]), 0).dialect(), Dialect::Fixed);
}

#[test]
fn rg_smart_case() {
    assert!(parse_rg(&s(&["foo"])).ignore_case());
    assert!(!parse_rg(&s(&["Foo"])).ignore_case());
    assert!(!parse_rg(&s(&["-i", "-s", "foo"])).ignore_case());
    assert!(parse_rg(&s(&["-s", "-i", "Foo"])).ignore_case());
}

#[test]
fn rg_operands_and_values() {
    assert_eq!(parse_rg(&s(&["-e", "a", "b", "c"])).paths, vec![2, 3], "after -e, every word is a path");
    assert_eq!(parse_rg(&s(&["-tmd", "x", "y"])).paths, vec![2]);
    assert_eq!(parse_rg(&s(&["-g", "*.md", "x", "--sort", "path", "y"])).paths, vec![5]);
    assert!(parse_rg(&s(&["-P", "x"])).invalid);
    assert!(parse_rg(&s(&["-e"])).invalid);
}

#[test]
fn rg_names_the_option_it_cannot_model() {
    assert_eq!(parse_rg(&s(&["-v", "x", "/"])).unsafe_flag.as_deref(), Some("-v"));
    assert_eq!(parse_rg(&s(&["--hidden", "-v", "x"])).unsafe_flag.as_deref(), Some("--hidden"));
    assert_eq!(parse_rg(&s(&["--max-depth=2", "x"])).unsafe_flag.as_deref(), Some("--max-depth"));
    assert_eq!(parse_rg(&s(&["-f", "pats", "/"])).unsafe_flag.as_deref(), Some("-f"));
    assert_eq!(parse_rg(&s(&["-n", "x", "/"])).unsafe_flag, None);
}
