use crate::tools::testing::same_as_gnu_as;

#[test]
fn awk_basics() {
    same_as_gnu_as(&["awk '{print $1}' a.txt"], "", &[("awk", "gawk")]);
}
