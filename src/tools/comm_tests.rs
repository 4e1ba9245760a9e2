use super::testing::same_as_gnu;

#[test]
fn comm_files_as_gnu() {
    same_as_gnu(
        &[
            "comm a.txt b.txt",
            "comm b.txt a.txt",
            "comm -1 a.txt b.txt",
            "comm -2 a.txt b.txt",
            "comm -3 a.txt b.txt",
            "comm -12 a.txt b.txt",
            "comm -13 a.txt b.txt",
            "comm -23 a.txt b.txt",
            "comm -123 a.txt b.txt",
            "comm --check-order a.txt b.txt",
            "comm --nocheck-order a.txt b.txt",
            "comm --check-order -3 a.txt b.txt",
            "comm --total a.txt b.txt",
            "comm --total -12 a.txt b.txt",
            "comm --output-delimiter=, a.txt b.txt",
            "comm --output-delimiter=:: --total a.txt b.txt",
            "comm --output-delimiter= a.txt b.txt",
            "comm --output-delimiter= --total a.txt b.txt",
            "comm --output-delimiter=, --output-delimiter=: a.txt b.txt",
            "comm --output-delimiter=, --output-delimiter=, a.txt b.txt",
            "comm -z a.txt b.txt",
            "comm a.txt a.txt",
            "comm empty.txt a.txt",
            "comm a.txt empty.txt",
            "comm nonl.txt a.txt",
            "comm dup.txt a.txt",
            "comm page.md b.txt",
            "comm --check-order page.md b.txt",
            "comm --nocheck-order page.md b.txt",
            "comm words.txt csv.txt",
            "comm utf8.txt a.txt",
            "comm nosuch a.txt",
            "comm a.txt nosuch",
            "comm dir a.txt",
            "comm a.txt",
            "comm",
            "comm a.txt b.txt c.txt",
            "comm - a.txt",
            "comm a.txt -",
            "comm -3 - b.txt",
            "comm --tot a.txt b.txt",
            "comm --c a.txt b.txt",
            "comm --foo a.txt b.txt",
            "comm -4 a.txt b.txt",
            "comm --help",
            "comm --version",
        ],
        "apple\nbanana\nfig\n",
    );
}

#[test]
fn comm_order_as_gnu() {
    let lines = [
        "comm - a.txt",
        "comm a.txt -",
        "comm -3 - b.txt",
        "comm --check-order - a.txt",
        "comm --check-order a.txt -",
        "comm --nocheck-order - b.txt",
        "comm --total - b.txt",
        "comm -12 - b.txt",
    ];
    same_as_gnu(&lines, "cherry\napple\nzebra\n");
    same_as_gnu(&lines, "apple\ncherry\ndate\n");
    same_as_gnu(&lines, "zz\nyy\n");
    same_as_gnu(&lines, "apple\nbanana\nzz\naa\n");
    same_as_gnu(&lines, "");
}
