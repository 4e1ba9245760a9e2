use super::*;

fn engine(p: &[&str], dialect: Dialect, ignore_case: bool, word: bool, line: bool) -> Result<Engine, Unsupported> {
    let p: Vec<String> = p.iter().map(|s| s.to_string()).collect();
    Engine::new(&p, Flags { dialect, ignore_case, word, line, tool: Tool::Gnu })
}

fn rg(p: &str, word: bool) -> Engine {
    Engine::new(
        &[p.to_string()],
        Flags { dialect: Dialect::Perl, ignore_case: false, word, line: false, tool: Tool::Rg },
    )
    .unwrap()
}

fn m(e: &Engine, text: &str) -> bool {
    e.is_match(text)
}

fn spans<'a>(e: &'a Engine, text: &'a str) -> Vec<&'a str> {
    e.matches(text).collect()
}

fn lite(p: &str, d: Dialect) -> String {
    match engine(&[p], d, false, false, false).unwrap().re {
        Re::Lite(re) => re.as_str().to_string(),
        Re::Perl(_) => panic!("{p}: not the subset's"),
    }
}

#[test]
fn translations_keep_gnu_meanings() {
    assert_eq!(lite("a\\sb", Dialect::Extended), "a\\sb");
    assert_eq!(lite("\\<x\\>", Dialect::Extended), "\\b{start}x\\b{end}", "GNU's word starts and ends");
    assert_eq!(lite("a{,3}", Dialect::Extended), "a{0,3}");
    assert_eq!(lite("[a[b&&c~-]", Dialect::Extended), "[a\\[b\\&\\&c\\~\\-]", "no nested classes or set operations");
    assert_eq!(lite("[]a]", Dialect::Extended), "[\\]a]");
    assert_eq!(lite("a.b", Dialect::Fixed), "a\\.b");
    assert_eq!(lite("a+(b)", Dialect::Basic), "a\\+\\(b\\)");
    assert_eq!(lite("[[:digit:]]x", Dialect::Basic), "[0123456789]x");
}

#[test]
fn several_patterns_are_one_alternation() {
    let e = engine(&["a.b", "c"], Dialect::Fixed, false, false, false).unwrap();
    assert!(m(&e, "xa.by") && !m(&e, "axb") && m(&e, "c"));
    let e = engine(&["a\\|b", "c"], Dialect::Basic, false, true, false).unwrap();
    assert!(m(&e, "x b y") && !m(&e, "cc"));
    let e = engine(&["mint", "mintlify"], Dialect::Fixed, false, false, false).unwrap();
    assert_eq!(spans(&e, "a mintlify b"), ["mintlify"], "GNU's longest match among literals");
}

#[test]
fn literals_in_alternation_need_no_regex() {
    let alt = |p: &[&str], d, i| engine(p, d, i, false, false).unwrap().alternatives;
    assert!(alt(&["SAML", "OIDC"], Dialect::Fixed, false));
    assert!(alt(&["SAML", "OIDC"], Dialect::Basic, true));
    assert!(alt(&["SAML|OIDC"], Dialect::Extended, false));
    assert!(alt(&["(SAML)|(OIDC|SSO)"], Dialect::Extended, false));
    assert!(!alt(&["api[_-]key"], Dialect::Extended, false), "a class");
    assert_eq!(parse("a(?:b|c)d").unwrap().alternatives(), Some(vec!["abd".into(), "acd".into()]));
    assert!(!alt(&["SAML", "OI.C"], Dialect::Basic, false), "a class is no literal");
    assert!(!alt(&["SAML|"], Dialect::Extended, false), "an empty alternative matches every line");
    assert!(!engine(&["SAML", "OIDC"], Dialect::Fixed, false, true, false).unwrap().alternatives, "-w");
    let e = engine(&["SAML", "OIDC"], Dialect::Fixed, true, false, false).unwrap();
    assert!(m(&e, "x saml y") && m(&e, "Oidc") && !m(&e, "sam l"));
    assert_eq!(spans(&e, "OIDC then SAML"), ["OIDC", "SAML"], "its matches are the regex's");
}

#[test]
fn rg_joins_several_patterns_its_own_way() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(rg_pattern(&s(&["a+"]), false).unwrap(), ("a+".to_string(), Dialect::Perl));
    assert_eq!(rg_pattern(&s(&["a+", "b"]), false).unwrap(), ("(?:a+)|(?:b)".to_string(), Dialect::Perl));
    assert_eq!(rg_pattern(&s(&["a+", "b"]), true).unwrap(), ("a\\+|b".to_string(), Dialect::Perl));
    assert_eq!(rg_pattern(&s(&["a+"]), true).unwrap().1, Dialect::Fixed);
}

