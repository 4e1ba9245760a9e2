//! Input and output: records (by `RS`), fields (by `FS`), the main input from `ARGV`,
//! `getline`, and where `print` writes.

use super::ast::*;
use super::interp::{fatal, Cell, Flow, Input, Interp, Res};
use super::value::Value;
use crate::tools::ctx::Write;

impl Interp<'_, '_, '_> {
    /// The next record of `input` by the current `RS`, and the text that ended it.
    fn read_record(&mut self, input: &mut Input) -> Res<Option<(String, String)>> {
        let rs = self.special(RS);
        let t = &input.text;
        let mut pos = input.pos;
        if rs.is_empty() {
            while t[pos..].starts_with('\n') {
                pos += 1;
            }
            if pos >= t.len() {
                input.pos = t.len();
                return Ok(None);
            }
            let (rec, rt, next) = match t[pos..].find("\n\n") {
                Some(k) => {
                    let end = pos + k;
                    let n = t[end..].bytes().take_while(|&b| b == b'\n').count();
                    (&t[pos..end], &t[end..end + n], end + n)
                }
                None => {
                    let body = t[pos..].trim_end_matches('\n');
                    (body, &t[pos + body.len()..], t.len())
                }
            };
            let r = (rec.to_string(), rt.to_string());
            input.pos = next;
            return Ok(Some(r));
        }
        if pos >= t.len() {
            return Ok(None);
        }
        let found = if rs.chars().count() == 1 {
            t[pos..].find(&*rs).map(|k| (pos + k, pos + k + rs.len()))
        } else {
            let re = self.regex(&rs)?;
            let t = &input.text;
            let mut at = pos;
            loop {
                match re.find_at(t, at) {
                    Some(m) if m.is_empty() => {
                        at = m.end() + t[m.end()..].chars().next().map_or(1, char::len_utf8);
                        if at > t.len() {
                            break None;
                        }
                    }
                    Some(m) => break Some((m.start(), m.end())),
                    None => break None,
                }
            }
        };
        let t = &input.text;
        let (rec, rt, next) = match found {
            Some((s, e)) => (&t[pos..s], &t[s..e], e),
            None => (&t[pos..], "", t.len()),
        };
        let r = (rec.to_string(), rt.to_string());
        input.pos = next;
        Ok(Some(r))
    }

    /// Makes `text` the record, split into fields.
    pub(crate) fn set_record(&mut self, text: String) {
        self.record = text;
        let fields = self.split_record();
        self.fields = fields.into_iter().map(|f| Value::input(&f)).collect();
        self.set_num(NF, self.fields.len() as f64);
    }

    fn split_record(&mut self) -> Vec<String> {
        let fs = self.special(FS);
        let paragraph = self.special(RS).is_empty();
        let rec = self.record.clone();
        match self.split_by(&rec, &fs, paragraph) {
            Ok(f) => f.into_iter().map(|(s, _)| s).collect(),
            Err(_) => vec![rec],
        }
    }

    /// `s` split as `FS` (or `split`'s separator) `fs` splits it: the pieces, each with
    /// the separator after it.
    pub(crate) fn split_by(&mut self, s: &str, fs: &str, paragraph: bool) -> Res<Vec<(String, String)>> {
        let mut out = Vec::new();
        if s.is_empty() {
            return Ok(out);
        }
        if fs == " " {
            let blank = |c: char| c == ' ' || c == '\t' || c == '\n';
            let mut rest = s.trim_start_matches(blank);
            while !rest.is_empty() {
                let end = rest.find(blank).unwrap_or(rest.len());
                let after = rest[end..].trim_start_matches(blank);
                let sep = &rest[end..rest.len() - after.len()];
                out.push((rest[..end].to_string(), sep.to_string()));
                rest = after;
            }
            return Ok(out);
        }
        if fs.is_empty() {
            return Ok(s.chars().map(|c| (c.to_string(), String::new())).collect());
        }
        let single = fs.chars().count() == 1 && fs != "\\";
        if single && !paragraph {
            let mut parts: Vec<&str> = s.split(fs).collect();
            let last = parts.pop().unwrap_or_default();
            out.extend(parts.into_iter().map(|p| (p.to_string(), fs.to_string())));
            out.push((last.to_string(), String::new()));
            return Ok(out);
        }
        let pattern = match (single, paragraph) {
            (true, _) => format!("[{}]|\n", if fs == "\\" { "\\\\" } else { fs }),
            (false, true) => format!("({fs})|\n"),
            _ => fs.to_string(),
        };
        self.split_at_matches(s, &pattern)
    }

    /// `s` split at each non-empty match of the regular expression `re` (`split`'s
    /// `/re/`, or an `FS` read as one): the pieces, each with the match after it.
    pub(crate) fn split_at_matches(&mut self, s: &str, re: &str) -> Res<Vec<(String, String)>> {
        let mut out = Vec::new();
        if s.is_empty() {
            return Ok(out);
        }
        let re = self.regex(re)?;
        let mut start = 0;
        for m in re.find_iter(s) {
            if m.is_empty() {
                continue;
            }
            out.push((s[start..m.start()].to_string(), m.as_str().to_string()));
            start = m.end();
        }
        out.push((s[start..].to_string(), String::new()));
        Ok(out)
    }

    pub(crate) fn get_field(&self, i: usize) -> Value {
        if i == 0 {
            return Value::input(&self.record);
        }
        self.fields.get(i - 1).cloned().unwrap_or(Value::Uninit)
    }

    pub(crate) fn set_field(&mut self, i: usize, v: &Value) {
        if i == 0 {
            let t = self.text(v).to_string();
            self.set_record(t);
            return;
        }
        if self.fields.len() < i {
            self.fields.resize(i, Value::str(""));
        }
        self.fields[i - 1] = match v {
            Value::Num(_) => v.clone(),
            v => v.clone(),
        };
        self.set_num(NF, self.fields.len() as f64);
        self.rebuild();
    }

    pub(crate) fn set_nf(&mut self, n: usize) {
        self.fields.resize(n, Value::str(""));
        self.rebuild();
    }

    /// `$0` made again from the fields, joined by `OFS`.
    fn rebuild(&mut self) {
        let ofs = self.special(OFS);
        let mut r = String::new();
        for (k, f) in self.fields.iter().enumerate() {
            if k > 0 {
                r.push_str(&ofs);
            }
            r.push_str(&self.text(f));
        }
        self.record = r;
    }

    /// The next record of the main input (the files `ARGV` names, or standard input),
    /// with `NR`, `FNR`, `FILENAME` and `RT` kept; `None` at its end.
    pub(crate) fn next_main(&mut self) -> Res<Option<String>> {
        loop {
            if let Some(mut input) = self.main.take() {
                let r = self.read_record(&mut input)?;
                self.main = Some(input);
                if let Some((rec, rt)) = r {
                    self.globals[RT] = Cell::Val(Value::str(rt));
                    for v in [NR, FNR] {
                        let n = self.get_var(Var::Global(v))?.num();
                        self.set_num(v, n + 1.0);
                    }
                    return Ok(Some(rec));
                }
                self.main = None;
                if !self.prog.endfile.is_empty() {
                    self.run_file_rule(true)?;
                }
            }
            if !self.open_next()? {
                return Ok(None);
            }
        }
    }

    fn run_file_rule(&mut self, end: bool) -> Res<()> {
        let prog = self.prog;
        let body = if end { &prog.endfile } else { &prog.beginfile };
        match self.block(body) {
            Err(Flow::NextFile) => Ok(()),
            r => r,
        }
    }

    /// Opens the next file of `ARGV` (doing the assignments before it); `false` when
    /// there are no more.
    fn open_next(&mut self) -> Res<bool> {
        loop {
            let argc = self.get_var(Var::Global(ARGC))?.num() as usize;
            if self.argi >= argc {
                if self.used_stdin {
                    return Ok(false);
                }
                self.used_stdin = true;
                return self.open("").map(|_| true);
            }
            let argv = self.array(Var::Global(ARGV))?;
            let arg = argv.borrow().get(&self.argi.to_string()).map(|v| self.text(v).to_string());
            self.argi += 1;
            let Some(arg) = arg.filter(|a| !a.is_empty()) else { continue };
            if let Some((name, value)) = assignment(&arg) {
                let v = self.prog.globals.iter().position(|g| g == name);
                if let Some(i) = v {
                    let value = super::escapes(value, &mut self.warnings);
                    self.assign(&Expr::Var(Var::Global(i)), Value::input(&value))?;
                }
                continue;
            }
            self.used_stdin = true;
            if self.open(&arg)? {
                return Ok(true);
            }
        }
    }

    /// Opens `name` as the main input: `false` (after gawk's warning) for a directory.
    fn open(&mut self, name: &str) -> Res<bool> {
        self.set_num(FNR, 0.0);
        let bytes = match self.ctx.read(if name.is_empty() { "-" } else { name }) {
            Err(_) => return Err(Flow::Pending),
            Ok(Ok(b)) => b,
            Ok(Err(e)) if e.is_dir() => {
                self.ctx
                    .err
                    .push_str(&format!("awk: warning: command line argument `{name}' is a directory: skipped\n"));
                return Ok(false);
            }
            Ok(Err(e)) => {
                let m = format!("cannot open file `{name}' for reading: {}", e.text);
                return Err(Flow::Fatal(m, self.ran));
            }
        };
        self.globals[FILENAME] = Cell::Val(Value::str(name));
        self.set_num(FNR, 0.0);
        self.main = Some(Input { text: String::from_utf8_lossy(bytes).into_owned(), pos: 0 });
        if !self.prog.beginfile.is_empty() {
            self.run_file_rule(false)?;
        }
        Ok(true)
    }

    /// Skips the rest of the current file.
    pub(crate) fn skip_file(&mut self) -> Res<()> {
        if self.main.take().is_some() && !self.prog.endfile.is_empty() {
            self.run_file_rule(true)?;
        }
        Ok(())
    }

    pub(crate) fn getline(&mut self, src: &Source, target: Option<&Expr>) -> Res<Value> {
        let rec = match src {
            Source::Main => {
                let Some(r) = self.next_main()? else { return Ok(Value::Num(0.0)) };
                r
            }
            Source::File(f) => {
                let name = self.eval(f)?;
                let name = self.text(&name).to_string();
                let mut input = match self.files.remove(&name) {
                    Some(i) => i,
                    None => match self.ctx.read(if name == "/dev/stdin" { "-" } else { &name }) {
                        Err(_) => return Err(Flow::Pending),
                        Ok(read) => match (self.written(&name, read.ok()), read) {
                            (Some(text), _) => Input { text, pos: 0 },
                            (None, Err(_)) => return Ok(Value::Num(-1.0)),
                            (None, Ok(b)) => Input { text: String::from_utf8_lossy(b).into_owned(), pos: 0 },
                        },
                    },
                };
                let r = self.read_record(&mut input)?;
                self.files.insert(name, input);
                let Some((rec, rt)) = r else { return Ok(Value::Num(0.0)) };
                self.globals[RT] = Cell::Val(Value::str(rt));
                rec
            }
            Source::Command(c) => {
                let c = self.eval(c)?;
                let c = self.text(&c);
                return fatal(format!("cannot open pipe `{c}': running commands is not available"));
            }
        };
        match target {
            Some(t) => {
                self.assign(t, Value::input(&rec))?;
            }
            None => self.set_record(rec),
        }
        if matches!(src, Source::Main) && target.is_none() {
            // NR and FNR were counted by next_main.
        }
        Ok(Value::Num(1.0))
    }

    /// What the file `name` holds after what this program printed to it (`print > name`,
    /// then `>>`), over `before`, what it held before the program ran: the host writes the
    /// files after the run, so a file read back is read from here. `None`: not written.
    fn written(&self, name: &str, before: Option<&[u8]>) -> Option<String> {
        let mut text: Option<Vec<u8>> = None;
        for w in self.ctx.writes.iter().filter(|w| w.path == name) {
            let base =
                text.take().unwrap_or_else(|| if w.append { before.unwrap_or_default().to_vec() } else { Vec::new() });
            let mut now = if w.append { base } else { Vec::new() };
            now.extend_from_slice(&w.bytes);
            text = Some(now);
        }
        text.map(|t| String::from_utf8_lossy(&t).into_owned())
    }

    /// Writes `text` where `print` sends it.
    pub(crate) fn output(&mut self, to: Option<&Redirect>, text: &str) -> Res<()> {
        let (name, append) = match to {
            None => {
                self.ctx.print(text);
                return Ok(());
            }
            Some(Redirect::File(e)) => (self.eval(e)?, false),
            Some(Redirect::Append(e)) => (self.eval(e)?, true),
            Some(Redirect::Pipe(e)) => {
                let c = self.eval(e)?;
                let c = self.text(&c);
                return fatal(format!("cannot open pipe `{c}' for output: running commands is not available"));
            }
        };
        let name = self.text(&name).to_string();
        match name.as_str() {
            "/dev/stdout" | "-" => self.ctx.print(text),
            "/dev/stderr" => self.ctx.err.push_str(text),
            _ => {
                let i = match self.outputs.get(&name) {
                    Some(&i) => i,
                    None => {
                        self.ctx.writes.push(Write { path: name.clone(), bytes: Vec::new(), append });
                        self.outputs.insert(name, self.ctx.writes.len() - 1);
                        self.ctx.writes.len() - 1
                    }
                };
                self.ctx.writes[i].bytes.extend_from_slice(text.as_bytes());
            }
        }
        Ok(())
    }
}

/// `name=value` when `arg` is a command-line assignment.
pub(crate) fn assignment(arg: &str) -> Option<(&str, &str)> {
    let (name, value) = arg.split_once('=')?;
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some((name, value))
}
