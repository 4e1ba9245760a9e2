//! `tr`: translate, delete or squeeze bytes of standard input, as coreutils 9.1 (which
//! works on bytes, not characters: `tr a-z A-Z` leaves `é` as it is, and a character
//! beyond ASCII in a set stands for its bytes).

mod spec;

use super::ctx::{Ctx, Status};
use crate::base::getopt::{self, long, opt, short, Arg, Digits, Grammar};
use spec::{Case, Cursor, Elem};

const OPTS: &[getopt::Opt] = &[
    short("A", Arg::No),
    opt('c', "complement", Arg::No),
    short("C", Arg::No),
    opt('d', "delete", Arg::No),
    opt('s', "squeeze-repeats", Arg::No),
    opt('t', "truncate-set1", Arg::No),
    long("help", Arg::No),
    long("version", Arg::No),
];
const GRAMMAR: Grammar = Grammar { opts: OPTS, permute: false, digits: Digits::No, ..getopt::GETOPT_LONG };

/// A set and what `get_spec_stats` finds of it.
struct Set {
    elems: Vec<Elem>,
    len: u64,
    indefinite: usize,
    has_class: bool,
    has_equiv: bool,
    /// A class other than `upper` and `lower`.
    has_restricted: bool,
}

impl Set {
    fn new(elems: Vec<Elem>) -> Result<Set, String> {
        let mut set = Set { elems, len: 0, indefinite: 0, has_class: false, has_equiv: false, has_restricted: false };
        for e in &set.elems {
            match e {
                Elem::Class(_, name) => {
                    set.has_class = true;
                    set.has_restricted |= !matches!(*name, "upper" | "lower");
                }
                Elem::Equiv(_) => set.has_equiv = true,
                Elem::Repeat(_, 0) => set.indefinite += 1,
                _ => {}
            }
            set.len =
                set.len.checked_add(e.len()).filter(|&n| n <= spec::MAX_COUNT).ok_or("too many characters in set")?;
        }
        Ok(set)
    }

    /// Every byte of the set, in order.
    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        let mut cursor = Cursor::default();
        std::iter::from_fn(move || cursor.next(&self.elems).map(|(c, _)| c))
    }

    /// Which bytes are in the set (or out of it, `complement`).
    fn members(&self, complement: bool) -> [bool; 256] {
        let mut m = [complement; 256];
        for c in self.bytes() {
            m[usize::from(c)] = !complement;
        }
        m
    }
}

/// What to do.
struct Mode {
    complement: bool,
    delete: bool,
    squeeze: bool,
    truncate: bool,
}

/// `validate`: GNU's checks of the sets against the mode, filling `[c*]` and extending
/// SET2 by its last byte as it does; `Err` with its message.
fn validate(s1: &mut Set, s2: Option<&mut Set>, mode: &Mode, translating: bool) -> Result<(), String> {
    if mode.complement {
        s1.len = s1.members(true).iter().filter(|&&b| b).count() as u64;
    }
    if s1.indefinite > 0 {
        return Err("the [c*] repeat construct may not appear in string1".into());
    }
    let Some(s2) = s2 else { return Ok(()) };
    if s1.len >= s2.len && s2.indefinite == 1 {
        let fill = s1.len - s2.len;
        if let Some(Elem::Repeat(_, n)) = s2.elems.iter_mut().find(|e| matches!(e, Elem::Repeat(_, 0))) {
            *n = fill;
        }
        s2.len = s1.len;
    }
    if s2.indefinite > 1 {
        return Err("only one [c*] repeat construct may appear in string2".into());
    }
    if !translating {
        if s2.indefinite > 0 {
            return Err("the [c*] construct may appear in string2 only when translating".into());
        }
        return Ok(());
    }
    if s2.has_equiv {
        return Err("[=c=] expressions may not appear in string2 when translating".into());
    }
    if s2.has_restricted {
        return Err(
            "when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'".into()
        );
    }
    if !mode.complement && s2.has_class {
        // Each case class pairs with one in SET1, and counts as one byte.
        let (mut a, mut b) = (Cursor::default(), Cursor::default());
        let (mut new1, mut new2) = (true, true);
        loop {
            let c1 = a.next(&s1.elems);
            let c2 = b.next(&s2.elems);
            let case1 = c1.map_or(Case::None, |c| c.1);
            let case2 = c2.map_or(Case::None, |c| c.1);
            if new2 && case2 != Case::None && !(new1 && case1 != Case::None) {
                return Err("misaligned [:upper:] and/or [:lower:] construct".into());
            }
            if case2 != Case::None {
                a.skip();
                b.skip();
                s1.len -= 25;
                s2.len -= 25;
            }
            (new1, new2) = (a.state.is_none(), b.state.is_none());
            if c1.is_none() || c2.is_none() {
                break;
            }
        }
    }
    if s1.len > s2.len && !mode.truncate {
        if s2.len == 0 {
            return Err("when not truncating set1, string2 must be non-empty".into());
        }
        let last = match s2.elems.last() {
            Some(&Elem::Char(c)) | Some(&Elem::Range(_, c)) | Some(&Elem::Repeat(c, _)) | Some(&Elem::Equiv(c)) => c,
            _ => {
                return Err(
                    "when translating with string1 longer than string2,\nthe latter string must not end with a character class".into(),
                )
            }
        };
        s2.elems.push(Elem::Repeat(last, s1.len - s2.len));
        s2.len = s1.len;
    }
    if mode.complement && s1.has_class {
        let mut bytes = s2.bytes();
        let first = bytes.next();
        let same = first.is_some() && bytes.all(|c| Some(c) == first);
        if !(s2.len == s1.len && same) {
            return Err(
                "when translating with complemented character classes,\nstring2 must map all characters in the domain to one"
                    .into(),
            );
        }
    }
    Ok(())
}

