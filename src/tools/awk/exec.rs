//! Running awk's statements: blocks, control flow, `print` and `printf`, `delete`, and
//! calls of user functions (their frames of locals, arrays passed by reference). Each
//! stop in the normal run (`next`, `exit`, `return`, `break`, …) is a [`Flow`] passed up.

use super::ast::*;
use super::interp::{fatal, Cell, Flow, Interp, Res};
use super::value::{num_to_str, Value};

impl Interp<'_, '_, '_> {
    pub(crate) fn call(&mut self, f: usize, args: &[Expr]) -> Res<Value> {
        let func = &self.prog.funcs[f];
        if self.frames.len() > 3000 {
            return fatal("function call nesting too deep");
        }
        let mut locals = Vec::with_capacity(func.params.len());
        for (i, a) in args.iter().enumerate().take(func.params.len()) {
            let cell = match a {
                Expr::Var(v) => {
                    let wants_array = func.arrays[i];
                    match self.cell(*v) {
                        Cell::Arr(r) => Cell::Arr(r.clone()),
                        Cell::Val(Value::Uninit) if wants_array => Cell::Arr(self.array(*v)?),
                        Cell::Val(x) => Cell::Val(x.clone()),
                    }
                }
                a => Cell::Val(self.eval(a)?),
            };
            locals.push(cell);
        }
        for a in args.iter().skip(func.params.len()) {
            self.eval(a)?;
        }
        while locals.len() < func.params.len() {
            locals.push(Cell::Val(Value::Uninit));
        }
        self.frames.push(locals);
        let r = self.block(&func.body);
        self.frames.pop();
        match r {
            Ok(()) => Ok(Value::Uninit),
            Err(Flow::Return(v)) => Ok(v),
            Err(e) => Err(e),
        }
    }

    pub(crate) fn block(&mut self, stmts: &[Stmt]) -> Res<()> {
        for s in stmts {
            self.exec(s)?;
        }
        Ok(())
    }

    fn exec(&mut self, s: &Stmt) -> Res<()> {
        match s {
            Stmt::Expr(e, line) => {
                self.line = *line;
                self.ran = true;
                self.eval(e)?;
            }
            Stmt::Print(args, to, line) => {
                self.line = *line;
                self.ran = true;
                let mut out = String::new();
                if args.is_empty() {
                    out.push_str(&self.record);
                } else {
                    let (ofs, ofmt) = (self.special(OFS), self.special(OFMT));
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(&ofs);
                        }
                        match self.eval(a)? {
                            Value::Num(n) => out.push_str(&num_to_str(n, &ofmt)),
                            v => out.push_str(&v.text("")),
                        }
                    }
                }
                out.push_str(&self.special(ORS));
                self.output(to.as_ref(), &out)?;
            }
            Stmt::Printf(args, to, line) => {
                self.line = *line;
                self.ran = true;
                let out = self.sprintf(args)?;
                self.output(to.as_ref(), &out)?;
            }
            Stmt::If(c, a, b) => {
                if self.eval(c)?.truthy() {
                    self.exec(a)?;
                } else if let Some(b) = b {
                    self.exec(b)?;
                }
            }
            Stmt::While(c, body) => {
                while self.eval(c)?.truthy() {
                    match self.exec(body) {
                        Err(Flow::Break) => break,
                        Err(Flow::Continue) | Ok(()) => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            Stmt::Do(body, c) => loop {
                match self.exec(body) {
                    Err(Flow::Break) => break,
                    Err(Flow::Continue) | Ok(()) => {}
                    Err(e) => return Err(e),
                }
                if !self.eval(c)?.truthy() {
                    break;
                }
            },
            Stmt::For(init, c, step, body) => {
                if let Some(i) = init {
                    self.exec(i)?;
                }
                loop {
                    if let Some(c) = c {
                        if !self.eval(c)?.truthy() {
                            break;
                        }
                    }
                    match self.exec(body) {
                        Err(Flow::Break) => break,
                        Err(Flow::Continue) | Ok(()) => {}
                        Err(e) => return Err(e),
                    }
                    if let Some(s) = step {
                        self.exec(s)?;
                    }
                }
            }
            Stmt::ForIn(k, a, body) => {
                let arr = self.array(*a)?;
                let keys = arr.borrow().keys();
                for key in keys {
                    if arr.borrow().get(&key).is_none() {
                        continue;
                    }
                    self.assign(&Expr::Var(*k), Value::input(&key))?;
                    match self.exec(body) {
                        Err(Flow::Break) => break,
                        Err(Flow::Continue) | Ok(()) => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            Stmt::Block(b) => self.block(b)?,
            Stmt::Next => return Err(Flow::Next),
            Stmt::NextFile => return Err(Flow::NextFile),
            Stmt::Exit(e) => {
                if let Some(e) = e {
                    self.exit_code = self.eval(e)?.num() as i32;
                }
                return Err(Flow::Exit);
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::Uninit,
                };
                return Err(Flow::Return(v));
            }
            Stmt::Break => return Err(Flow::Break),
            Stmt::Continue => return Err(Flow::Continue),
            Stmt::Delete(a, subs) => {
                let arr = self.array(*a)?;
                match subs {
                    None => arr.borrow_mut().clear(),
                    Some(subs) => {
                        let k = self.subscript(subs)?;
                        arr.borrow_mut().remove(&k);
                    }
                }
            }
        }
        Ok(())
    }
}
