//! Running an awk program: the state of one run (variables, the current record and its
//! fields, open files), its arrays, and evaluating expressions over it. Statements and
//! user functions are run in [`super::exec`].

use super::ast::*;
use super::value::{num_to_str, Value};
use crate::tools::ctx::Ctx;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// An associative array: its elements, listed in the order they were made.
#[derive(Debug, Default)]
pub(crate) struct Array {
    map: HashMap<Rc<str>, (usize, Value)>,
    order: Vec<Option<Rc<str>>>,
}

impl Array {
    pub(crate) fn get(&self, k: &str) -> Option<&Value> {
        self.map.get(k).map(|e| &e.1)
    }

    pub(crate) fn set(&mut self, k: Rc<str>, v: Value) {
        if let Some(e) = self.map.get_mut(&k) {
            e.1 = v;
            return;
        }
        self.order.push(Some(k.clone()));
        self.map.insert(k, (self.order.len() - 1, v));
    }

    pub(crate) fn remove(&mut self, k: &str) {
        if let Some((i, _)) = self.map.remove(k) {
            self.order[i] = None;
        }
        if self.map.is_empty() {
            self.order.clear();
        }
    }

    pub(crate) fn clear(&mut self) {
        self.map.clear();
        self.order.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// The keys, in the order `for (k in a)` visits them in gawk: keys that are not whole
    /// numbers as its string hash table lists them, then whole numbers ascending.
    pub(crate) fn keys(&self) -> Vec<Rc<str>> {
        let int = |k: &str| {
            !k.is_empty() && k.len() < 16 && k.bytes().all(|b| b.is_ascii_digit()) && (k == "0" || !k.starts_with('0'))
        };
        let (mut ints, strs): (Vec<Rc<str>>, Vec<Rc<str>>) = self.order.iter().flatten().cloned().partition(|k| int(k));
        ints.sort_by_key(|k| k.parse::<u64>().unwrap_or(0));
        let mut keys = hash_order(strs);
        keys.extend(ints);
        keys
    }

    pub(crate) fn values(&self) -> Vec<Value> {
        self.order.iter().flatten().filter_map(|k| self.get(k).cloned()).collect()
    }
}

/// gawk's string hash (sdbm over signed chars, kept to 32 bits).
fn awk_hash(s: &str) -> u64 {
    let mut h: u64 = 0;
    for &c in s.as_bytes() {
        let t = h << 6;
        h = (c as i8 as i64 as u64).wrapping_add(t).wrapping_add(t << 10).wrapping_sub(h) & 0xFFFF_FFFF;
    }
    h
}

/// `keys` (in the order they were made) in the order gawk's string table lists them:
/// bucket by bucket, each newest first, the table growing through its primes when it
/// averages more than two keys a bucket.
fn hash_order(keys: Vec<Rc<str>>) -> Vec<Rc<str>> {
    const SIZES: &[usize] = &[13, 127, 1021, 8191, 16381, 32749, 65497, 131101, 262147, 524309, 1048583];
    let mut size = SIZES[0];
    let mut buckets: Vec<Vec<(u64, Rc<str>)>> = vec![Vec::new(); size];
    for (n, k) in keys.into_iter().enumerate() {
        if (n + 1) / size > 2 {
            if let Some(&bigger) = SIZES.iter().find(|&&s| s > size) {
                let mut table: Vec<Vec<(u64, Rc<str>)>> = vec![Vec::new(); bigger];
                for chain in &buckets {
                    for (code, key) in chain.iter().rev() {
                        table[(*code % bigger as u64) as usize].push((*code, key.clone()));
                    }
                }
                (buckets, size) = (table, bigger);
            }
        }
        let code = awk_hash(&k);
        buckets[(code % size as u64) as usize].push((code, k));
    }
    buckets.into_iter().flat_map(|chain| chain.into_iter().rev().map(|(_, k)| k)).collect()
}

pub(crate) type ArrayRef = Rc<RefCell<Array>>;

/// A variable: a scalar (possibly never set) or an array.
#[derive(Debug, Clone)]
pub(crate) enum Cell {
    Val(Value),
    Arr(ArrayRef),
}

/// What stops the normal run of statements.
#[derive(Debug)]
pub(crate) enum Flow {
    Next,
    NextFile,
    Exit,
    Return(Value),
    Break,
    Continue,
    /// Files the host has still to read.
    Pending,
    /// A fatal error: gawk's message after `fatal: `, and whether it names the place.
    Fatal(String, bool),
}

pub(crate) type Res<T> = Result<T, Flow>;

pub(crate) fn fatal<T>(m: impl Into<String>) -> Res<T> {
    Err(Flow::Fatal(m.into(), true))
}

/// An input being read: its text and how far.
pub(crate) struct Input {
    pub text: String,
    pub pos: usize,
}

/// One run's state.
pub(crate) struct Interp<'p, 'c, 'a> {
    pub prog: &'p Program,
    pub ctx: &'c mut Ctx<'a>,
    pub globals: Vec<Cell>,
    pub frames: Vec<Vec<Cell>>,
    pub record: String,
    pub fields: Vec<Value>,
    pub ranges: Vec<bool>,
    pub exit_code: i32,
    pub line: usize,
    /// Inputs `getline < file` reads, by name.
    pub files: HashMap<String, Input>,
    /// Files `print >` writes, by name: their index in the context's writes.
    pub outputs: HashMap<String, usize>,
    /// The main input: the next `ARGV` index, and the file being read.
    pub argi: usize,
    pub main: Option<Input>,
    pub used_stdin: bool,
    pub regexes: HashMap<(String, bool), Rc<regex_lite::Regex>>,
    pub seed: f64,
    pub rand_state: u64,
    pub warnings: Vec<String>,
    pub in_end: bool,
    /// Whether a statement has run (gawk's messages then name a program line).
    pub ran: bool,
}

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {
    pub(crate) fn new(prog: &'p Program, ctx: &'c mut Ctx<'a>) -> Self {
        let globals = vec![Cell::Val(Value::Uninit); prog.globals.len()];
        Interp {
            prog,
            ctx,
            globals,
            frames: Vec::new(),
            record: String::new(),
            fields: Vec::new(),
            ranges: vec![false; prog.ranges],
            exit_code: 0,
            line: 1,
            files: HashMap::new(),
            outputs: HashMap::new(),
            argi: 1,
            main: None,
            used_stdin: false,
            regexes: HashMap::new(),
            seed: 0.0,
            rand_state: 0,
            warnings: Vec::new(),
            in_end: false,
            ran: false,
        }
    }

    pub(crate) fn cell(&mut self, v: Var) -> &mut Cell {
        match v {
            Var::Global(i) => &mut self.globals[i],
            Var::Local(i) => &mut self.frames.last_mut().expect("in a function")[i],
        }
    }

    pub(crate) fn var_name(&self, v: Var) -> String {
        match v {
            Var::Global(i) => self.prog.globals[i].clone(),
            Var::Local(_) => "local".into(),
        }
    }

    /// The array `v` is (made one if it was never set).
    pub(crate) fn array(&mut self, v: Var) -> Res<ArrayRef> {
        let name = self.var_name(v);
        let cell = self.cell(v);
        match cell {
            Cell::Arr(a) => Ok(a.clone()),
            Cell::Val(Value::Uninit) => {
                let a = ArrayRef::default();
                *cell = Cell::Arr(a.clone());
                Ok(a)
            }
            Cell::Val(_) => fatal(format!("attempt to use scalar `{name}' as an array")),
        }
    }

    pub(crate) fn get_var(&mut self, v: Var) -> Res<Value> {
        let name = self.var_name(v);
        match self.cell(v) {
            Cell::Val(x) => Ok(x.clone()),
            Cell::Arr(_) => fatal(format!("attempt to use array `{name}' in a scalar context")),
        }
    }

    pub(crate) fn special(&self, i: usize) -> Rc<str> {
        match &self.globals[i] {
            Cell::Val(v) => v.text(&self.convfmt()),
            Cell::Arr(_) => "".into(),
        }
    }

    pub(crate) fn convfmt(&self) -> String {
        match &self.globals[CONVFMT] {
            Cell::Val(Value::Str(s)) => s.to_string(),
            Cell::Val(v) => v.text("%.6g").to_string(),
            _ => "%.6g".into(),
        }
    }

    pub(crate) fn text(&self, v: &Value) -> Rc<str> {
        match v {
            Value::Num(n) => num_to_str(*n, &self.convfmt()).into(),
            v => v.text(""),
        }
    }

    pub(crate) fn set_num(&mut self, i: usize, n: f64) {
        self.globals[i] = Cell::Val(Value::Num(n));
    }

    pub(crate) fn field_index(&mut self, e: &Expr) -> Res<usize> {
        let n = self.eval(e)?.num();
        if n < 0.0 {
            return fatal(format!("attempt to access field {}", n as i64));
        }
        Ok(n as usize)
    }

    pub(crate) fn subscript(&mut self, subs: &[Expr]) -> Res<Rc<str>> {
        if subs.len() == 1 {
            let v = self.eval(&subs[0])?;
            return Ok(self.text(&v));
        }
        let sep = self.special(SUBSEP);
        let mut k = String::new();
        for (i, s) in subs.iter().enumerate() {
            if i > 0 {
                k.push_str(&sep);
            }
            let v = self.eval(s)?;
            k.push_str(&self.text(&v));
        }
        Ok(k.into())
    }

    /// Stores `val` in the lvalue `lv`.
    pub(crate) fn assign(&mut self, lv: &Expr, val: Value) -> Res<Value> {
        match lv {
            Expr::Var(v) => {
                let name = self.var_name(*v);
                let cell = self.cell(*v);
                if let Cell::Arr(_) = cell {
                    return fatal(format!("attempt to use array `{name}' in a scalar context"));
                }
                *cell = Cell::Val(val.clone());
                if *v == Var::Global(NF) {
                    let n = val.num().max(0.0) as usize;
                    self.set_nf(n);
                }
            }
            Expr::Index(v, subs) => {
                let k = self.subscript(subs)?;
                self.array(*v)?.borrow_mut().set(k, val.clone());
            }
            Expr::Field(e) => {
                let i = self.field_index(e)?;
                self.set_field(i, &val);
            }
            Expr::Group(e) => return self.assign(e, val),
            _ => return fatal("assignment to something that is not a variable"),
        }
        Ok(val)
    }

    pub(crate) fn eval(&mut self, e: &Expr) -> Res<Value> {
        Ok(match e {
            Expr::Num(n) => Value::Num(*n),
            Expr::Str(s) => Value::str(s.as_str()),
            Expr::Regex(r) => {
                let re = self.regex(r)?;
                Value::Num(f64::from(u8::from(re.is_match(&self.record))))
            }
            Expr::Var(v) => self.get_var(*v)?,
            Expr::Index(v, subs) => {
                let k = self.subscript(subs)?;
                let a = self.array(*v)?;
                let mut a = a.borrow_mut();
                match a.get(&k) {
                    Some(x) => x.clone(),
                    None => {
                        a.set(k, Value::Uninit);
                        Value::Uninit
                    }
                }
            }
            Expr::Field(e) => {
                let i = self.field_index(e)?;
                self.get_field(i)
            }
            Expr::Assign(op, lv, rhs) => {
                let r = self.eval(rhs)?;
                let v = match op {
                    None => r,
                    Some(op) => {
                        let l = self.eval(lv)?;
                        Value::Num(self.arith(*op, l.num(), r.num())?)
                    }
                };
                self.assign(lv, v)?
            }
            Expr::Cond(c, a, b) => {
                if self.eval(c)?.truthy() {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::And(a, b) => bool_val(self.eval(a)?.truthy() && self.eval(b)?.truthy()),
            Expr::Or(a, b) => bool_val(self.eval(a)?.truthy() || self.eval(b)?.truthy()),
            Expr::Not(a) => bool_val(!self.eval(a)?.truthy()),
            Expr::Neg(a) => Value::Num(-self.eval(a)?.num()),
            Expr::Plus(a) => Value::Num(self.eval(a)?.num()),
            Expr::Arith(op, a, b) => {
                let (x, y) = (self.eval(a)?.num(), self.eval(b)?.num());
                Value::Num(self.arith(*op, x, y)?)
            }
            Expr::Cmp(op, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                let ord = self.compare(&x, &y);
                bool_val(match op {
                    Cmp::Lt => ord == Some(std::cmp::Ordering::Less),
                    Cmp::Le => matches!(ord, Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)),
                    Cmp::Eq => ord == Some(std::cmp::Ordering::Equal),
                    Cmp::Ne => ord != Some(std::cmp::Ordering::Equal),
                    Cmp::Gt => ord == Some(std::cmp::Ordering::Greater),
                    Cmp::Ge => matches!(ord, Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)),
                })
            }
            Expr::Match(neg, s, r) => {
                let s = self.eval(s)?;
                let s = self.text(&s);
                let re = self.regex_of(r)?;
                bool_val(re.is_match(&s) != *neg)
            }
            Expr::Concat(a, b) => {
                let a = self.eval(a)?;
                let a = self.text(&a);
                let b = self.eval(b)?;
                let b = self.text(&b);
                Value::str(format!("{a}{b}"))
            }
            Expr::In(subs, v) => {
                let k = self.subscript(subs)?;
                let a = self.array(*v)?;
                let has = a.borrow().get(&k).is_some();
                bool_val(has)
            }
            Expr::IncDec(pre, step, lv) => {
                let old = self.eval(lv)?.num();
                self.assign(lv, Value::Num(old + step))?;
                Value::Num(if *pre { old + step } else { old })
            }
            Expr::Call(f, args) => self.call(*f, args)?,
            Expr::Builtin(name, args) => self.builtin(name, args)?,
            Expr::Getline(src, target) => self.getline(src, target.as_deref())?,
            Expr::Group(e) => self.eval(e)?,
        })
    }

    pub(crate) fn arith(&mut self, op: Arith, x: f64, y: f64) -> Res<f64> {
        Ok(match op {
            Arith::Add => x + y,
            Arith::Sub => x - y,
            Arith::Mul => x * y,
            Arith::Div => {
                if y == 0.0 {
                    return fatal("division by zero attempted");
                }
                x / y
            }
            Arith::Mod => {
                if y == 0.0 {
                    return fatal("division by zero attempted in `%'");
                }
                x % y
            }
            Arith::Pow => pow(x, y),
        })
    }

    /// awk's comparison: numeric when both are numbers (or input that looks like one),
    /// else by the strings' bytes.
    pub(crate) fn compare(&self, x: &Value, y: &Value) -> Option<std::cmp::Ordering> {
        if x.numeric() && y.numeric() {
            let (a, b) = (x.num(), y.num());
            if a.is_nan() || b.is_nan() {
                return if a.is_nan() && b.is_nan() { Some(std::cmp::Ordering::Equal) } else { None };
            }
            return a.partial_cmp(&b);
        }
        Some(self.text(x).as_bytes().cmp(self.text(y).as_bytes()))
    }

    /// `printf`'s arguments formatted.
    pub(crate) fn sprintf(&mut self, args: &[Expr]) -> Res<String> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let fmt = self.text(&vals[0]);
        super::value::format(&fmt, &vals[1..], &self.convfmt()).or_else(fatal)
    }

    /// The regular expression an argument stands for: a `/re/` as written, else its value.
    pub(crate) fn regex_of(&mut self, e: &Expr) -> Res<Rc<regex_lite::Regex>> {
        match e {
            Expr::Regex(r) => self.regex(r),
            e => {
                let v = self.eval(e)?;
                let s = self.text(&v);
                self.regex(&s)
            }
        }
    }

    /// `src` compiled as gawk reads a regular expression (cached).
    pub(crate) fn regex(&mut self, src: &str) -> Res<Rc<regex_lite::Regex>> {
        let icase = match &self.globals[IGNORECASE] {
            Cell::Val(v) => v.truthy(),
            _ => false,
        };
        if let Some(r) = self.regexes.get(&(src.to_string(), icase)) {
            return Ok(r.clone());
        }
        let mut text = String::new();
        let mut rest = src;
        while let Some(k) = rest.find('\\') {
            text.push_str(&rest[..k]);
            let after = &rest[k + 1..];
            if after.is_empty() {
                text.push('\\');
                rest = after;
                break;
            }
            let ((s, _), n) = super::lex::escape(after, false);
            let literal = s.chars().count() == 1 && !s.starts_with('\\');
            if literal && "^$.[]|()*+?{}\\".contains(s.as_str()) {
                text.push('\\');
            }
            text.push_str(&s);
            rest = &after[n..];
        }
        text.push_str(rest);
        let spelled = crate::search::pattern::gnu::spell_awk(&text)
            .map_err(|_| Flow::Fatal(format!("invalid regexp: /{src}/"), true))?;
        let re2 = if icase { format!("(?i){}", spelled.re2) } else { spelled.re2 };
        let re = regex_lite::Regex::new(&re2).map_err(|_| Flow::Fatal(format!("invalid regexp: /{src}/"), true))?;
        let re = Rc::new(re);
        self.regexes.insert((src.to_string(), icase), re.clone());
        Ok(re)
    }
}

pub(crate) fn bool_val(b: bool) -> Value {
    Value::Num(if b { 1.0 } else { 0.0 })
}

/// `x ^ y`, by repeated multiplication for whole exponents as gawk does.
fn pow(x: f64, y: f64) -> f64 {
    if y == y.trunc() && y.abs() < 1024.0 {
        let mut n = y.abs() as i64;
        let (mut base, mut r) = (x, 1.0);
        while n > 0 {
            if n & 1 == 1 {
                r *= base;
            }
            base *= base;
            n >>= 1;
        }
        return if y < 0.0 { 1.0 / r } else { r };
    }
    x.powf(y)
}
