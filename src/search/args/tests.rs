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

fn rg(line: &str) -> RgArgs {
    parse_rg(&s(&line.split(' ').collect::<Vec<_>>()))
}

#[test]
fn rg_refuses_what_ripgrep_15_refuses() {
    // Each is a usage error of rg 15.2 ("unrecognized flag", "unexpected argument",
    // "missing value"): the line is left to just-bash.
    for line in [
        "--max-coun 1 x",
        "--count=3 x",
        "-c=3 x",
        "-nc= x",
        "--no-count x",
        "--no-ignore-case x",
        "-X x",
        "-= x",
        "-m",
        "--sort",
    ] {
        assert!(rg(line).invalid, "{line}");
    }
    for line in
        ["-m=1 x", "--max-count 1 x", "--no-follow x", "--ignore x", "--passthrough x", "--maxdepth 1 x", "-. x"]
    {
        assert!(!rg(line).invalid, "{line}");
    }
}

#[test]
fn rg_values_as_ripgrep_15_takes_them() {
    // rg -m=1, -cm1 and --max-count 1 each stop at the first match.
    for line in ["-m=1 x", "-m1 x", "-m 1 x", "--max-count=1 x", "--max-count 1 x", "-cm1 x", "-cm=1 x"] {
        assert_eq!(rg(line).output.max_count, Some(1), "{line}");
    }
    assert!(rg("-cm1 x").output.count);
    let o = rg("-nA2 --before-context=3 --context 4 x").output;
    assert_eq!((o.after, o.before, o.context, o.explicit_line_numbers), (Some(2), Some(3), 4, true));
    assert_eq!(rg("-m= x").output.unmodelled.as_deref(), Some("-m"), "an empty count is ripgrep's error to print");
    let r = rg("-e -foo -- -x");
    assert_eq!((r.patterns.clone(), r.paths), (s(&["-foo"]), vec![3]), "a value may start with a dash");
    assert_eq!(rg("--maxdepth 1 x").output.max_depth, Some(1), "ripgrep's other spelling of --max-depth");
}

#[test]
fn rg_operands_are_paths_once_a_pattern_is_given_by_a_flag() {
    // rg bar -e foo: `bar` is a path ("rg: bar: IO error ... No such file or directory").
    let r = rg("bar -e foo");
    assert_eq!((r.patterns.clone(), r.paths), (s(&["foo"]), vec![0]));
    let r = rg("-- -foo docs");
    assert_eq!((r.patterns.clone(), r.paths), (s(&["-foo"]), vec![2]));
    assert_eq!(rg("foo -- -x").paths, vec![2]);
}

#[test]
fn rg_negations_turn_their_flag_off() {
    let r = rg("-F --no-fixed-strings -U --no-multiline x");
    assert!(!r.fixed && !r.multiline && r.output.unmodelled.is_none());
    let o = rg("-b --no-byte-offset -a --no-text --json --no-json x").output;
    assert!(!o.byte_offset && !o.binary && !o.json);
    assert!(rg("-c --no-json x").output.count, "--no-json turns no other mode off");
    let r = rg("--no-hidden --no-follow --ignore --messages --no-search-zip --no-stats x");
    assert!((r.unsafe_flag.clone(), r.output.unmodelled.clone()) == (None, None), "defaults, answered natively");
    let r = rg("--no-context-separator x");
    assert_eq!((r.output.unmodelled.as_deref(), r.unsafe_flag), (Some("--no-context-separator"), None));
    let r = rg("-. x");
    assert!(r.output.hidden && r.unsafe_flag.as_deref() == Some("-."), "ripgrep 15's -. is --hidden");
}

#[test]
fn rg_flags_not_modelled_are_left_to_just_bash_over_the_whole_scope() {
    for (line, flag) in [("--crlf x", "--crlf"), ("-p x", "-p"), ("--sort=modified x", "--sort"), ("-E utf-16 x", "-E")]
    {
        let r = rg(line);
        assert_eq!((r.output.unmodelled.as_deref(), r.unsafe_flag.as_deref()), (Some(flag), Some(flag)), "{line}");
    }
    let r = rg("--help x");
    assert!(r.files_only && r.output.help && !r.invalid, "rg --help searches nothing");
    assert!(rg("-V --help").output.version.is_none(), "the last of -V and --help wins");
    assert_eq!(rg("--help -V").output.version, Some(false));
}

#[test]
fn rg_pre_runs_a_process_left_to_just_bash() {
    let r = rg("--pre cat x");
    assert!(r.preprocessor && r.output.unmodelled.as_deref() == Some("--pre"));
    assert_eq!(r.unsafe_flag.as_deref(), Some("--pre"));
    let r = rg("--pre cat --no-pre x");
    assert!(!r.preprocessor, "ripgrep runs no preprocessor after --no-pre");
    assert!(rg("--no-pre x").output.unmodelled.is_none());
}
