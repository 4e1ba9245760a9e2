use super::testing::{gnu, same_as_gnu};

#[test]
fn sums_as_gnu() {
    let mut lines = Vec::new();
    for tool in ["md5sum", "sha1sum", "sha256sum"] {
        for args in [
            "a.txt",
            "a.txt b.txt page.md",
            "empty.txt utf8.txt nonl.txt",
            "",
            "-",
            "- a.txt",
            "-b a.txt",
            "-t a.txt",
            "--tag a.txt b.txt",
            "--tag -b a.txt",
            "--tag -t a.txt",
            "-z a.txt b.txt",
            "nosuch a.txt",
            "dir",
            "--quiet a.txt",
            "--status a.txt",
            "-c -b a.txt",
            "--tag -c a.txt",
            "-x",
            "--help",
            "--version",
        ] {
            lines.push(format!("{tool} {args}"));
        }
    }
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    same_as_gnu(&lines, "stdin text\n");
}

#[test]
fn sums_check_as_gnu() {
    for tool in ["md5sum", "sha1sum", "sha256sum"] {
        let good = gnu(&format!("{tool} a.txt b.txt page.md"), "").stdout;
        let tagged = gnu(&format!("{tool} --tag a.txt utf8.txt"), "").stdout;
        let bad = good.replacen("a.txt", "b.txt", 1);
        let mixed = format!("# comment\n\n{good}garbage line\n{}  nosuch\n", &good[..good.find(' ').unwrap()]);
        let cases = [
            (format!("{tool} -c"), good.clone()),
            (format!("{tool} -c -"), tagged.clone()),
            (format!("{tool} --check --quiet"), good.clone()),
            (format!("{tool} -c"), bad.clone()),
            (format!("{tool} -c --quiet"), bad.clone()),
            (format!("{tool} -c --status"), bad.clone()),
            (format!("{tool} -c"), mixed.clone()),
            (format!("{tool} -c -w"), mixed.clone()),
            (format!("{tool} -c --strict"), mixed.clone()),
            (format!("{tool} -c --ignore-missing"), mixed.clone()),
            (format!("{tool} -c --status"), mixed.clone()),
            (format!("{tool} -c"), "no checksums here\n".to_string()),
            (format!("{tool} -c --ignore-missing"), format!("{}  nosuch\n", &good[..good.find(' ').unwrap()])),
            (
                format!("{tool} -c"),
                good.to_uppercase().replace("A.TXT", "a.txt").replace("B.TXT", "b.txt").replace("PAGE.MD", "page.md"),
            ),
            (format!("{tool} -c nosuch"), String::new()),
            (format!("{tool} -c"), good.replace("  ", " *")),
        ];
        for (line, stdin) in &cases {
            same_as_gnu(&[line], stdin);
        }
    }
}
