//! `tree -H BASE`: the same walk as a web page, as tree 2.1 writes it. Every line is an
//! `<a>` element ending in `<br>`; a link is `BASE` followed by the entry's path below its
//! operand, URL-encoded (tree 2.1 cuts the operand's length off the parent's path, and
//! under `-f` it then adds the full path: the links it writes are kept as they are).
//! The page's head and foot are tree's own, naming tree 2.1.0, whose output this is.
//!
//! The text walk (see the parent module) prints the lines; this module gives them their
//! HTML spelling: `-T` titles the page, `--nolinks` drops the links, `-C` names a class
//! per entry, and `-F`/`-Q` do not apply. Bracketed fields keep their columns with
//! `&nbsp;`.

use std::fmt::Write;

/// What `-H`, `-T` and `--nolinks` asked for.
#[derive(Debug, Clone)]
pub(super) struct Html {
    /// `-H`'s base, less one trailing `/` unless it is all there is.
    pub host: String,
    /// `-T`: printed as given, in the title and the heading (tree does not escape it).
    pub title: Option<String>,
    /// `--nolinks`.
    pub links: bool,
}

impl Html {
    pub(super) fn new(base: &str) -> Html {
        let host = match base.strip_suffix('/') {
            Some(rest) if !rest.is_empty() => rest,
            _ => base,
        };
        Html { host: host.to_string(), title: None, links: true }
    }
}

/// The head of the page and the `<body>` up to the first line; `c` is the character
/// set's copyright sign.
pub(super) fn intro(h: &Html, charset: &str, c: &str) -> String {
    let title = h.title.as_deref().unwrap_or("Directory Tree");
    let mut s = String::from("<!DOCTYPE html>\n<html>\n<head>\n");
    writeln!(s, " <meta http-equiv=\"Content-Type\" content=\"text/html; charset={charset}\">").unwrap();
    s.push_str(" <meta name=\"Author\" content=\"Made by 'tree'\">\n");
    writeln!(s, " <meta name=\"GENERATOR\" content=\"{}\">", version(c)).unwrap();
    writeln!(s, " <title>{title}</title>").unwrap();
    s.push_str(STYLE);
    write!(s, "</head>\n<body>\n\t<h1>{title}</h1><p>\n").unwrap();
    s
}

const STYLE: &str = " <style type=\"text/css\">
  BODY { font-family : monospace, sans-serif;  color: black;}
  P { font-family : monospace, sans-serif; color: black; margin:0px; padding: 0px;}
  A:visited { text-decoration : none; margin : 0px; padding : 0px;}
  A:link    { text-decoration : none; margin : 0px; padding : 0px;}
  A:hover   { text-decoration: underline; background-color : yellow; margin : 0px; padding : 0px;}
  A:active  { margin : 0px; padding : 0px;}
  .VERSION { font-size: small; font-family : arial, sans-serif; }
  .NORM  { color: black;  }
  .FIFO  { color: purple; }
  .CHAR  { color: yellow; }
  .DIR   { color: blue;   }
  .BLOCK { color: yellow; }
  .LINK  { color: aqua;   }
  .SOCK  { color: fuchsia;}
  .EXEC  { color: green;  }
 </style>
";

/// tree's version line (`--version`, and the page's generator), with the character set's
/// copyright sign `c`.
pub(super) fn version(c: &str) -> String {
    format!("tree v2.1.0 {c} 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro")
}

/// The foot of the page, after the report.
pub(super) fn outro(c: &str) -> String {
    format!(
        "\t<hr>\n\t<p class=\"VERSION\">\n\t\t tree v2.1.0 {c} 1996 - 2022 by Steve Baker and Thomas Moore <br>\n\t\t HTML output hacked and copyleft {c} 1998 by Francesc Rocher <br>\n\t\t JSON output hacked and copyleft {c} 2014 by Florian Sesser <br>\n\t\t Charsets / OS/2 support {c} 2001 by Kyosuke Tokoro\n\t</p>\n</body>\n</html>\n"
    )
}

/// The report's frame around `counts` (the text report's line without its blank line).
pub(super) fn report(counts: &str) -> String {
    format!("<br><br><p>\n\n{counts}\n</p>\n")
}

/// Bracketed fields with their spaces as `&nbsp;` (`bracket` is the text's `[…]  `),
/// and two more before the name.
pub(super) fn fields(bracket: &str) -> String {
    format!("{}&nbsp;&nbsp;", bracket.replace(' ', "&nbsp;"))
}

/// An entry's element. `parent`: the spelling of the directory it lies in (`None` for an
/// operand, shown as the base); `cut`: the operand's length, taken off `parent` for the
/// link; `class`: `-C`'s class; `stat`: whether the entry exists (a missing operand has no
/// link).
pub(super) struct Anchor<'a> {
    pub parent: Option<&'a str>,
    pub cut: usize,
    pub name: &'a str,
    pub dir: bool,
    pub class: Option<&'static str>,
    pub stat: bool,
}

pub(super) fn anchor(h: &Html, a: &Anchor) -> String {
    let mut s = String::from("<a");
    if a.stat {
        if let Some(class) = a.class {
            write!(s, " class=\"{class}\"").unwrap();
        }
        if h.links {
            write!(s, " href=\"{}", h.host).unwrap();
            match a.parent {
                Some(parent) => {
                    let bytes = parent.as_bytes();
                    url_encode(&mut s, if bytes.len() >= a.cut { &bytes[a.cut..] } else { bytes });
                    s.push('/');
                    url_encode(&mut s, a.name.as_bytes());
                    s.push_str(if a.dir { "/\"" } else { "\"" });
                }
                None => s.push_str("/\""),
            }
        }
    }
    s.push('>');
    html_encode(&mut s, if a.parent.is_some() { a.name } else { &h.host });
    s.push_str("</a>");
    s
}

fn html_encode(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// tree's URL encoding: a few ASCII signs and every byte outside printable ASCII as
/// `%XX`, `&` as `&amp;`.
fn url_encode(out: &mut String, s: &[u8]) {
    for &b in s {
        match b {
            b'&' => out.push_str("&amp;"),
            b' ' | b'"' | b'#' | b'%' | b'<' | b'>' | b'[' | b']' | b'^' | b'\\' | b'?' | b'+' => {
                write!(out, "%{b:02X}").unwrap()
            }
            0x20..=0x7e => out.push(b as char),
            _ => write!(out, "%{b:02X}").unwrap(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_url_encoded_and_names_escaped() {
        let h = Html::new("/base/");
        assert_eq!(h.host, "/base");
        let a = Anchor { parent: Some("a/sp ace"), cut: 1, name: "q&<r>é.md", dir: false, class: None, stat: true };
        assert_eq!(anchor(&h, &a), "<a href=\"/base/sp%20ace/q&amp;%3Cr%3E%C3%A9.md\">q&amp;&lt;r&gt;é.md</a>");
        assert_eq!(Html::new("/").host, "/", "a lone slash stays");
        let root = Anchor { parent: None, cut: 0, name: "x", dir: true, class: Some("DIR"), stat: true };
        assert_eq!(anchor(&h, &root), "<a class=\"DIR\" href=\"/base/\">/base</a>");
        let missing = Anchor { stat: false, ..root };
        assert_eq!(anchor(&Html { links: false, ..h }, &missing), "<a>/base</a>");
    }
}
