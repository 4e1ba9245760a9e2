//! Command lines as GNU grep and ripgrep read them.

use super::*;
use crate::base::texts;

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn grep_reads_its_command_line_as_gnu_grep() {
    let g = parse_grep(&s(&["-rin", "-e", "one", "-e", "two", "-A2", "-m", "3", "x", "--include=*.md", "y"]), 0);
    assert_eq!(g.pattern.as_deref(), Some("one\ntwo"), "every -e is a pattern");
    assert!(g.ignore_case && g.recursive);
    assert_eq!(g.file_operands, vec![8, 10]);
    assert_eq!((g.output.after, g.output.before, g.output.max_count), (Some(2), Some(0), Some(3)));
    let g = parse_grep(&s(&["-vxfpats", "x"]), 0);
    assert_eq!(g.pattern_files, s(&["pats"]));
    assert!(g.invert && g.line_regexp);
    assert!(parse_grep(&s(&["--color=never", "-I", "-s", "--include", "*.md", "x", "y"]), 0).usage.is_none());
    let g = parse_grep(&s(&["x", "y", "-n", "--", "-z"]), 0);
    assert_eq!((g.file_operands.clone(), g.output.line_numbers), (vec![1, 4], true), "options after operands");
    assert!(parse_grep(&s(&["--ignore", "X"]), 0).ignore_case, "an unambiguous prefix");
    let usage = |a: &[&str]| parse_grep(&s(a), 0).usage.unwrap_or_default();
    assert!(usage(&["--co", "x"]).starts_with("grep: option '--co' is ambiguous; possibilities:"));
    assert!(usage(&["-k", "x"]).starts_with("grep: invalid option -- 'k'\nUsage: grep"));
    assert!(usage(&["-f"]).starts_with("grep: option requires an argument -- 'f'"));
    assert!(usage(&["-r"]).starts_with("Usage: grep"), "missing pattern");
    assert_eq!(usage(&["-E", "-F", "x"]), "grep: conflicting matchers specified\n");
    assert_eq!(usage(&["-A", "x", "y"]), "grep: x: invalid context length argument\n");
    assert_eq!(parse_grep(&s(&["-m", "-1", "x"]), 0).output.max_count, None, "a negative count is no limit");
    assert_eq!(parse_grep(&s(&["-C1", "-A0", "x"]), 0).output.before, Some(1));
    assert_eq!(parse_grep(&s(&["-5", "x"]), 0).output.after, Some(5));
    assert_eq!(parse_grep(&s(&["-12", "x"]), 0).output.after, Some(12), "the digits of one word are one number");
    assert_eq!(parse_grep(&s(&["-1", "-2", "x"]), 0).output.after, Some(2), "another word starts another");
    assert_eq!(parse_grep(&s(&["-E", "a", "b"]), 1).file_operands, vec![2], "injected words are not operands");
    assert_eq!(parse_grep(&s(&["-F", "x"]), 0).dialect(), Dialect::Fixed);
}

#[test]
fn grep_warns_that_u_is_obsolete_each_time_and_goes_on() {
    let g = parse_grep(&s(&["-u", "--unix-byte-offsets", "-b", "x", "f"]), 0);
    let warning = "grep: warning: --unix-byte-offsets (-u) is obsolete\n";
    assert_eq!((g.usage, g.warnings), (None, warning.repeat(2)));
    assert!(g.output.byte_offset);
    let usage = parse_grep(&s(&["-u", "-k", "x"]), 0).usage.unwrap_or_default();
    assert!(usage.starts_with(&format!("{warning}grep: invalid option -- 'k'")), "{usage}");
}

#[test]
fn grep_help_version_and_bad_arguments_as_gnu_grep_answers_them() {
    let g = parse_grep(&s(&["--color=sometimes", "x"]), 0);
    assert!(g.help && g.usage.is_none(), "an unknown --color value shows the help");
    let g = parse_grep(&s(&["--help", "-V"]), 0);
    assert!(g.help && g.version && g.usage.is_none());
    assert!(
        texts::get(HELP).starts_with("Usage: grep [OPTION]... PATTERNS [FILE]...\n")
            && texts::get(VERSION).starts_with("grep (GNU grep) 3.8\n")
    );
    let g = parse_grep(&s(&["-d", "bogus", "x"]), 0);
    assert!(g.usage_fails && g.usage.unwrap().starts_with("grep: invalid argument ‘bogus’ for ‘--directories’"));
    let g = parse_grep(&s(&["-D", "bogus", "x"]), 0);
    assert_eq!((g.usage.as_deref(), g.usage_fails), (Some("grep: unknown devices method\n"), false));
}

