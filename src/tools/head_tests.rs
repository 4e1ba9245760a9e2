use super::testing::same_as_gnu;

#[test]
fn head_as_gnu() {
    same_as_gnu(
        &[
            "head page.md",
            "head -n 3 page.md",
            "head -n3 a.txt b.txt",
            "head -3 a.txt",
            "head -2c a.txt",
            "head -c 1k page.md",
            "head -c 5 utf8.txt",
            "head -c -5 a.txt",
            "head -n -2 a.txt",
            "head -n -2 nonl.txt",
            "head -n 0 a.txt",
            "head -n1 -- a.txt",
            "head -q -n1 a.txt b.txt",
            "head -v -n1 a.txt",
            "head --lines=2 a.txt",
            "head --li 2 a.txt",
            "head -n 2 nosuch a.txt",
            "head dir",
            "head -n x a.txt",
            "head -n 99999999999999999999999 a.txt",
            "head -5x a.txt",
            "head -k a.txt",
            "head --foo a.txt",
            "head -n",
            "head -z -n1 a.txt",
            "head empty.txt nonl.txt",
            "head -n 2 - a.txt",
            "head --version",
            "head --help",
        ],
        "from\nstdin\nlines\n",
    );
}
