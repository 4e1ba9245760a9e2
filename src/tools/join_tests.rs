use super::testing::same_as_gnu;

#[test]
fn join_files_as_gnu() {
    same_as_gnu(
        &[
            "join a.txt b.txt",
            "join b.txt a.txt",
            "join -a1 a.txt b.txt",
            "join -a2 a.txt b.txt",
            "join -a1 -a2 a.txt b.txt",
            "join -v1 a.txt b.txt",
            "join -v2 a.txt b.txt",
            "join -v1 -v2 a.txt b.txt",
            "join --check-order a.txt b.txt",
            "join --nocheck-order dup.txt a.txt",
            "join dup.txt a.txt",
            "join page.md b.txt",
            "join -a1 page.md b.txt",
            "join --check-order page.md b.txt",
            "join -t, csv.txt csv.txt",
            "join -t, --header csv.txt csv.txt",
            "join -t, -o 1.2,2.3 csv.txt csv.txt",
            "join -t, -j 2 csv.txt csv.txt",
            "join -t, -1 1 -2 1 -o auto csv.txt csv.txt",
            "join words.txt words.txt",
            "join -i dup.txt dup.txt",
            "join utf8.txt utf8.txt",
            "join nonl.txt nonl.txt",
            "join empty.txt a.txt",
            "join a.txt empty.txt",
            "join -a1 a.txt empty.txt",
            "join nosuch a.txt",
            "join a.txt nosuch",
            "join dir a.txt",
            "join a.txt dir",
            "join nosuch dir",
            "join - -",
            "join a.txt",
            "join",
            "join a.txt b.txt c.txt",
            "join -a 3 a.txt b.txt",
            "join -v x a.txt b.txt",
            "join -e a -e b a.txt b.txt",
            "join -o 3.1 a.txt b.txt",
            "join -o 1x a.txt b.txt",
            "join -o 1.0 a.txt b.txt",
            "join -o '' a.txt b.txt",
            "join -o 1.1,,2.1 a.txt b.txt",
            "join -o 0x a.txt b.txt",
            "join -1 0 a.txt b.txt",
            "join -1 x a.txt b.txt",
            "join -1 1 -j 2 a.txt b.txt",
            "join -t ab a.txt b.txt",
            "join -t a -t b a.txt b.txt",
            "join -z a.txt b.txt",
            "join --head a.txt b.txt",
            "join --c a.txt b.txt",
            "join --foo a.txt b.txt",
            "join -x a.txt b.txt",
            "join --help",
            "join --version",
        ],
        "",
    );
}

#[test]
fn join_fields_as_gnu() {
    let lines = [
        "join - b.txt",
        "join -a1 - b.txt",
        "join b.txt -",
        "join -j1 - b.txt",
        "join -1 2 -2 1 - b.txt",
        "join -1 2 -a1 - b.txt",
        "join -1 2 -v1 - b.txt",
        "join -1 2 -o 1.1,2.1,0 - b.txt",
        "join -1 2 -o '1.1 2.1 1.3' -e NA - b.txt",
        "join -1 2 -o auto -e NA -a1 - b.txt",
        "join -1 2 -o auto - b.txt",
        "join -1 2 -e X -a1 - b.txt",
        "join -1 2 -i - b.txt",
        "join -1 2 --check-order - b.txt",
        "join -1 2 --nocheck-order -a1 - b.txt",
        "join -1 2 --header -a1 - b.txt",
        "join -1 2 -t ' ' - b.txt",
        "join -1 2 -t '' - b.txt",
        "join -t '' - b.txt",
    ];
    same_as_gnu(&lines, "k apple x\nj banana\n  m  cherry   y z\nn date\no fig\n");
    same_as_gnu(&lines, "h Apple x\nh Banana\nq cherry\n\nz apple 2\n");
    same_as_gnu(&lines, "x zebra\ny apple\n");
    same_as_gnu(&lines, "");
    same_as_gnu(&lines, "k apple\nl apple 2\nm cherry\n");
}

#[test]
fn join_sep_as_gnu() {
    let lines = [
        "join -t: - - ",
        "join -t: - csv.txt",
        "join -t, - csv.txt",
        "join -t, -a1 -a2 -e '?' -o auto - csv.txt",
        "join -t, -v2 - csv.txt",
        "join -t, --header - csv.txt",
        "join -t, --header -o 2.3,1.2 - csv.txt",
        "join -t, -2 3 -1 2 - csv.txt",
        "join -t, --check-order - csv.txt",
        "join -t '\t' - csv.txt",
        "join -t '\\0' - csv.txt",
        "join -i -t, - csv.txt",
    ];
    same_as_gnu(&lines, "name,x,y\nalice,paris,1\nBob,,2\nbob,berlin\ncarol,rome,\nzed,z\n");
    same_as_gnu(&lines, "name\tA\nalice\tB\n");
}
