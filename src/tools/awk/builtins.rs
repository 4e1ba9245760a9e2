//! awk's built-in functions, and gawk's that agents use (`gensub`, `asort`, …).

use super::ast::*;
use super::interp::{bool_val, fatal, Cell, Interp, Res};
use super::value::Value;
use std::rc::Rc;

/// The character index (from 0) of byte offset `b` in `s`.
fn chars_to(s: &str, b: usize) -> usize {
    s[..b].chars().count()
}

impl Interp<'_, '_, '_> {
    fn arg_text(&mut self, e: &Expr) -> Res<Rc<str>> {
        let v = self.eval(e)?;
        Ok(self.text(&v))
    }

    fn arg_num(&mut self, args: &[Expr], i: usize) -> Res<f64> {
        Ok(self.eval(&args[i])?.num())
    }

    /// The array a bare variable argument names.
    fn array_arg(&mut self, e: &Expr, what: &str) -> Res<super::interp::ArrayRef> {
        match e {
            Expr::Var(v) => self.array(*v),
            _ => fatal(format!("{what}: second argument is not an array")),
        }
    }

    pub(crate) fn builtin(&mut self, name: &str, args: &[Expr]) -> Res<Value> {
        let n = args.len();
        let math = |i: &mut Self, f: fn(f64) -> f64| -> Res<Value> { Ok(Value::Num(f(i.arg_num(args, 0)?))) };
        Ok(match name {
            "(list)" => return fatal("syntax error"),
            "length" => {
                if n == 0 {
                    return Ok(Value::Num(self.record.chars().count() as f64));
                }
                if let Expr::Var(v) = &args[0] {
                    if let Cell::Arr(a) = self.cell(*v) {
                        return Ok(Value::Num(a.borrow().len() as f64));
                    }
                }
                Value::Num(self.arg_text(&args[0])?.chars().count() as f64)
            }
            "substr" => {
                let s = self.arg_text(&args[0])?;
                let m = self.arg_num(args, 1)?;
                let len = s.chars().count() as f64;
                let start = m.trunc().max(1.0);
                let end = if n > 2 { start + self.arg_num(args, 2)?.trunc() } else { f64::INFINITY };
                let (from, to) = (start, end.min(len + 1.0));
                if to <= from || from.is_nan() {
                    return Ok(Value::str(""));
                }
                let t: String = s.chars().skip(from as usize - 1).take((to - from) as usize).collect();
                Value::str(t)
            }
            "index" => {
                let s = self.arg_text(&args[0])?;
                let t = self.arg_text(&args[1])?;
                Value::Num(s.find(&*t).map_or(0, |b| chars_to(&s, b) + 1) as f64)
            }
            "split" => {
                let s = self.arg_text(&args[0])?;
                let a = self.array_arg(&args[1], "split")?;
                let parts = match args.get(2) {
                    Some(Expr::Regex(r)) => self.split_at_matches(&s, r)?,
                    Some(e) => {
                        let fs = self.arg_text(e)?;
                        self.split_by(&s, &fs, false)?
                    }
                    None => {
                        let fs = self.special(FS);
                        let para = self.special(RS).is_empty();
                        self.split_by(&s, &fs, para)?
                    }
                };
                a.borrow_mut().clear();
                let count = parts.len();
                if let Some(seps) = args.get(3) {
                    let seps = self.array_arg(seps, "split")?;
                    let mut seps = seps.borrow_mut();
                    seps.clear();
                    for (i, (_, sep)) in parts.iter().enumerate().take(count.saturating_sub(1)) {
                        seps.set((i + 1).to_string().into(), Value::str(sep.as_str()));
                    }
                }
                let mut a = a.borrow_mut();
                for (i, (p, _)) in parts.into_iter().enumerate() {
                    a.set((i + 1).to_string().into(), Value::input(&p));
                }
                Value::Num(count as f64)
            }
            "sub" | "gsub" => {
                let re = self.regex_of(&args[0])?;
                let repl = self.arg_text(&args[1])?;
                let target = args.get(2).cloned().unwrap_or(Expr::Field(Box::new(Expr::Num(0.0))));
                let s = self.eval(&target)?;
                let s = self.text(&s);
                let mut out = String::new();
                let (mut last, mut count) = (0, 0);
                for m in re.find_iter(&s) {
                    out.push_str(&s[last..m.start()]);
                    let mut chars = repl.chars().peekable();
                    while let Some(c) = chars.next() {
                        match c {
                            '\\' if matches!(chars.peek(), Some('&' | '\\')) => out.push(chars.next().unwrap_or('\\')),
                            '&' => out.push_str(m.as_str()),
                            c => out.push(c),
                        }
                    }
                    last = m.end();
                    count += 1;
                    if name == "sub" {
                        break;
                    }
                }
                if count > 0 {
                    out.push_str(&s[last..]);
                    self.assign(&target, Value::str(out))?;
                }
                Value::Num(count as f64)
            }
            "gensub" => {
                let re = self.regex_of(&args[0])?;
                let repl: Vec<char> = self.arg_text(&args[1])?.chars().collect();
                let how = self.eval(&args[2])?;
                let s = match args.get(3) {
                    Some(e) => self.arg_text(e)?,
                    None => self.record.as_str().into(),
                };
                let how_s = self.text(&how);
                let global = how_s.starts_with(['g', 'G']);
                let which = if global { 0 } else { (how.num() as usize).max(1) };
                let mut out = String::new();
                let mut last = 0;
                for (k, caps) in re.captures_iter(&s).enumerate() {
                    let m = caps.get(0).expect("a match");
                    if !global && k + 1 != which {
                        continue;
                    }
                    out.push_str(&s[last..m.start()]);
                    let mut i = 0;
                    while i < repl.len() {
                        match repl[i] {
                            '\\' if i + 1 < repl.len() && repl[i + 1] == '&' => {
                                out.push('&');
                                i += 1;
                            }
                            '\\' if i + 1 < repl.len() && repl[i + 1].is_ascii_digit() => {
                                let g = repl[i + 1].to_digit(10).unwrap_or(0) as usize;
                                out.push_str(caps.get(g).map_or("", |c| c.as_str()));
                                i += 1;
                            }
                            '\\' if i + 1 < repl.len() && repl[i + 1] == '\\' => {
                                out.push('\\');
                                i += 1;
                            }
                            '&' => out.push_str(m.as_str()),
                            c => out.push(c),
                        }
                        i += 1;
                    }
                    last = m.end();
                    if !global {
                        break;
                    }
                }
                out.push_str(&s[last..]);
                Value::str(out)
            }
            "match" => {
                let s = self.arg_text(&args[0])?;
                let re = self.regex_of(&args[1])?;
                let caps = re.captures(&s);
                let (start, len) = match &caps {
                    Some(c) => {
                        let m = c.get(0).expect("a match");
                        (chars_to(&s, m.start()) as f64 + 1.0, m.as_str().chars().count() as f64)
                    }
                    None => (0.0, -1.0),
                };
                if let Some(a) = args.get(2) {
                    let a = self.array_arg(a, "match")?;
                    let mut a = a.borrow_mut();
                    a.clear();
                    if let Some(c) = &caps {
                        let sep = self.special(SUBSEP);
                        for (g, m) in c.iter().enumerate() {
                            if let Some(m) = m {
                                a.set(g.to_string().into(), Value::input(m.as_str()));
                                let st = chars_to(&s, m.start()) as f64 + 1.0;
                                a.set(format!("{g}{sep}start").into(), Value::Num(st));
                                a.set(format!("{g}{sep}length").into(), Value::Num(m.as_str().chars().count() as f64));
                            }
                        }
                    }
                }
                self.set_num(RSTART, start);
                self.set_num(RLENGTH, len);
                Value::Num(start)
            }
            "sprintf" => Value::str(self.sprintf(args)?),
            "sin" => math(self, f64::sin)?,
            "cos" => math(self, f64::cos)?,
            "exp" => math(self, f64::exp)?,
            "sqrt" => {
                let x = self.arg_num(args, 0)?;
                if x < 0.0 {
                    self.warn(format!("sqrt: called with negative argument {}", self.text(&Value::Num(x))));
                }
                Value::Num(x.sqrt())
            }
            "log" => {
                let x = self.arg_num(args, 0)?;
                if x < 0.0 {
                    self.warn(format!("log: received negative argument {}", self.text(&Value::Num(x))));
                }
                Value::Num(x.ln())
            }
            "int" => math(self, f64::trunc)?,
            "atan2" => {
                let y = self.arg_num(args, 0)?;
                Value::Num(y.atan2(self.arg_num(args, 1)?))
            }
            "rand" => {
                self.rand_state = self.rand_state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                Value::Num((self.rand_state >> 11) as f64 / (1u64 << 53) as f64)
            }
            "srand" => {
                let old = self.seed;
                self.seed = if n > 0 { self.arg_num(args, 0)?.trunc() } else { 0.0 };
                self.rand_state = self.seed.to_bits();
                Value::Num(old)
            }
            "tolower" | "toupper" => {
                let s = self.arg_text(&args[0])?;
                let up = name == "toupper";
                let t: String = s
                    .chars()
                    .map(|c| {
                        let mut m: Vec<char> = if up { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
                        if m.len() == 1 {
                            m.pop().unwrap_or(c)
                        } else {
                            c
                        }
                    })
                    .collect();
                Value::str(t)
            }
            "close" => {
                let f = self.arg_text(&args[0])?;
                let had = self.outputs.remove(&*f).is_some() | self.files.remove(&*f).is_some();
                Value::Num(if had { 0.0 } else { -1.0 })
            }
            "fflush" => Value::Num(0.0),
            "system" => return fatal("system: running commands is not available"),
            "systime" | "strftime" => return fatal(format!("{name}: the clock is not available")),
            "asort" | "asorti" => {
                let src = self.array_arg(&args[0], name)?;
                let mut items: Vec<Value> = if name == "asort" {
                    src.borrow().values()
                } else {
                    src.borrow().keys().into_iter().map(Value::Str).collect()
                };
                items.sort_by(|a, b| {
                    let rank = |v: &Value| match v {
                        Value::Str(_) => 1,
                        _ => 0,
                    };
                    rank(a).cmp(&rank(b)).then_with(|| {
                        if rank(a) == 0 {
                            a.num().partial_cmp(&b.num()).unwrap_or(std::cmp::Ordering::Equal)
                        } else {
                            self.text(a).cmp(&self.text(b))
                        }
                    })
                });
                let dest = match args.get(1) {
                    Some(d) => self.array_arg(d, name)?,
                    None => src,
                };
                let mut d = dest.borrow_mut();
                d.clear();
                let count = items.len();
                for (i, v) in items.into_iter().enumerate() {
                    d.set((i + 1).to_string().into(), v);
                }
                Value::Num(count as f64)
            }
            "isarray" => bool_val(matches!(&args[0], Expr::Var(v) if matches!(self.cell(*v), Cell::Arr(_)))),
            "typeof" => {
                if let Expr::Var(v) = &args[0] {
                    if let Cell::Arr(_) = self.cell(*v) {
                        return Ok(Value::str("array"));
                    }
                }
                Value::str(match self.eval(&args[0])? {
                    Value::Uninit => "untyped",
                    Value::Num(_) => "number",
                    Value::Str(_) => "string",
                    Value::StrNum(..) => "strnum",
                })
            }
            _ => return fatal(format!("function `{name}' is not available")),
        })
    }

    /// A warning on standard error, with the place.
    pub(crate) fn warn(&mut self, m: String) {
        let at = super::place(self);
        self.ctx.err.push_str(&format!("awk: {at}warning: {m}\n"));
    }
}
