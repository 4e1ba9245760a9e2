//! awk's grammar: tokens read into a [`Program`], as gawk reads them. This file holds
//! the reader itself (its position, names and error reporting), the program's rules and
//! functions, and statements; expressions are read in [`super::expr`].

use super::ast::*;
use super::lex::{Tok, Token};
use std::collections::HashMap;

/// A syntax error: where, and gawk's words for it.
pub(crate) struct SyntaxError {
    pub line: usize,
    /// The line number the message names.
    pub shown: usize,
    pub col: usize,
    pub message: String,
}

pub(super) struct Parser {
    pub(super) toks: Vec<Token>,
    pub(super) pos: usize,
    pub(super) prog: Program,
    pub(super) globals: HashMap<String, usize>,
    pub(super) funcs: HashMap<String, usize>,
    /// The parameters of the function being read.
    pub(super) locals: Option<Vec<String>>,
    /// Which of them are used as arrays.
    pub(super) arrays: Vec<bool>,
    /// Reading `print`'s arguments: a `>` there redirects.
    pub(super) no_gt: bool,
    /// Reading a `for (;;)` header's start, where `in` is not an operator.
    pub(super) no_in: bool,
}

pub(super) type R<T> = Result<T, SyntaxError>;

/// Reads `toks` into a program.
pub(crate) fn parse(toks: Vec<Token>) -> R<Program> {
    let mut p = Parser {
        toks,
        pos: 0,
        prog: Program::default(),
        globals: HashMap::new(),
        funcs: HashMap::new(),
        locals: None,
        arrays: Vec::new(),
        no_gt: false,
        no_in: false,
    };
    for (i, name) in SPECIALS.iter().enumerate() {
        p.globals.insert(name.to_string(), i);
        p.prog.globals.push(name.to_string());
    }
    p.program()?;
    for f in &p.prog.funcs {
        if !f.defined {
            let t = p.toks.last().cloned().unwrap();
            return Err(SyntaxError {
                line: t.line,
                shown: t.line,
                col: usize::MAX,
                message: format!("function `{}' not defined", f.name),
            });
        }
    }
    Ok(p.prog)
}

