//! Command lines read by the one grammar, under each of its rules.

use super::*;

const OPTS: &[Opt] = &[
    opt('n', "lines", Arg::Required),
    opt('q', "quiet", Arg::No),
    alias("silent", Arg::No, "quiet"),
    opt('v', "verbose", Arg::No),
    opt('i', "in-place", Arg::Optional),
    long("sort", Arg::Required),
    long("stable", Arg::No),
    short("z", Arg::No),
];
const G: Grammar = Grammar { opts: OPTS, ..GETOPT_LONG };

fn words(s: &str) -> Vec<String> {
    s.split(' ').filter(|w| !w.is_empty()).map(String::from).collect()
}

fn keys(line: &Line) -> Vec<(&str, Option<&str>)> {
    line.opts.iter().map(|g| (g.key, g.value.as_deref())).collect()
}

#[test]
fn clusters_values_and_operands() {
    let l = parse(&G, &words("-qvn5 a --lines 3 -n -2 b -- -z")).unwrap();
    assert_eq!(
        keys(&l),
        [("quiet", None), ("verbose", None), ("lines", Some("5")), ("lines", Some("3")), ("lines", Some("-2"))]
    );
    assert_eq!(l.operands, ["a", "b", "-z"]);
    let l = parse(&G, &words("-i -i.bak --in-place=x --in-place - -z")).unwrap();
    assert_eq!(
        keys(&l),
        [("in-place", None), ("in-place", Some(".bak")), ("in-place", Some("x")), ("in-place", None), ("z", None)]
    );
    assert_eq!(l.operands, ["-"]);
}

#[test]
fn prefixes_and_aliases() {
    let l = parse(&G, &words("--li=4 --sil --ve --so x")).unwrap();
    assert_eq!(keys(&l), [("lines", Some("4")), ("quiet", None), ("verbose", None), ("sort", Some("x"))]);
    let e = parse(&G, &words("--s")).unwrap_err();
    assert_eq!(e.message("sort"), "sort: option '--s' is ambiguous; possibilities: '--silent' '--sort' '--stable'\n");
    let e = parse(&G, &words("--st=1")).unwrap_err();
    assert_eq!(e, Misuse::NoValueAllowed("--stable".into()));
}

#[test]
fn misuse_in_glibc_words() {
    let m = |s: &str| parse(&G, &words(s)).unwrap_err().message("head");
    assert_eq!(m("-x"), "head: invalid option -- 'x'\n");
    assert_eq!(m("-n"), "head: option requires an argument -- 'n'\n");
    assert_eq!(m("--lin"), "head: option '--lines' requires an argument\n");
    assert_eq!(m("--foo=bar"), "head: unrecognized option '--foo=bar'\n");
    assert_eq!(m("--quiet=3"), "head: option '--quiet' doesn't allow an argument\n");
}

#[test]
fn digits_are_options_when_asked() {
    let g = Grammar { digits: Digits::Each, ..G };
    let l = parse(&g, &words("-12 -q3 x")).unwrap();
    assert_eq!(keys(&l), [("1", None), ("2", None), ("quiet", None), ("3", None)]);
    assert_eq!(l.opts.iter().map(|g| g.word).collect::<Vec<_>>(), [0, 0, 1, 1], "each option knows its word");
    let g = Grammar { digits: Digits::Number, ..G };
    let l = parse(&g, &words("-80 -q4,8 -5")).unwrap();
    assert_eq!(keys(&l), [("8", Some("0")), ("quiet", None), ("4", Some(",8")), ("5", None)]);
    assert_eq!(parse(&G, &words("-1")).unwrap_err(), Misuse::Invalid('1'));
}

#[test]
fn options_stop_at_the_first_operand_when_asked() {
    let g = Grammar { permute: false, ..G };
    let l = parse(&g, &words("-q echo -n 1")).unwrap();
    assert_eq!(keys(&l), [("quiet", None)]);
    assert_eq!(l.operands, ["echo", "-n", "1"]);
}