#[test]
fn rg_files_and_type_list_are_modes_and_the_last_mode_wins() {
    let r = parse_rg(&s(&["--files", "docs", "-g", "*.md", "api"]));
    assert!(r.files_only && r.output.files && r.patterns.is_empty());
    assert_eq!(r.paths, vec![1, 4], "under --files the first word is a path");
    let r = parse_rg(&s(&["--files", "-c", "x", "docs"]));
    assert!(!r.files_only && r.output.count && r.patterns == ["x"], "a later -c wins");
    let r = parse_rg(&s(&["-l", "--type-list", "x"]));
    assert!(r.files_only && r.output.type_list && !r.output.files_with_matches && !r.invalid);
}

#[test]
fn rg_column_vimgrep_and_byte_offset() {
    let o = parse_rg(&s(&["--column", "x"])).output;
    assert!(o.column && !o.vimgrep);
    let o = parse_rg(&s(&["--vimgrep", "--no-column", "-b", "x"])).output;
    assert!(o.vimgrep && !o.column && o.byte_offset && o.unmodelled.is_none());
    let r = parse_rg(&s(&["--json", "x"]));
    assert!(r.output.json && r.output.unmodelled.is_none());
    assert_eq!(r.unsafe_flag.as_deref(), Some("--json"), "its figures count every file in scope: never narrowed");
    assert!(!parse_rg(&s(&["--json", "-c", "x"])).output.json, "the last of the modes wins");
    let r = parse_rg(&s(&["--files", "--json", "x"]));
    assert!(r.output.json && !r.files_only && r.patterns == ["x"], "--json after --files searches");
}

#[test]
fn rg_is_case_sensitive_unless_told() {
    assert!(!parse_rg(&s(&["foo"])).ignore_case());
    assert!(parse_rg(&s(&["-S", "foo"])).ignore_case());
    assert!(!parse_rg(&s(&["-S", "Foo"])).ignore_case());
    assert!(!parse_rg(&s(&["-i", "-s", "foo"])).ignore_case());
    assert!(parse_rg(&s(&["-s", "-i", "Foo"])).ignore_case());
}

#[test]
fn rg_operands_and_values() {
    assert_eq!(parse_rg(&s(&["-e", "a", "b", "c"])).paths, vec![2, 3], "after -e, every word is a path");
    assert_eq!(parse_rg(&s(&["-tmd", "x", "y"])).paths, vec![2]);
    assert_eq!(parse_rg(&s(&["-g", "*.md", "x", "--sort", "path", "y"])).paths, vec![5]);
    assert!(parse_rg(&s(&["--nope", "x"])).invalid);
    let p = parse_rg(&s(&["-P", "x"]));
    assert!(!p.invalid && p.output.pcre2 && p.files_only, "-P is refused in ripgrep's words, nothing searched");
    assert!(parse_rg(&s(&["-e"])).invalid);
}

#[test]
fn rg_names_the_option_it_cannot_model() {
    assert_eq!(parse_rg(&s(&["-v", "x", "/"])).unsafe_flag.as_deref(), Some("-v"));
    assert_eq!(parse_rg(&s(&["--hidden", "-v", "x"])).unsafe_flag.as_deref(), Some("--hidden"));
    assert_eq!(parse_rg(&s(&["--max-depth=2", "x"])).unsafe_flag.as_deref(), Some("--max-depth"));
    let f = parse_rg(&s(&["-f", "pats", "--file=more", "/"]));
    assert_eq!(f.unsafe_flag, None, "-f files are read before the plan");
    assert_eq!(f.pattern_files, s(&["pats", "more"]));
    assert_eq!(f.paths, [3]);
    assert_eq!(parse_rg(&s(&["-n", "x", "/"])).unsafe_flag, None);
}
