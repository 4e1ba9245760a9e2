//! An awk program, parsed: rules, functions and the expressions and statements in them.

/// Marks a parenthesised list `(a, b)` that only `print` and `in` take.
pub(crate) const LIST: &str = "(list)";

/// Where a variable lives: the program's globals, or the running function's locals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Var {
    Global(usize),
    Local(usize),
}

/// Arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

/// Comparisons.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Cmp {
    Lt,
    Le,
    Eq,
    Ne,
    Gt,
    Ge,
}

/// Where `getline` reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Source {
    Main,
    File(Box<Expr>),
    Command(Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Num(f64),
    Str(String),
    /// `/re/` alone: whether `$0` matches.
    Regex(String),
    Var(Var),
    Index(Var, Vec<Expr>),
    Field(Box<Expr>),
    /// `lvalue op= value` (`op` none for `=`).
    Assign(Option<Arith>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Plus(Box<Expr>),
    Arith(Arith, Box<Expr>, Box<Expr>),
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    /// `s ~ re` (`true`: `!~`).
    Match(bool, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    In(Vec<Expr>, Var),
    /// `++x` / `x--`: whether before, the step, the lvalue.
    IncDec(bool, f64, Box<Expr>),
    Call(usize, Vec<Expr>),
    Builtin(&'static str, Vec<Expr>),
    Getline(Source, Option<Box<Expr>>),
    /// A parenthesised expression (kept so `print (a)(b) > f` reads as gawk does).
    Group(Box<Expr>),
}

/// Where `print` goes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Redirect {
    File(Expr),
    Append(Expr),
    Pipe(Expr),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stmt {
    Expr(Expr, usize),
    Print(Vec<Expr>, Option<Redirect>, usize),
    Printf(Vec<Expr>, Option<Redirect>, usize),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    Do(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Box<Stmt>>, Box<Stmt>),
    ForIn(Var, Var, Box<Stmt>),
    Block(Vec<Stmt>),
    Next,
    NextFile,
    Exit(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    /// `delete a[k]`, or `delete a` (no subscripts).
    Delete(Var, Option<Vec<Expr>>),
}

/// When a rule runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pattern {
    All,
    Expr(Expr),
    /// `from, to`, with the index of its in-range flag.
    Range(Expr, Expr, usize),
}

/// `pattern { action }`; no action prints the record.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rule {
    pub pattern: Pattern,
    pub action: Option<Vec<Stmt>>,
}

/// A user function.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Func {
    pub name: String,
    pub params: Vec<String>,
    /// Which parameters the body uses as arrays.
    pub arrays: Vec<bool>,
    pub body: Vec<Stmt>,
    pub defined: bool,
}

/// A whole program.
#[derive(Debug, Default)]
pub(crate) struct Program {
    pub begin: Vec<Stmt>,
    pub end: Vec<Stmt>,
    pub beginfile: Vec<Stmt>,
    pub endfile: Vec<Stmt>,
    pub rules: Vec<Rule>,
    pub funcs: Vec<Func>,
    pub globals: Vec<String>,
    pub ranges: usize,
}

/// The special variables, at these global slots.
pub(crate) const SPECIALS: &[&str] = &[
    "NR",
    "NF",
    "FNR",
    "FS",
    "OFS",
    "ORS",
    "RS",
    "RT",
    "FILENAME",
    "SUBSEP",
    "CONVFMT",
    "OFMT",
    "ENVIRON",
    "ARGC",
    "ARGV",
    "RSTART",
    "RLENGTH",
    "IGNORECASE",
];
pub(crate) const NR: usize = 0;
pub(crate) const NF: usize = 1;
pub(crate) const FNR: usize = 2;
pub(crate) const FS: usize = 3;
pub(crate) const OFS: usize = 4;
pub(crate) const ORS: usize = 5;
pub(crate) const RS: usize = 6;
pub(crate) const RT: usize = 7;
pub(crate) const FILENAME: usize = 8;
pub(crate) const SUBSEP: usize = 9;
pub(crate) const CONVFMT: usize = 10;
pub(crate) const OFMT: usize = 11;
pub(crate) const ENVIRON: usize = 12;
pub(crate) const ARGC: usize = 13;
pub(crate) const ARGV: usize = 14;
pub(crate) const RSTART: usize = 15;
pub(crate) const RLENGTH: usize = 16;
pub(crate) const IGNORECASE: usize = 17;