impl Parser {
    pub(super) fn tok(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    pub(super) fn peek(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    pub(super) fn is(&self, op: &str) -> bool {
        matches!(self.tok(), Tok::Op(o) if *o == op)
    }

    pub(super) fn eat(&mut self, op: &str) -> bool {
        let yes = self.is(op);
        if yes {
            self.pos += 1;
        }
        yes
    }

    pub(super) fn line(&self) -> usize {
        self.toks[self.pos].line
    }

    /// gawk's error at the current token.
    pub(super) fn error<T>(&self) -> R<T> {
        let t = &self.toks[self.pos];
        let message = match t.tok {
            Tok::Newline | Tok::Eof => "unexpected newline or end of string",
            _ => "syntax error",
        };
        let col = if matches!(t.tok, Tok::Eof) { t.col } else { t.end };
        // gawk has read past a newline when it finds one unexpected.
        let shown = t.line + usize::from(matches!(t.tok, Tok::Newline));
        Err(SyntaxError { line: t.line, shown, col, message: message.into() })
    }

    pub(super) fn expect(&mut self, op: &str) -> R<()> {
        if self.eat(op) {
            Ok(())
        } else {
            self.error()
        }
    }

    pub(super) fn newlines(&mut self) {
        while matches!(self.tok(), Tok::Newline) {
            self.pos += 1;
        }
    }

    fn program(&mut self) -> R<()> {
        loop {
            while matches!(self.tok(), Tok::Newline) || self.is(";") {
                self.pos += 1;
            }
            match self.tok().clone() {
                Tok::Eof => return Ok(()),
                Tok::Op("function") => self.function()?,
                Tok::Op(k @ ("BEGIN" | "END" | "BEGINFILE" | "ENDFILE")) => {
                    self.pos += 1;
                    self.newlines();
                    if !self.is("{") {
                        return self.error();
                    }
                    let body = self.block()?;
                    let list = match k {
                        "BEGIN" => &mut self.prog.begin,
                        "END" => &mut self.prog.end,
                        "BEGINFILE" => &mut self.prog.beginfile,
                        _ => &mut self.prog.endfile,
                    };
                    list.extend(body);
                }
                _ => {
                    let pattern = if self.is("{") {
                        Pattern::All
                    } else {
                        let from = self.expr()?;
                        if self.eat(",") {
                            self.newlines();
                            let to = self.expr()?;
                            self.prog.ranges += 1;
                            Pattern::Range(from, to, self.prog.ranges - 1)
                        } else {
                            Pattern::Expr(from)
                        }
                    };
                    let action = if self.is("{") {
                        Some(self.block()?)
                    } else if matches!(self.tok(), Tok::Newline | Tok::Eof) || self.is(";") {
                        None
                    } else {
                        return self.error();
                    };
                    self.prog.rules.push(Rule { pattern, action });
                }
            }
        }
    }

    pub(super) fn func_index(&mut self, name: &str) -> usize {
        if let Some(&i) = self.funcs.get(name) {
            return i;
        }
        self.prog.funcs.push(Func { name: name.to_string(), ..Func::default() });
        self.funcs.insert(name.to_string(), self.prog.funcs.len() - 1);
        self.prog.funcs.len() - 1
    }

    fn function(&mut self) -> R<()> {
        self.pos += 1;
        let name = match self.tok().clone() {
            Tok::Name(n) | Tok::Func(n) => n,
            _ => return self.error(),
        };
        self.pos += 1;
        self.expect("(")?;
        let mut params = Vec::new();
        while !self.eat(")") {
            match self.tok().clone() {
                Tok::Name(n) => params.push(n),
                _ => return self.error(),
            }
            self.pos += 1;
            if !self.is(")") {
                self.expect(",")?;
                self.newlines();
            }
        }
        self.newlines();
        let i = self.func_index(&name);
        if self.prog.funcs[i].defined {
            return Err(SyntaxError {
                line: self.line(),
                shown: self.line(),
                col: usize::MAX,
                message: format!("function name `{name}' previously defined"),
            });
        }
        self.arrays = vec![false; params.len()];
        self.locals = Some(params.clone());
        if !self.is("{") {
            return self.error();
        }
        let body = self.block()?;
        self.locals = None;
        let f = &mut self.prog.funcs[i];
        (f.params, f.body, f.defined, f.arrays) = (params, body, true, std::mem::take(&mut self.arrays));
        Ok(())
    }

    pub(super) fn var(&mut self, name: &str) -> Var {
        if let Some(i) = self.locals.as_ref().and_then(|l| l.iter().position(|p| p == name)) {
            return Var::Local(i);
        }
        if let Some(&i) = self.globals.get(name) {
            return Var::Global(i);
        }
        self.prog.globals.push(name.to_string());
        self.globals.insert(name.to_string(), self.prog.globals.len() - 1);
        Var::Global(self.prog.globals.len() - 1)
    }

    /// A variable used as an array.
    pub(super) fn array(&mut self, name: &str) -> Var {
        let v = self.var(name);
        if let Var::Local(i) = v {
            self.arrays[i] = true;
        }
        v
    }

    pub(super) fn array_name(&mut self) -> R<Var> {
        match self.tok().clone() {
            Tok::Name(n) => {
                self.pos += 1;
                Ok(self.array(&n))
            }
            _ => self.error(),
        }
    }

    fn block(&mut self) -> R<Vec<Stmt>> {
        self.expect("{")?;
        let mut out = Vec::new();
        loop {
            while matches!(self.tok(), Tok::Newline) || self.is(";") {
                self.pos += 1;
            }
            if self.eat("}") {
                return Ok(out);
            }
            if matches!(self.tok(), Tok::Eof) {
                return self.error();
            }
            out.push(self.stmt()?);
        }
    }

    /// The end of a simple statement: `;`, a newline, or before `}`.
    fn end(&mut self) -> R<()> {
        match self.tok() {
            Tok::Newline => self.pos += 1,
            Tok::Op(";") => self.pos += 1,
            Tok::Op("}") | Tok::Eof => {}
            _ => return self.error(),
        }
        Ok(())
    }

    /// A statement that is the body of `if`, `while` or `for`.
    fn body(&mut self) -> R<Stmt> {
        self.newlines();
        if self.eat(";") {
            return Ok(Stmt::Block(Vec::new()));
        }
        self.stmt()
    }

    fn stmt(&mut self) -> R<Stmt> {
        let line = self.line();
        let s = match self.tok().clone() {
            Tok::Op("{") => return Ok(Stmt::Block(self.block()?)),
            Tok::Op("if") => {
                self.pos += 1;
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                let then = self.body()?;
                let save = self.pos;
                while matches!(self.tok(), Tok::Newline) || self.is(";") {
                    self.pos += 1;
                }
                if self.eat("else") {
                    let other = self.body()?;
                    return Ok(Stmt::If(c, Box::new(then), Some(Box::new(other))));
                }
                self.pos = save;
                return Ok(Stmt::If(c, Box::new(then), None));
            }
            Tok::Op("while") => {
                self.pos += 1;
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                if self.eat(";") {
                    return Ok(Stmt::While(c, Box::new(Stmt::Block(Vec::new()))));
                }
                return Ok(Stmt::While(c, Box::new(self.body()?)));
            }
            Tok::Op("do") => {
                self.pos += 1;
                let body = self.body()?;
                while matches!(self.tok(), Tok::Newline) || self.is(";") {
                    self.pos += 1;
                }
                self.expect("while")?;
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                Stmt::Do(Box::new(body), c)
            }
            Tok::Op("for") => return self.for_stmt(),
            Tok::Op(";") => {
                self.pos += 1;
                return Ok(Stmt::Block(Vec::new()));
            }
            _ => self.simple(line)?,
        };
        self.end()?;
        Ok(s)
    }

    fn for_stmt(&mut self) -> R<Stmt> {
        self.pos += 1;
        self.expect("(")?;
        if let (Tok::Name(k), Tok::Op("in"), Tok::Name(a), Tok::Op(")")) =
            (self.peek(0).clone(), self.peek(1).clone(), self.peek(2).clone(), self.peek(3).clone())
        {
            self.pos += 4;
            let (k, a) = (self.var(&k), self.array(&a));
            return Ok(Stmt::ForIn(k, a, Box::new(self.body()?)));
        }
        let init = if self.is(";") { None } else { Some(Box::new(self.simple(self.line())?)) };
        self.expect(";")?;
        self.newlines();
        let cond = if self.is(";") { None } else { Some(self.expr()?) };
        self.expect(";")?;
        self.newlines();
        let step = if self.is(")") { None } else { Some(Box::new(self.simple(self.line())?)) };
        self.expect(")")?;
        if self.eat(";") {
            return Ok(Stmt::For(init, cond, step, Box::new(Stmt::Block(Vec::new()))));
        }
        Ok(Stmt::For(init, cond, step, Box::new(self.body()?)))
    }

    fn simple(&mut self, line: usize) -> R<Stmt> {
        Ok(match self.tok().clone() {
            Tok::Op(k @ ("print" | "printf")) => {
                self.pos += 1;
                let mut args = Vec::new();
                if !matches!(self.tok(), Tok::Newline | Tok::Eof | Tok::Op(";" | "}" | ">" | ">>" | "|")) {
                    self.no_gt = true;
                    let r = self.expr_list();
                    self.no_gt = false;
                    args = r?;
                }
                if let [Expr::Builtin(LIST, _)] = args.as_slice() {
                    if let Some(Expr::Builtin(_, list)) = args.pop() {
                        args = list;
                    }
                }
                let redirect = match self.tok() {
                    Tok::Op(o @ (">" | ">>" | "|")) => {
                        let o = *o;
                        self.pos += 1;
                        self.no_gt = true;
                        let to = self.concat();
                        self.no_gt = false;
                        let to = to?;
                        Some(match o {
                            ">" => Redirect::File(to),
                            ">>" => Redirect::Append(to),
                            _ => Redirect::Pipe(to),
                        })
                    }
                    _ => None,
                };
                if k == "print" {
                    Stmt::Print(args, redirect, line)
                } else {
                    if args.is_empty() {
                        return self.error();
                    }
                    Stmt::Printf(args, redirect, line)
                }
            }
            Tok::Op("next") => {
                self.pos += 1;
                Stmt::Next
            }
            Tok::Op("nextfile") => {
                self.pos += 1;
                Stmt::NextFile
            }
            Tok::Op("break") => {
                self.pos += 1;
                Stmt::Break
            }
            Tok::Op("continue") => {
                self.pos += 1;
                Stmt::Continue
            }
            Tok::Op(k @ ("exit" | "return")) => {
                self.pos += 1;
                let value = if matches!(self.tok(), Tok::Newline | Tok::Eof | Tok::Op(";" | "}")) {
                    None
                } else {
                    Some(self.expr()?)
                };
                if k == "exit" {
                    Stmt::Exit(value)
                } else {
                    Stmt::Return(value)
                }
            }
            Tok::Op("delete") => {
                self.pos += 1;
                let paren = self.eat("(");
                let a = self.array_name()?;
                let subs = if self.eat("[") {
                    let s = self.expr_list()?;
                    self.expect("]")?;
                    Some(s)
                } else {
                    None
                };
                if paren {
                    self.expect(")")?;
                }
                Stmt::Delete(a, subs)
            }
            _ => Stmt::Expr(self.expr()?, line),
        })
    }
}
