use super::testing::same_as_gnu;

#[test]
fn wc_files_as_gnu() {
    same_as_gnu(
        &[
            "wc page.md",
            "wc a.txt b.txt",
            "wc -l page.md",
            "wc -l a.txt b.txt",
            "wc -w words.txt",
            "wc -c utf8.txt",
            "wc -m utf8.txt",
            "wc -L utf8.txt",
            "wc -L words.txt",
            "wc -L page.md a.txt",
            "wc -lwmcL utf8.txt",
            "wc -cl page.md",
            "wc -lc page.md",
            "wc --lines --words page.md",
            "wc --byt page.md",
            "wc --char utf8.txt",
            "wc --max page.md",
            "wc --wo nonl.txt",
            "wc nonl.txt",
            "wc empty.txt",
            "wc -l empty.txt",
            "wc empty.txt a.txt",
            "wc nosuch",
            "wc nosuch a.txt",
            "wc a.txt nosuch",
            "wc -l a.txt nosuch b.txt",
            "wc dir",
            "wc -l dir",
            "wc dir a.txt",
            "wc a.txt dir",
            "wc -c a.txt dir",
            "wc ''",
            "wc a.txt ''",
            "wc 'no:such' \"no it's!\" \"it's\"",
            "wc page.md a.txt b.txt nums.txt csv.txt words.txt nonl.txt empty.txt utf8.txt dup.txt",
            "wc -w page.md a.txt b.txt nums.txt csv.txt words.txt",
            "wc -L nums.txt csv.txt",
            "wc -- a.txt",
            "wc a.txt -l",
            "wc -x a.txt",
            "wc --foo",
            "wc --total=always a.txt",
            "wc --l a.txt",
            "wc --m a.txt",
            "wc --files0-from",
            "wc --files0-from=nosuch",
            "wc --files0-from=nonl.txt",
            "wc --files0-from=empty.txt",
            "wc --files0-from=dir",
            "wc --files0-from=a.txt b.txt",
            "wc --help",
            "wc --version",
            "wc --debug a.txt",
        ],
        "",
    );
}

#[test]
fn wc_stdin_as_gnu() {
    same_as_gnu(
        &[
            "wc",
            "wc -l",
            "wc -w",
            "wc -c",
            "wc -m",
            "wc -L",
            "wc -lw",
            "wc -",
            "wc - a.txt",
            "wc a.txt -",
            "wc - -",
            "wc -l -",
            "wc -c - a.txt",
            "wc -m -c",
        ],
        "grep output line one\nfile.md:2: café  au lait\n\tindented\twith tabs\n日本語 テキスト\nno newline",
    );
    same_as_gnu(
        &["wc", "wc -L", "wc -w", "wc -m", "wc -l", "wc -c"],
        "a\u{a0}b c\u{3000}d\u{2003}e\u{2028}f\r\n\x0bg\x0ch\u{301}\u{200b}i\x01j 🎉\n",
    );
    same_as_gnu(&["wc", "wc -l", "wc -L"], "");
    same_as_gnu(
        &["wc --files0-from=-", "wc -l --files0-from=-", "wc --files0-from=- a.txt"],
        "a.txt\0b.txt\0nosuch\0\0-\0dir\0page.md",
    );
    same_as_gnu(&["wc --files0-from=-", "wc -c --files0-from=-"], "page.md");
}
