use super::testing::{ours, same_as_gnu};

#[test]
fn mktemp_refuses_and_explains_as_gnu() {
    same_as_gnu(
        &[
            "mktemp -x",
            "mktemp --suffix",
            "mktemp --suffix=/a",
            "mktemp a b",
            "mktemp fooXX",
            "mktemp -t foo/XXX",
            "mktemp -p /tmp /abs/XXX",
            "mktemp --tmpdir=/tmp /abs/XXX",
            "mktemp --suffix=.x fooXXXa",
            "mktemp --d",
            "mktemp -p",
            "mktemp --suffix=a/b XXX",
            "mktemp aXXXbXX",
            "mktemp --suffix=.s aXX",
            "mktemp ''",
            "mktemp -p /nonexist",
            "mktemp -d -p /nonexist fooXXX.d",
            "mktemp -q -p /nonexist",
            "mktemp --help",
            "mktemp -V",
            "mktemp --version",
        ],
        "",
    );
}

/// A name made from `template`: its X's letters and digits, the rest as given.
fn made(printed: &str, template: &str) -> bool {
    let name = printed.strip_suffix('\n').unwrap_or("");
    name.len() == template.len()
        && name.bytes().zip(template.bytes()).all(|(n, t)| if t == b'X' { n.is_ascii_alphanumeric() } else { n == t })
}

#[test]
fn mktemp_makes_a_new_name_from_the_template() {
    let r = ours("mktemp -u", "");
    assert!(made(&r.stdout, "/tmp/tmp.XXXXXXXXXX") && r.status == 0, "{r:?}");
    let r = ours("mktemp -u -t --suffix=.md fooXXX", "");
    assert!(made(&r.stdout, "/tmp/fooXXX.md"), "{r:?}");
    let r = ours("mktemp -u barXXXX.txt", "");
    assert!(made(&r.stdout, "barXXXX.txt"), "a suffix after the last X: {r:?}");
    let r = ours("mktemp -d -p /tmp", "");
    assert!(made(&r.stdout, "/tmp/tmp.XXXXXXXXXX"), "{r:?}");
    let dir = r.stdout.trim_end();
    assert!(std::path::Path::new(dir).is_dir(), "made as a directory");
    std::fs::remove_dir(dir).unwrap();
}
