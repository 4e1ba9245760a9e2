use super::testing::same_as_gnu;

/// Paragraphs of prose with sentences, punctuation and parentheses; indented, tagged and
/// tabbed ones; quoted (`> `) and commented (`# `) lines; and a last line without its
/// newline.
const INPUT: &str = "The quick brown fox jumps over the lazy dog. It was not amused.  Then it left (quietly) for home; nobody saw it go. Why? Nobody knows!\n\
second line of the first paragraph, which is long enough to need breaking somewhere near the goal width of the output.\n\
\n\
   An indented paragraph that goes on\n\
   for a few lines, with more words to fill\n\
   them out.\n\
\n\
\tA tabbed paragraph: with a colon, and \"quoted words.\" Then more text that runs on and on past the width.\n\
\tsecond tabbed line.\n\
  Tagged first line of a paragraph\n\
      whose other lines are indented more than the first one, and long enough to wrap.\n\
> quoted mail text that is rather long and should be wrapped when the prefix is given to fmt as an option\n\
> second quoted line\n\
>\n\
# a comment line that is long enough to be wrapped at the default width of seventy-five\n\
#   indented comment\n\
na\u{ef}ve r\u{e9}sum\u{e9} caf\u{e9} \u{65e5}\u{672c}\u{8a9e}\u{306e}\u{30c6}\u{30ad}\u{30b9}\u{30c8} words with UTF-8 letters that count as bytes in columns here\n\
\n\n\
carriage\r return and\x0bvertical tab and a backspace\x08 in text\n\
last line without newline, which fmt ends with one";

#[test]
fn fmt_as_gnu() {
    same_as_gnu(
        &[
            "fmt",
            "fmt -",
            "fmt page.md",
            "fmt words.txt a.txt",
            "fmt -w 40",
            "fmt -w40",
            "fmt -40",
            "fmt -20 -u",
            "fmt --width=30",
            "fmt -w 1",
            "fmt -w 0",
            "fmt -w 10 words.txt",
            "fmt -w 2500",
            "fmt -g 40",
            "fmt -g 60 -w 70",
            "fmt -w 60 -g 30",
            "fmt --goal=50",
            "fmt -u",
            "fmt -u -w 50",
            "fmt -s",
            "fmt -s -w 30",
            "fmt -c",
            "fmt -c -w 40",
            "fmt -t",
            "fmt -t -w 40",
            "fmt -tc -w 50",
            "fmt -p '> '",
            "fmt -p '>' -w 30",
            "fmt -p '# ' -w 40",
            "fmt -p '  #'",
            "fmt -p '   '",
            "fmt --prefix=# -u",
            "fmt -p 'nomatch'",
            "fmt nonl.txt",
            "fmt utf8.txt -w 10",
            "fmt empty.txt",
            "fmt diffs/spaces.txt diffs/tabs.txt",
            "fmt -w 8 diffs/c1.c",
            "fmt nosuch",
            "fmt nosuch a.txt",
            "fmt dir",
            "fmt - -",
            "fmt -w 2501",
            "fmt -w x",
            "fmt -w -3",
            "fmt -g 80",
            "fmt -g 76 -w 75",
            "fmt -5x",
            "fmt -w 30 -5",
            "fmt -x",
            "fmt -w",
            "fmt --wid 20",
            "fmt --bogus",
            "fmt --help",
            "fmt --version",
        ],
        INPUT,
    );
}

/// A paragraph longer than fmt holds at once (5000 bytes, 1000 words), and a word longer
/// than that.
#[test]
fn fmt_long_paragraphs_as_gnu() {
    let mut text = String::new();
    for i in 0..1500 {
        text.push_str(["alpha ", "be ", "gamma. ", "(delta) ", "epsilon, ", "z "][i % 6]);
        if i % 97 == 0 {
            text.push('\n');
        }
    }
    text.push_str("\n\nshort\n");
    text.push_str(&"x".repeat(6000));
    text.push_str(" tail words\n");
    same_as_gnu(&["fmt", "fmt -w 50", "fmt -u -w 100", "fmt -s"], &text);
}
