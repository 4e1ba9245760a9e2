//! awk's expressions: tokens read into an [`Expr`], one precedence level a method, from
//! assignment down to primaries (fields, variables, calls, `getline`), with gawk's rules for
//! where `>` and `in` are operators and for dividing by a constant zero.

use super::ast::*;
use super::lex::Tok;
use super::parse::{Parser, SyntaxError, R};

fn is_lvalue(e: &Expr) -> bool {
    matches!(e, Expr::Var(_) | Expr::Index(..) | Expr::Field(_))
}

impl Parser {
    pub(super) fn expr_list(&mut self) -> R<Vec<Expr>> {
        let mut list = vec![self.expr()?];
        while self.eat(",") {
            self.newlines();
            list.push(self.expr()?);
        }
        Ok(list)
    }

    pub(super) fn expr(&mut self) -> R<Expr> {
        let lhs = self.ternary()?;
        let op = match self.tok() {
            Tok::Op("=") => None,
            Tok::Op("+=") => Some(Arith::Add),
            Tok::Op("-=") => Some(Arith::Sub),
            Tok::Op("*=") => Some(Arith::Mul),
            Tok::Op("/=") => Some(Arith::Div),
            Tok::Op("%=") => Some(Arith::Mod),
            Tok::Op("^=" | "**=") => Some(Arith::Pow),
            _ => return Ok(lhs),
        };
        if !is_lvalue(&lhs) {
            return self.error();
        }
        self.pos += 1;
        self.newlines();
        let rhs = self.expr()?;
        Ok(Expr::Assign(op, Box::new(lhs), Box::new(rhs)))
    }

