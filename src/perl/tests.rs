use super::*;

fn o() -> Options {
    Options { ignore_case: false, word: false, line: false }
}

fn all(pattern: &str, o: Options, line: &str) -> Vec<String> {
    let re = compile(pattern, o).unwrap();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(m) = re.find_at(line, at).unwrap() {
        if m.is_empty() {
            break;
        }
        at = m.end;
        found.push(line[m].to_string());
    }
    found
}

#[test]
fn what_people_reach_for_p_for() {
    assert_eq!(all("quokka(?=flux)", o(), "quokkaflux quokka bar"), ["quokka"]);
    assert_eq!(all("(?<!x)bar", o(), "xbar bar"), ["bar"]);
    assert_eq!(all("foo=\\K\\w+", o(), "foo=abc_d\u{e9}f"), ["abc_d"], "\\w is ASCII's");
    assert_eq!(all("(ab)\\1", o(), "abab ab"), ["abab"]);
    assert_eq!(all("(?i)\u{e9}t\u{e9}", o(), "\u{c9}T\u{c9}"), ["\u{c9}T\u{c9}"], "caseless beyond ASCII");
    assert_eq!(all("\\bfoo\\b", o(), "foo food \u{e9}foo"), ["foo", "foo"], "\\b is ASCII's");
}

#[test]
fn a_lookbehind_sees_before_the_start() {
    let re = compile("(?<=a)b", o()).unwrap();
    assert_eq!(re.find_at("ab", 1).unwrap(), Some(1..2));
}

#[test]
fn word_and_line() {
    let w = Options { word: true, ..o() };
    assert_eq!(all("ab(?=c)", w, "abc ab"), Vec::<String>::new());
    assert_eq!(all("a.", w, "ab xa_ ac"), ["ab", "ac"]);
    let x = Options { line: true, ..o() };
    assert_eq!(all("a|ab", x, "ab"), ["ab"]);
}

#[test]
fn pcre_refuses_in_its_words() {
    let refused = |p: &str| match compile(p, o()) {
        Err(Refusal::Invalid(m)) => m,
        other => panic!("{p}: {:?}", other.map(|_| ())),
    };
    assert_eq!(refused("a("), "missing closing parenthesis");
    assert_eq!(refused("a)"), "unmatched closing parenthesis");
    assert_eq!(refused("a(?<=b+)c"), "lookbehind assertion is not fixed length");
    assert_eq!(refused("(a)\\2"), "reference to non-existent subpattern");
    assert_eq!(refused("[z-a]"), "range out of order in character class");
}

#[test]
fn a_hostile_pattern_gives_up_in_bounded_time() {
    let re = compile("(?=(a+)+$)b|(a|aa)+\\1c", o()).unwrap();
    let line = "a".repeat(40);
    assert_eq!(re.find_at(&line, 0), Err(Exceeded));
}
