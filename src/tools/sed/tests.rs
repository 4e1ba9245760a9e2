use crate::tools::testing::same_as_gnu;

#[test]
fn sed_prints_lines_as_gnu() {
    same_as_gnu(&["sed -n 2p a.txt", "sed p a.txt"], "from\nstdin\n");
}