    fn ternary(&mut self) -> R<Expr> {
        let c = self.or()?;
        if !self.eat("?") {
            return Ok(c);
        }
        self.newlines();
        let a = self.expr()?;
        self.newlines();
        self.expect(":")?;
        self.newlines();
        let b = self.expr()?;
        Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)))
    }

    fn or(&mut self) -> R<Expr> {
        let mut e = self.and()?;
        while self.eat("||") {
            self.newlines();
            e = Expr::Or(Box::new(e), Box::new(self.and()?));
        }
        Ok(e)
    }

    fn and(&mut self) -> R<Expr> {
        let mut e = self.in_()?;
        while self.eat("&&") {
            self.newlines();
            e = Expr::And(Box::new(e), Box::new(self.in_()?));
        }
        Ok(e)
    }

    fn in_(&mut self) -> R<Expr> {
        let mut e = self.matching()?;
        while !self.no_in && self.eat("in") {
            let a = self.array_name()?;
            e = Expr::In(vec![e], a);
        }
        Ok(e)
    }

    fn matching(&mut self) -> R<Expr> {
        let mut e = self.compare()?;
        loop {
            let neg = if self.eat("~") {
                false
            } else if self.eat("!~") {
                true
            } else {
                return Ok(e);
            };
            e = Expr::Match(neg, Box::new(e), Box::new(self.compare()?));
        }
    }

    fn compare(&mut self) -> R<Expr> {
        let mut e = self.concat()?;
        loop {
            let op = match self.tok() {
                Tok::Op("<") => Cmp::Lt,
                Tok::Op("<=") => Cmp::Le,
                Tok::Op("==") => Cmp::Eq,
                Tok::Op("!=") => Cmp::Ne,
                Tok::Op(">") if !self.no_gt => Cmp::Gt,
                Tok::Op(">=") => Cmp::Ge,
                Tok::Op("|") if matches!(self.peek(1), Tok::Op("getline")) => {
                    self.pos += 2;
                    let target = self.getline_target()?;
                    e = Expr::Getline(Source::Command(Box::new(e)), target);
                    continue;
                }
                _ => return Ok(e),
            };
            self.pos += 1;
            let rhs = self.concat()?;
            e = Expr::Cmp(op, Box::new(e), Box::new(rhs));
        }
    }

    pub(super) fn concat(&mut self) -> R<Expr> {
        let mut e = self.additive()?;
        loop {
            let starts = match self.tok() {
                Tok::Num(_) | Tok::Str(_) | Tok::Regex(_) | Tok::Name(_) | Tok::Func(_) | Tok::Builtin(_) => true,
                Tok::Op(o) => {
                    matches!(*o, "$" | "!" | "(" | "++" | "--" | "-" | "+")
                        && !(*o == "!" && matches!(self.peek(1), Tok::Op("=" | "~")))
                }
                _ => false,
            };
            if !starts || self.is("-") || self.is("+") || self.is("!") {
                return Ok(e);
            }
            if self.is("in") {
                return Ok(e);
            }
            let rhs = self.additive()?;
            e = Expr::Concat(Box::new(e), Box::new(rhs));
        }
    }

    fn additive(&mut self) -> R<Expr> {
        let mut e = self.multiplicative()?;
        loop {
            let op = match self.tok() {
                Tok::Op("+") => Arith::Add,
                Tok::Op("-") => Arith::Sub,
                _ => return Ok(e),
            };
            self.pos += 1;
            e = Expr::Arith(op, Box::new(e), Box::new(self.multiplicative()?));
        }
    }

    fn multiplicative(&mut self) -> R<Expr> {
        let mut e = self.unary()?;
        loop {
            let op = match self.tok() {
                Tok::Op("*") => Arith::Mul,
                Tok::Op("/") => Arith::Div,
                Tok::Op("%") => Arith::Mod,
                _ => return Ok(e),
            };
            self.pos += 1;
            let rhs = self.unary()?;
            if rhs == Expr::Num(0.0) && op != Arith::Mul {
                // gawk folds a constant divisor, and refuses zero before running.
                let what = if op == Arith::Mod { " in `%'" } else { "" };
                let message = format!("division by zero attempted{what}");
                return Err(SyntaxError { line: self.line(), shown: self.line(), col: usize::MAX - 1, message });
            }
            e = Expr::Arith(op, Box::new(e), Box::new(rhs));
        }
    }

    fn unary(&mut self) -> R<Expr> {
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.eat("+") {
            return Ok(Expr::Plus(Box::new(self.unary()?)));
        }
        self.power()
    }

    fn power(&mut self) -> R<Expr> {
        let base = self.postfix()?;
        if self.eat("^") || self.eat("**") {
            let exp = if self.eat("-") {
                Expr::Neg(Box::new(self.unary()?))
            } else if self.eat("+") {
                self.unary()?
            } else if self.eat("!") {
                Expr::Not(Box::new(self.unary()?))
            } else {
                self.power()?
            };
            return Ok(Expr::Arith(Arith::Pow, Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn postfix(&mut self) -> R<Expr> {
        let e = self.primary()?;
        if is_lvalue(&e) {
            if self.eat("++") {
                return Ok(Expr::IncDec(false, 1.0, Box::new(e)));
            }
            if self.eat("--") {
                return Ok(Expr::IncDec(false, -1.0, Box::new(e)));
            }
        }
        Ok(e)
    }

    fn getline_target(&mut self) -> R<Option<Box<Expr>>> {
        Ok(match self.tok() {
            Tok::Name(_) | Tok::Op("$") => Some(Box::new(self.primary()?)),
            _ => None,
        })
    }

    fn primary(&mut self) -> R<Expr> {
        let t = self.tok().clone();
        self.pos += 1;
        Ok(match t {
            Tok::Num(n) => Expr::Num(n),
            Tok::Str(s) => Expr::Str(s),
            Tok::Regex(r) => Expr::Regex(r),
            Tok::Op("$") => {
                let e = if self.is("++") || self.is("--") {
                    self.primary()?
                } else if self.eat("-") {
                    Expr::Neg(Box::new(self.primary()?))
                } else if self.eat("+") {
                    Expr::Plus(Box::new(self.primary()?))
                } else if self.eat("!") {
                    Expr::Not(Box::new(self.primary()?))
                } else {
                    self.primary()?
                };
                Expr::Field(Box::new(e))
            }
            Tok::Op(o @ ("++" | "--")) => {
                let e = self.primary()?;
                if !is_lvalue(&e) {
                    self.pos -= 1;
                    return self.error();
                }
                Expr::IncDec(true, if o == "++" { 1.0 } else { -1.0 }, Box::new(e))
            }
            Tok::Op("-") => Expr::Neg(Box::new(self.unary()?)),
            Tok::Op("+") => Expr::Plus(Box::new(self.unary()?)),
            Tok::Op("!") => Expr::Not(Box::new(self.unary()?)),
            Tok::Op("(") => {
                let (gt, inn) = (self.no_gt, self.no_in);
                (self.no_gt, self.no_in) = (false, false);
                let list = self.expr_list();
                (self.no_gt, self.no_in) = (gt, inn);
                let mut list = list?;
                self.newlines();
                self.expect(")")?;
                if list.len() > 1 {
                    if self.eat("in") {
                        let a = self.array_name()?;
                        return Ok(Expr::In(list, a));
                    }
                    return Ok(Expr::Builtin(LIST, list));
                }
                Expr::Group(Box::new(list.pop().unwrap()))
            }
            Tok::Name(n) => {
                if self.eat("[") {
                    let subs = self.expr_list()?;
                    self.expect("]")?;
                    Expr::Index(self.array(&n), subs)
                } else {
                    Expr::Var(self.var(&n))
                }
            }
            Tok::Func(n) => {
                self.pos += 1;
                let args = self.args()?;
                Expr::Call(self.func_index(&n), args)
            }
            Tok::Builtin(f) => {
                if !self.eat("(") {
                    if f == "length" {
                        return Ok(Expr::Builtin(f, Vec::new()));
                    }
                    return self.error();
                }
                let args = self.args()?;
                if matches!(f, "split" | "asort" | "asorti") || (f == "match" && args.len() == 3) {
                    let at = if f == "match" { 2 } else { 1 };
                    for a in args.iter().skip(at).take(if f == "split" { 1 } else { 2 }) {
                        if let Expr::Var(Var::Local(i)) = a {
                            self.arrays[*i] = true;
                        }
                    }
                }
                Expr::Builtin(f, args)
            }
            Tok::Op("getline") => {
                let target = self.getline_target()?;
                if self.eat("<") {
                    let file = self.primary()?;
                    Expr::Getline(Source::File(Box::new(file)), target)
                } else {
                    Expr::Getline(Source::Main, target)
                }
            }
            _ => {
                self.pos -= 1;
                return self.error();
            }
        })
    }

    /// A call's arguments after its `(`, through its `)`.
    fn args(&mut self) -> R<Vec<Expr>> {
        self.newlines();
        if self.eat(")") {
            return Ok(Vec::new());
        }
        let (gt, inn) = (self.no_gt, self.no_in);
        (self.no_gt, self.no_in) = (false, false);
        let list = self.expr_list();
        (self.no_gt, self.no_in) = (gt, inn);
        let list = list?;
        self.newlines();
        self.expect(")")?;
        Ok(list)
    }
}