/// A few of ripgrep 15's flags, read as it reads them.
const RG: Grammar = Grammar {
    opts: &[
        opt('c', "count", Arg::No),
        opt('n', "line-number", Arg::No),
        opt('m', "max-count", Arg::Required),
        opt('e', "regexp", Arg::Required),
        long("heading", Arg::No),
        negation("no-heading", "heading"),
        long("context-separator", Arg::Required),
        negation("no-context-separator", "context-separator"),
        long("no-ignore", Arg::No),
        negation("ignore", "no-ignore"),
    ],
    longs: Longs::Exact,
    shorts: Shorts::ClusteredEquals,
    ..GETOPT_LONG
};

fn given(line: &Line) -> Vec<(&str, Option<&str>, bool)> {
    line.opts.iter().map(|g| (g.key, g.value.as_deref(), g.negated)).collect()
}

#[test]
fn whole_long_names_and_negations_as_ripgrep_reads_them() {
    let l = parse(&RG, &words("--max-count=1 --max-count 2 x --no-heading --heading --ignore")).unwrap();
    assert_eq!(
        given(&l),
        [
            ("max-count", Some("1"), false),
            ("max-count", Some("2"), false),
            ("heading", None, true),
            ("heading", None, false),
            ("no-ignore", None, true)
        ]
    );
    assert_eq!(l.opts[2].spelled, "--no-heading");
    assert_eq!(l.operands, ["x"]);
    // rg: "unrecognized flag --max-coun", and "--count": unexpected argument "3".
    assert_eq!(parse(&RG, &words("--max-coun 1")).unwrap_err(), Misuse::Unrecognized("--max-coun".into()));
    assert_eq!(parse(&RG, &words("--count=3")).unwrap_err(), Misuse::NoValueAllowed("--count".into()));
    let l = parse(&RG, &words("--no-context-separator x")).unwrap();
    assert_eq!((given(&l), &l.operands[..]), (vec![("context-separator", None, true)], &["x".to_string()][..]));
    assert_eq!(parse(&RG, &words("--no-heading=1")).unwrap_err(), Misuse::NoValueAllowed("--no-heading".into()));
    assert_eq!(parse(&RG, &words("--max-count")).unwrap_err(), Misuse::LongNeedsValue("max-count"));
}

#[test]
fn short_values_after_an_equals_sign_as_ripgrep_reads_them() {
    let l = parse(&RG, &words("-m5 -m=6 -m 7 -cm8 -nm=9 -e -foo -m=")).unwrap();
    let values: Vec<_> = l.opts.iter().map(|g| (g.spelled.as_str(), g.value.as_deref())).collect();
    assert_eq!(
        values,
        [
            ("-m", Some("5")),
            ("-m", Some("6")),
            ("-m", Some("7")),
            ("-c", None),
            ("-m", Some("8")),
            ("-n", None),
            ("-m", Some("9")),
            ("-e", Some("-foo")),
            ("-m", Some(""))
        ]
    );
    // rg: "unexpected argument for option '-c'"; "unrecognized flag -=", "-é", "-X".
    assert_eq!(parse(&RG, &words("-c=3")).unwrap_err(), Misuse::NoValueAllowed("-c".into()));
    assert_eq!(parse(&RG, &words("-nc=")).unwrap_err(), Misuse::NoValueAllowed("-c".into()));
    assert_eq!(parse(&RG, &words("-=")).unwrap_err(), Misuse::Invalid('='));
    assert_eq!(parse(&RG, &words("-é")).unwrap_err(), Misuse::Invalid('é'));
    assert_eq!(parse(&RG, &words("-nm")).unwrap_err(), Misuse::ShortNeedsValue('m'));
    assert_eq!(parse(&RG, &words("-n=1")).unwrap_err().message("rg"), "rg: option '-n' doesn't allow an argument\n");
}

/// A few of tree 2.1's options, read as it reads them.
const TREE: Grammar = Grammar {
    opts: &[
        short("a", Arg::No),
        short("d", Arg::No),
        short("L", Arg::Required),
        short("P", Arg::Required),
        long("noreport", Arg::No),
        long("sort", Arg::Required),
        long("charset", Arg::Required),
        long("info", Arg::No),
        long("infofile", Arg::Required),
    ],
    longs: Longs::Leading,
    shorts: Shorts::NextWords,
    ..GETOPT_LONG
};

