//! `ls -C` and `ls -x`: names in columns, as GNU `ls` lays them out.
//!
//! GNU `ls` tries every number of columns up to what the line width allows (each column at
//! least three wide) and keeps the most whose lines fit: a column is as wide as its widest
//! entry plus two spaces (the last column without them). `-C` fills the columns top to
//! bottom, `-x` the lines left to right. The gap after an entry is filled with tabs where
//! a tab stop falls in it (`-T` sets their spacing, 0 none) and spaces for the rest. The
//! line width is 80 without a terminal, or `-w`'s (0: no limit).

/// The narrowest a column can be.
const MIN_COLUMN_WIDTH: usize = 3;

/// How columns are filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `-C`: down each column, then across.
    Vertical,
    /// `-x`: across each line, then down.
    Across,
}

/// The columns shown on a terminal `width` wide, spaced for tabs every `tabsize`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geometry {
    pub layout: Layout,
    /// 0: no limit.
    pub width: usize,
    /// 0: spaces only.
    pub tabsize: usize,
}

/// How many columns `cells` (their widths) take, and each column's width.
fn columns(widths: &[usize], g: Geometry) -> (usize, Vec<usize>) {
    let n = widths.len();
    let line = if g.width == 0 { usize::MAX } else { g.width };
    let max_cols = (line / MIN_COLUMN_WIDTH).max(1).min(n);
    // For each candidate count of columns: its columns' widths, and whether it still fits.
    let mut tries: Vec<(Vec<usize>, usize, bool)> =
        (1..=max_cols).map(|cols| (vec![MIN_COLUMN_WIDTH; cols], cols * MIN_COLUMN_WIDTH, true)).collect();
    for (i, &w) in widths.iter().enumerate() {
        for (k, (arr, len, fits)) in tries.iter_mut().enumerate() {
            if !*fits {
                continue;
            }
            let cols = k + 1;
            let col = match g.layout {
                Layout::Vertical => i / n.div_ceil(cols),
                Layout::Across => i % cols,
            };
            let real = w + if col == cols - 1 { 0 } else { 2 };
            if arr[col] < real {
                *len += real - arr[col];
                arr[col] = real;
                *fits = *len < line;
            }
        }
    }
    let cols = (1..=max_cols).rev().find(|&c| c == 1 || tries[c - 1].2).unwrap_or(1);
    (cols, std::mem::take(&mut tries[cols - 1].0))
}

/// Fills from column `from` to `to` with tabs and spaces, as GNU `ls` does.
fn indent(out: &mut String, mut from: usize, to: usize, tabsize: usize) {
    while from < to {
        if tabsize != 0 && to / tabsize > (from + 1) / tabsize {
            out.push('\t');
            from += tabsize - from % tabsize;
        } else {
            out.push(' ');
            from += 1;
        }
    }
}

/// Prints cells in columns, each line ending in `end`: `widths` are their widths on
/// screen, `cell(i, pos, out)` writes the `i`th, which starts at column `pos`.
pub(crate) fn print(
    widths: &[usize],
    g: Geometry,
    end: char,
    out: &mut String,
    mut cell: impl FnMut(usize, usize, &mut String),
) {
    if widths.is_empty() {
        return;
    }
    let (cols, arr) = columns(widths, g);
    let n = widths.len();
    let rows = n.div_ceil(cols);
    let at = |row: usize, col: usize| match g.layout {
        Layout::Vertical => col * rows + row,
        Layout::Across => row * cols + col,
    };
    for row in 0..rows {
        let mut pos = 0;
        for (col, &width) in arr.iter().enumerate() {
            let i = at(row, col);
            if i >= n {
                break;
            }
            cell(i, pos, out);
            if col + 1 == cols || at(row, col + 1) >= n {
                break;
            }
            // Without a width limit the one line is spaced with spaces alone.
            let tabsize = if g.width == 0 { 0 } else { g.tabsize };
            indent(out, pos + widths[i], pos + width, tabsize);
            pos += width;
        }
        out.push(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laid(names: &[&str], layout: Layout, width: usize, tabsize: usize) -> String {
        let widths: Vec<usize> = names.iter().map(|n| n.len()).collect();
        let mut out = String::new();
        print(&widths, Geometry { layout, width, tabsize }, '\n', &mut out, |i, _, out| out.push_str(names[i]));
        out
    }

    #[test]
    fn columns_as_gnu_ls_lays_them_out() {
        // What GNU ls 9.1 printed for a directory of these names (`ls -C`, `ls -x`, `-w`, `-T 0`).
        let mut names = vec!["api".to_string(), "docs-guides".to_string()];
        let mut files: Vec<String> = (1..=23).map(|i| format!("file-{i}.md")).collect();
        files.sort();
        names.extend(files);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let c = laid(&names, Layout::Vertical, 80, 8);
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0], "api\t     file-12.md  file-17.md  file-21.md  file-5.md");
        assert_eq!(lines[3], "file-10.md   file-15.md  file-2.md   file-3.md\t file-8.md");
        let x = laid(&names, Layout::Across, 80, 8);
        assert_eq!(x.lines().next(), Some("api\t    docs-guides  file-1.md   file-10.md  file-11.md  file-12.md"));
        assert_eq!(x.lines().nth(2), Some("file-19.md  file-2.md\t file-20.md  file-21.md  file-22.md  file-23.md"));
        assert!(laid(&names, Layout::Vertical, 80, 0).starts_with("api          file-12.md"), "-T 0: spaces only");
        assert_eq!(laid(&names, Layout::Vertical, 30, 8).lines().next(), Some("api\t     file-2.md"));
        assert_eq!(laid(&names, Layout::Vertical, 0, 8).lines().count(), 1, "-w 0: no limit");
        assert_eq!(laid(&names, Layout::Vertical, 5, 8).lines().count(), 25);
    }
}
