use super::testing::same_as_gnu;

#[test]
fn tee_as_gnu() {
    same_as_gnu(
        &[
            "tee",
            "tee -a",
            "tee -i -p",
            "tee --output-error",
            "tee --output-error=warn",
            "tee --output-error=exit-n",
            "tee --output-error=x",
            "tee --output-error=w",
            "tee --append --ignore-int",
            "tee --foo",
            "tee -k",
            "tee --version",
            "tee --help",
        ],
        "one\ntwo\n",
    );
}
