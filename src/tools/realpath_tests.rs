use super::testing::same_as_gnu;

#[test]
fn realpath_as_gnu() {
    same_as_gnu(
        &[
            "realpath --relative-to=. a.txt",
            "realpath --relative-to=. dir/inner.txt dir dir/../a.txt",
            "realpath --relative-to=dir a.txt",
            "realpath --relative-to=dir/ dir/inner.txt",
            "realpath --relative-to=. nope",
            "realpath --relative-to=. nope/x",
            "realpath --relative-to=. a.txt/x",
            "realpath --relative-to=. a.txt/..",
            "realpath --relative-to=. -e nope",
            "realpath --relative-to=. -e dir/inner.txt",
            "realpath --relative-to=. -m nope/x/../y",
            "realpath --relative-to=. -m ./a/b/c",
            "realpath --relative-to=. nope/../a.txt",
            "realpath --relative-to=. -m nope/../a.txt",
            "realpath -q --relative-to=. nope/x a.txt",
            "realpath --relative-to=. -z a.txt dir",
            "realpath --relative-to=nope/x a.txt",
            "realpath --relative-base=. a.txt /",
            "realpath --relative-base=dir dir/inner.txt dir",
            "realpath /",
            "realpath //",
            "realpath /tmp/../",
            "realpath ''",
            "realpath",
            "realpath -k a.txt",
            "realpath --rel=. a.txt",
            "realpath --relative a.txt",
            "realpath --version",
            "realpath --help",
        ],
        "",
    );
}
