//! The tests on times and owners, from the one time and the one owner a collection has.
//!
//! A collection records when each page was last modified, and nothing else: its access,
//! status change and birth times are that time too (`-amin`, `-atime`, `-cmin`, `-ctime`
//! as `-mmin` and `-mtime`; `-anewer`, `-cnewer` and every `-newerXY` as `-newer`), and
//! `-used` answers as GNU find does for a file whose access and change times are equal.
//! Every entry belongs to [`OWNER`] (uid and gid [`OWNER_ID`]); any other name or number
//! selects nothing.

use super::{usage, Expr, Tok};
use crate::base::path;
use crate::commands::meta::{Meta, OWNER, OWNER_ID};
use crate::commands::{Place, Printed, Stop};
use std::cmp::Ordering;

const DAY_MS: f64 = 86_400_000.0;

/// `+N`, `-N` or `N` as GNU find reads them for `test`: a number it cannot read is its
/// error; one it reads otherwise than here (a fraction) is left to just-bash.
pub(super) fn number(test: &str, v: &str) -> Result<(Ordering, u64), Stop> {
    super::values::compared(v).map_err(|why| {
        if v.bytes().any(|b| b.is_ascii_digit()) {
            why.into()
        } else {
            usage(format!("invalid argument `{v}' to `{test}'"))
        }
    })
}

/// Where `-daystart` measures ages from: the end of today (UTC), as GNU find does.
pub(super) fn day_start(now_ms: f64) -> f64 {
    (now_ms / DAY_MS).floor() * DAY_MS + DAY_MS
}

/// `-mtime`, `-mmin` and their access and change twins: the age in whole days or
/// minutes from `origin` (now, or with `-daystart` the end of today).
pub(super) fn age(test: &str, v: &str, origin: f64) -> Result<Expr, Stop> {
    let (order, n) = number(test, v)?;
    let unit = if test.ends_with("time") { DAY_MS } else { 60_000.0 };
    Ok(Expr::Age(order, n, unit, origin))
}

/// The modification time of the entry `file` names (`-newer` and its kin).
pub(super) fn time_of(file: &str, place: Place) -> Result<f64, Stop> {
    let full = path::resolve(place.cwd, file);
    place.check(&full)?;
    let Some(node) = place.listing.get(&full) else {
        let stderr = format!("find: ‘{file}’: No such file or directory\n");
        return Err(Stop::Usage(Printed { stdout: String::new(), stderr, exit_code: 1, ..Default::default() }));
    };
    Ok(Meta::need(node)?.mtime_ms)
}

/// `-newerXY`: the letters of the times compared (`a`, `B`, `c`, `m`, and for the
/// reference `t`, a date), or GNU find's complaint.
pub(super) fn newer_xy(test: &str) -> Result<bool, Stop> {
    let b = test.as_bytes();
    match (b[6], b[7]) {
        (b'a' | b'B' | b'c' | b'm', b'a' | b'B' | b'c' | b'm') => Ok(false),
        (b'a' | b'B' | b'c' | b'm', b't') => Ok(true),
        _ => Err(usage(format!("invalid predicate `{test}'"))),
    }
}

/// `-used N`: days from the last access to the last change, which are the same time
/// here; GNU find then takes `N` as 1, and `-N` as any `N` from 1.
pub(super) fn used(v: &str) -> Result<Tok, Stop> {
    let (order, n) = super::values::compared(v).map_err(|_| usage(format!("Invalid argument {v} to -used")))?;
    Ok(Tok::Expr(Expr::Const(match order {
        Ordering::Equal => n == 1,
        Ordering::Less => n >= 1,
        Ordering::Greater => false,
    })))
}

/// `-user`, `-group`: the owner's name or id (any other name is nobody's here).
pub(super) fn owner(test: &str, v: &str) -> Result<Tok, Stop> {
    if v.is_empty() {
        return Err(usage(format!("The argument to {test} should not be empty")));
    }
    let id = v.bytes().all(|b| b.is_ascii_digit()).then(|| v.parse::<u64>().ok()).flatten();
    Ok(Tok::Expr(Expr::Const(v == OWNER || id == Some(OWNER_ID))))
}

/// `-uid`, `-gid`: the owner's id compared.
pub(super) fn id(test: &str, v: &str) -> Result<Tok, Stop> {
    let (order, n) = number(test, v)?;
    Ok(Tok::Expr(Expr::Const(OWNER_ID.cmp(&n) == order)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daystart_measures_from_the_end_of_today() {
        assert_eq!(day_start(1_709_632_800_000.0), 1_709_683_200_000.0, "2024-03-05 10:00 -> 2024-03-06");
        assert_eq!(day_start(1_709_683_200_000.0), 1_709_769_600_000.0);
    }

    #[test]
    fn owners_and_numbers() {
        let is = |t: Result<Tok, Stop>| matches!(t, Ok(Tok::Expr(Expr::Const(true))));
        assert!(is(owner("-user", "user")) && is(owner("-group", "1000")) && !is(owner("-user", "root")));
        assert!(is(id("-uid", "1000")) && is(id("-gid", "+999")) && is(id("-uid", "-1001")) && !is(id("-uid", "0")));
        assert!(is(used("1")) && is(used("-2")) && !is(used("0")) && !is(used("+0")) && !is(used("-0")));
        assert!(matches!(newer_xy("-newermt"), Ok(true)) && matches!(newer_xy("-newerBc"), Ok(false)));
        let Err(Stop::Usage(p)) = newer_xy("-newertm") else { panic!() };
        assert_eq!(p.stderr, "find: invalid predicate `-newertm'\n");
        let Err(Stop::Usage(p)) = id("-uid", "x") else { panic!() };
        assert_eq!(p.stderr, "find: invalid argument `x' to `-uid'\n");
        assert!(matches!(number("-mtime", "1.5"), Err(Stop::Delegate(_))));
    }
}