/// The byte each byte becomes.
fn translation(s1: &Set, s2: &Set, complement: bool) -> [u8; 256] {
    let mut map: [u8; 256] = std::array::from_fn(|i| i as u8);
    let mut b = Cursor::default();
    if complement {
        let inside = s1.members(false);
        for i in (0..256).filter(|&i| !inside[i]) {
            match b.next(&s2.elems) {
                Some((c, _)) => map[i] = c,
                None => break,
            }
        }
        return map;
    }
    let mut a = Cursor::default();
    loop {
        let c1 = a.next(&s1.elems);
        let c2 = b.next(&s2.elems);
        let case1 = c1.map_or(Case::None, |c| c.1);
        let case2 = c2.map_or(Case::None, |c| c.1);
        match (case1, case2) {
            (Case::Lower, Case::Upper) => (b'a'..=b'z').for_each(|c| map[usize::from(c)] = c.to_ascii_uppercase()),
            (Case::Upper, Case::Lower) => (b'A'..=b'Z').for_each(|c| map[usize::from(c)] = c.to_ascii_lowercase()),
            _ => match (c1, c2) {
                (Some((x, _)), Some((y, _))) => map[usize::from(x)] = y,
                _ => break,
            },
        }
        if case2 != Case::None {
            a.skip();
            b.skip();
        }
    }
    map
}

/// `data` with each run of one byte of `squeeze` made one.
fn squeezed(data: impl Iterator<Item = u8>, squeeze: &[bool; 256]) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    for c in data {
        if !(squeeze[usize::from(c)] && out.last() == Some(&c)) {
            out.push(c);
        }
    }
    out
}

pub(crate) fn run(ctx: &mut Ctx, args: &[String]) -> Status {
    let line = match getopt::parse(&GRAMMAR, args) {
        Ok(line) => line,
        Err(m) => return Ok(ctx.usage(&m.message(ctx.name), 1)),
    };
    let mut mode = Mode { complement: false, delete: false, squeeze: false, truncate: false };
    for given in &line.opts {
        match given.key {
            "complement" | "C" => mode.complement = true,
            "delete" => mode.delete = true,
            "squeeze-repeats" => mode.squeeze = true,
            "truncate-set1" => mode.truncate = true,
            "help" | "version" => return Ok(ctx.about(given.key)),
            _ => {}
        }
    }
    let operands = &line.operands;
    let translating = operands.len() == 2 && !mode.delete;
    let least = 1 + usize::from(mode.delete == mode.squeeze);
    let most = 1 + usize::from(mode.delete <= mode.squeeze);
    if operands.len() < least {
        if let Some(last) = operands.last() {
            ctx.error(format!("missing operand after ‘{last}’"));
            ctx.err.push_str(if mode.squeeze {
                "Two strings must be given when both deleting and squeezing repeats.\n"
            } else {
                "Two strings must be given when translating.\n"
            });
        } else {
            ctx.error("missing operand");
        }
        return Ok(ctx.usage("", 1));
    }
    if operands.len() > most {
        ctx.error(format!("extra operand ‘{}’", operands[most]));
        if operands.len() == 2 {
            ctx.err.push_str("Only one string may be given when deleting without squeezing repeats.\n");
        }
        return Ok(ctx.usage("", 1));
    }
    let mut sets = Vec::new();
    for operand in operands {
        let mut warnings = Vec::new();
        let parsed = spec::parse(operand.as_bytes(), &mut warnings).and_then(Set::new);
        for w in warnings {
            ctx.error(w);
        }
        match parsed {
            Ok(set) => sets.push(set),
            Err(message) => {
                ctx.error(message);
                return Ok(1);
            }
        }
    }
    let mut s2 = if sets.len() == 2 { sets.pop() } else { None };
    let mut s1 = sets.pop().unwrap_or_else(|| Set::new(Vec::new()).unwrap_or_else(|_| unreachable!()));
    if let Err(message) = validate(&mut s1, s2.as_mut(), &mode, translating) {
        ctx.error(message);
        return Ok(1);
    }
    let data = ctx.stdin();
    let out = match (&s2, translating) {
        (None, _) if mode.squeeze => squeezed(data.iter().copied(), &s1.members(mode.complement)),
        (None, _) => {
            let deleted = s1.members(mode.complement);
            data.iter().copied().filter(|&c| !deleted[usize::from(c)]).collect()
        }
        (Some(s2), false) => {
            let deleted = s1.members(mode.complement);
            squeezed(data.iter().copied().filter(|&c| !deleted[usize::from(c)]), &s2.members(false))
        }
        (Some(s2), true) => {
            let map = translation(&s1, s2, mode.complement);
            let mapped = data.iter().map(|&c| map[usize::from(c)]);
            if mode.squeeze {
                squeezed(mapped, &s2.members(false))
            } else {
                mapped.collect()
            }
        }
    };
    ctx.print(out);
    Ok(0)
}
