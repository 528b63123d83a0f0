//! The tokens of a sar line: values and labels, the time of day that starts a row (any locale's
//! clock: `10:00:01 AM`, `10時00分01秒`, …) and the system banners of Linux and the Unix sars.
//!
//! Flow: the parser asks [`time_prefix`] how many tokens of a line are its time, then
//! [`colon_label`] or [`bare_label`] whether the rest starts with a label (`Average:`, a
//! translation), and [`numeric`] which tokens are values.

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while1, take_while_m_n};
use nom::character::complete::{char, u32 as dec};
use nom::combinator::{all_consuming, map, map_res, opt, verify};
use nom::sequence::preceded;
use nom::Parser;

use crate::disk::SystemHeader;

/// A token that is a value, not a name: `12`, `-3.85`, `+0.00`, `.5`, `0,06`, `1.6k`.
pub(super) fn numeric(t: &str) -> bool {
    let mut c = t.chars();
    match c.next() {
        Some(d) if d.is_ascii_digit() => true,
        Some('-' | '+' | '.' | ',') => c.next().is_some_and(|d| d.is_ascii_digit() || d == '.'),
        _ => false,
    }
}

/// A bare summary word (AIX/Solaris/HP-UX `Average`): letters only.
pub(super) fn bare_label(t: &str) -> bool {
    t.chars().any(char::is_alphabetic) && t.chars().all(|c| c.is_alphabetic() || c == '.')
}

/// One to three tokens ending with `:` (or a full-width `：`), none of them a value: `Average:`,
/// `Moyenne :`, `Trung bình:`, `平均時間：`. Returns how many tokens it spans.
pub(super) fn colon_label(toks: &[&str]) -> Option<usize> {
    for k in 1..=toks.len().min(3) {
        let t = toks[k - 1];
        if numeric(t) || time_prefix(&toks[k - 1..k]).is_some() {
            return None;
        }
        if t.ends_with(':') || t.ends_with('：') {
            return Some(k);
        }
    }
    None
}

pub(super) type R<'a, O> = nom::IResult<&'a str, O>;

/// `HH:MM:SS`, `HH:MM`, `HH.MM.SS` → (h, m, s).
pub(super) fn clock(s: &str) -> R<'_, (u32, u32, u32)> {
    let two = |s| {
        map_res(
            take_while_m_n(2, 2, |c: char| c.is_ascii_digit()),
            |d: &str| d.parse::<u32>(),
        )
        .parse(s)
    };
    alt((
        map(
            (
                verify(dec, |h| *h <= 24),
                char(':'),
                verify(dec, |m| *m < 60),
                opt(preceded(char(':'), verify(dec, |s| *s < 61))),
            ),
            |(h, _, m, s)| (h, m, s.unwrap_or(0)),
        ),
        map((two, char('.'), two, char('.'), two), |(h, _, m, _, s)| {
            (h, m, s)
        }),
    ))
    .parse(s)
}

pub(super) fn non_ascii(c: char) -> bool {
    !c.is_ascii()
}

/// `17時45分02秒` (ja, zh): digits and non-ASCII unit signs.
pub(super) fn cjk_clock(s: &str) -> R<'_, (u32, u32, u32)> {
    map(
        (
            dec,
            take_while1(non_ascii),
            dec,
            take_while1(non_ascii),
            dec,
            take_while(non_ascii),
        ),
        |(h, _, m, _, s, _)| (h, m, s),
    )
    .parse(s)
}

/// One Korean time part: `17시`.
pub(super) fn cjk_part(s: &str) -> R<'_, u32> {
    map((dec, take_while1(non_ascii)), |(n, _)| n).parse(s)
}

pub(super) fn ampm(s: &str) -> R<'_, &str> {
    alt((
        tag_no_case("AM"),
        tag_no_case("PM"),
        tag_no_case("a.m."),
        tag_no_case("p.m."),
        tag("午前"),
        tag("午後"),
        tag("오전"),
        tag("오후"),
    ))
    .parse(s)
}

/// A time of day at the start of a row: how many tokens it spans and its seconds since midnight.
pub(super) fn time_prefix(toks: &[&str]) -> Option<(usize, u32)> {
    let first = toks.first()?;
    let (n, (h, m, s)) = if let Ok((_, hms)) = all_consuming(clock).parse(first) {
        (1, hms)
    } else if let Ok((_, hms)) = all_consuming(cjk_clock).parse(first) {
        (1, hms)
    } else {
        // `17시 45분 02초`
        let parts: Vec<u32> = toks
            .iter()
            .take(3)
            .map_while(|t| all_consuming(cjk_part).parse(t).ok().map(|(_, v)| v))
            .collect();
        if parts.len() != 3 {
            return None;
        }
        (3, (parts[0], parts[1], parts[2]))
    };
    let pm = toks
        .get(n)
        .and_then(|t| all_consuming(ampm).parse(t).ok())
        .map(|(_, p)| p);
    let (n, h) = match pm {
        Some(p) => {
            let afternoon = p.eq_ignore_ascii_case("PM")
                || p.eq_ignore_ascii_case("p.m.")
                || p == "午後"
                || p == "오후";
            let h = match (afternoon, h) {
                (true, h) if h < 12 => h + 12,
                (false, 12) => 0,
                (_, h) => h,
            };
            (n + 1, h)
        }
        None => (n, h),
    };
    Some((n, h * 3600 + m * 60 + s))
}

/// A banner: `Linux <release> (<host>) <date> [_<arch>_] [(<N> CPU)]`, `SunOS <host> <release>
/// <version> <machine> <date>`, `AIX <host> <release> <version> <machine id> <date>`, `HP-UX
/// <host> <release> <version> <machine> <date>`.
pub(super) fn banner_line(toks: &[&str]) -> Option<SystemHeader> {
    match *toks.first()? {
        "Linux" => linux_banner(toks),
        "SunOS" | "AIX" | "HP-UX" => unix_banner(toks),
        _ => None,
    }
}

pub(super) fn linux_banner(toks: &[&str]) -> Option<SystemHeader> {
    crate::disk::linux_banner(toks)
}

pub(super) fn unix_banner(toks: &[&str]) -> Option<SystemHeader> {
    // sysname host release version machine date
    if toks.len() != 6 {
        return None;
    }
    let date = toks[5];
    let datelike = date.chars().any(|c| c.is_ascii_digit())
        && date.contains(['/', '-', '.'])
        && date
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '/' | '-' | '.'));
    if !datelike {
        return None;
    }
    let kernel = if toks[0] == "AIX" {
        // AIX prints `uname -r` (release) then `uname -v` (version): `1 7` is AIX 7.1.
        format!("{}.{}", toks[3], toks[2])
    } else {
        toks[2].to_string()
    };
    Some(SystemHeader {
        sysname: toks[0].to_string(),
        kernel,
        host: toks[1].to_string(),
        date: Some(date.to_string()),
        arch: Some(toks[4].to_string()),
        cpus: None,
    })
}