#[test]
fn values_from_the_next_words_as_tree_reads_them() {
    let l = parse(&TREE, &words("-LP 2 a d -dL 1 e")).unwrap();
    assert_eq!(keys(&l), [("L", Some("2")), ("P", Some("a")), ("d", None), ("L", Some("1"))]);
    assert_eq!(l.operands, ["d", "e"]);
    // tree -L2 d: the level is `d` (tree stops there: "Invalid level"), then `2` is no option.
    let (l, misuse) = read(&TREE, &words("-L2 d"));
    assert_eq!((keys(&l), misuse), (vec![("L", Some("d"))], Some(Misuse::Invalid('2'))));
    // "Missing argument to -L option.", "Invalid argument -`-'."
    assert_eq!(parse(&TREE, &words("-aL")).unwrap_err(), Misuse::ShortNeedsValue('L'));
    assert_eq!(parse(&TREE, &words("-a-d")).unwrap_err(), Misuse::Invalid('-'));
    let l = parse(&TREE, &words("x -- -a")).unwrap();
    assert_eq!((l.operands, l.double_dash), (vec!["x".to_string(), "-a".to_string()], Some(1)));
}

#[test]
fn long_names_by_their_start_as_tree_reads_them() {
    let l =
        parse(&TREE, &words("--sortx name --sort=size --charsetfoo ascii --info --infofile=f --noreport d")).unwrap();
    assert_eq!(
        keys(&l),
        [
            ("sort", Some("name")),
            ("sort", Some("size")),
            ("charset", Some("ascii")),
            ("info", None),
            ("infofile", Some("f")),
            ("noreport", None)
        ]
    );
    assert_eq!(l.operands, ["d"]);
    // "Missing argument to --sort=", "Missing argument to --sort", "Invalid argument `--noreport=1'."
    assert_eq!(parse(&TREE, &words("--sort= d")).unwrap_err(), Misuse::EmptyValue("sort"));
    assert_eq!(parse(&TREE, &words("--sort")).unwrap_err(), Misuse::LongNeedsValue("sort"));
    assert_eq!(parse(&TREE, &words("--noreport=1")).unwrap_err(), Misuse::Unrecognized("--noreport=1".into()));
    assert_eq!(parse(&TREE, &words("--no")).unwrap_err(), Misuse::Unrecognized("--no".into()), "no abbreviations");
}

/// find's options before its starting points.
const FIND: Grammar = Grammar {
    opts: &[
        short("H", Arg::No),
        short("L", Arg::No),
        short("P", Arg::No),
        short("D", Arg::Required),
        short("O", Arg::Optional),
    ],
    permute: false,
    shorts: Shorts::Whole,
    unknown: Unknown::Operand,
    ..GETOPT_LONG
};

#[test]
fn whole_words_up_to_the_first_other_as_find_reads_them() {
    let l = parse(&FIND, &words("-L -D tree,stat -O2 -O . -name x")).unwrap();
    assert_eq!(keys(&l), [("L", None), ("D", Some("tree,stat")), ("O", Some("2")), ("O", None)]);
    assert_eq!((l.operands.len(), l.operand_at[0]), (3, 5));
    // find -HL, -Dtree, --help: an expression's words ("unknown predicate `-HL'").
    for line in ["-HL d", "-Dtree d", "--help", "-Q"] {
        let l = parse(&FIND, &words(&format!("-P {line}"))).unwrap();
        assert_eq!((keys(&l), l.operand_at[0]), (vec![("P", None)], 1), "{line}");
    }
    let l = parse(&FIND, &words("-H -- -L d")).unwrap();
    assert_eq!(
        (keys(&l), &l.operands[..], l.double_dash),
        (vec![("H", None)], &["-L".to_string(), "d".to_string()][..], Some(1))
    );
    // "Missing argument after the -D option."
    assert_eq!(parse(&FIND, &words("-H -D")).unwrap_err(), Misuse::ShortNeedsValue('D'));
}