#[test]
fn words_are_not_preceded_or_followed_by_word_characters() {
    let e = engine(&["foo"], Dialect::Basic, false, true, false).unwrap();
    assert!(m(&e, "a foo b") && !m(&e, "food") && !m(&e, "日foo") && m(&e, "—foo"));
    let e = engine(&["$ref"], Dialect::Fixed, false, true, false).unwrap();
    assert!(m(&e, "a $ref") && m(&e, "($ref)"), "a pattern that starts with a non-word character");
    assert!(!m(&e, "x$ref"), "GNU: the match must not follow a word character");
    let e = engine(&["foo|bar"], Dialect::Extended, true, false, true).unwrap();
    assert!(m(&e, "BAR") && !m(&e, "bar "));
    let e = rg("mint", true);
    assert!(m(&e, "x mint y") && !m(&e, "搜索mint部署") && m(&e, "。mint。"));
    assert!(!m(&engine(&["mint"], Dialect::Fixed, false, true, false).unwrap(), "搜索mint"));
    assert!(
        m(&engine(&["mint"], Dialect::Fixed, false, true, false).unwrap(), "a\u{301}mint b"),
        "glibc: a mark is no word character"
    );
    assert!(!m(&rg("mint", true), "a\u{301}mint b"), "Unicode: it is");
}

#[test]
fn classes_beyond_ascii_are_the_tools() {
    let e = engine(&["caf\\w"], Dialect::Basic, false, false, false).unwrap();
    assert!(m(&e, "un café") && !m(&e, "caf—"));
    assert_eq!(
        spans(&engine(&["\\w+"], Dialect::Extended, false, false, false).unwrap(), "é日 x—y"),
        ["é日", "x", "y"]
    );
    assert_eq!(spans(&rg("\\d+", false), "a٣٤b 5"), ["٣٤", "5"]);
    let e = engine(&["[[:alpha:]]+"], Dialect::Extended, false, false, false).unwrap();
    assert!(e.exact_on("plain") && !e.exact_on("café"), "glibc decides [:alpha:] beyond ASCII");
    let e = engine(&["\\bété"], Dialect::Extended, false, false, false).unwrap();
    assert!(!e.exact_on("l'été"), "a pattern beyond ASCII beside classes");
}

#[test]
fn outside_the_shared_subset_is_refused() {
    for p in ["\\pL", "(?i)a", "(?<n>a)", "a{1001}", "[[:foo:]]", "\\x41", "\\1", "*a", "\\d"] {
        assert!(engine(&[p], Dialect::Extended, false, false, false).is_err(), "{p}");
    }
    assert!(engine(&["été"], Dialect::Fixed, true, false, false).is_err());
    assert!(engine(&["a**"], Dialect::Extended, false, false, false).is_ok(), "GNU reads it as (a*)*");
}

#[test]
fn nullable_patterns_are_known() {
    assert!(engine(&["a*"], Dialect::Extended, false, false, false).unwrap().nullable);
    assert!(engine(&["x|"], Dialect::Extended, false, false, false).unwrap().nullable);
    assert!(!engine(&["a+"], Dialect::Extended, false, false, false).unwrap().nullable);
}

#[test]
fn case_folding_beyond_ascii_is_flagged() {
    let e = engine(&["s"], Dialect::Fixed, true, false, false).unwrap();
    assert!(!e.exact_on("long \u{17F}") && e.exact_on("Kelvin \u{212A}"), "GNU folds the long s, not the Kelvin sign");
    let e = Engine::new(
        &["k".into()],
        Flags { dialect: Dialect::Fixed, ignore_case: true, word: false, line: false, tool: Tool::Rg },
    )
    .unwrap();
    assert!(!e.exact_on("\u{212A}elvin"), "ripgrep folds the Kelvin sign");
}

#[test]
fn characters_beyond_ascii_are_found_in_one_pass() {
    let (kelvin, long_s, dotless) = ('\u{212A}', '\u{17F}', '\u{131}');
    let chars = [kelvin, long_s, dotless];
    for text in ["", "ascii only", "a dash \u{2014} and \u{201C}quotes\u{201D}, \u{C5}", "\u{2129}\u{212B}"] {
        assert!(!holds_any(text, &chars), "{text:?}");
    }
    for c in chars {
        for text in [format!("{c}"), format!("x \u{2014} y{c}"), format!("{c}\u{2014}")] {
            assert!(holds_any(&text, &chars) && holds_any(&text, &[c]), "{text:?}");
        }
    }
    assert!(!holds_any("\u{17F}", &[kelvin]) && folds_beyond_ascii("x\u{17F}") && !folds_beyond_ascii("\u{131}"));
}

#[test]
fn gnu_perl_negated_shorthands_match_ascii_alone() {
    let p = |pat: &str| engine(&[pat], Dialect::Perl, false, false, false).unwrap();
    for (pat, text, want) in [
        ("\\D", "é", false),
        ("\\D", "项目", false),
        ("\\D", "ab", true),
        ("\\W", "é ", true),
        ("\\W", "é", false),
        ("\\S", "项", false),
        ("\\S", "1", true),
        ("[^0-9]", "项", true),
        ("a\\\\Db", "a\\Db", true),
    ] {
        assert_eq!(m(&p(pat), text), want, "grep -P '{pat}' on {text:?}");
    }
    assert_eq!(spans(&p("\\D+"), "éab1c"), ["ab", "c"]);
    assert!(m(&rg("\\D", false), "é"), "ripgrep's \\D is Unicode's");
}
