//! Cell values as AWR prints them: numbers, scaled numbers, durations and timestamps.
//!
//! Grammar (nom), after trimming white space and `&nbsp;`:
//! - blank, `N/A`, `-` → unknown (`None`), never 0;
//! - `1,435.8`, `.5`, `-3`, `1.2E+03` → the number (`,` is a thousands separator: AWR prints numbers
//!   in the C locale);
//! - a suffix `K`, `M`, `G`, `T`, `P` scales the number by 1000ⁿ, or by 1024ⁿ for the IOStat `Data`
//!   columns (AWR's own legend: "'Data' columns suffixed with M,G,T,P are in multiples of 1024, other
//!   columns suffixed with K,M,G,T,P are in multiples of 1000");
//! - durations `433.09ns`, `152.25us`, `3.23ms`, `52.86 s` (12c+) are normalised to milliseconds.
//! - `####…` (a value too wide for its column) is an error, so it cannot pass as a number.

use chrono::NaiveDateTime;
use nom::character::complete::{alpha0, space0};
use nom::combinator::all_consuming;
use nom::number::complete::double;
use nom::Parser;

/// How a `K/M/G/T/P` suffix scales a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Multiples of 1000 (counts, rates).
    Decimal,
    /// Multiples of 1024 (IOStat `Data` columns).
    Binary,
}

/// Removes the characters AWR uses for padding or grouping: white space, no-break space, `,`.
fn clean(cell: &str) -> String {
    cell.chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{a0}' && *c != ',')
        .collect()
}

fn is_blank(s: &str) -> bool {
    s.is_empty() || s == "-" || s.eq_ignore_ascii_case("n/a") || s == "&nbsp;"
}

/// Splits `"1.9T"` into `(1.9, "T")`.
fn number_and_suffix(s: &str) -> Option<(f64, &str)> {
    let r: nom::IResult<&str, (f64, &str, &str)> = all_consuming((double, space0, alpha0)).parse(s);
    r.ok().map(|(_, (n, _, sfx))| (n, sfx))
}

/// Parses a numeric cell.
///
/// Returns `Ok(None)` for a blank cell and `Err(reason)` for anything that is not a number.
pub fn number(cell: &str, scale: Scale) -> Result<Option<f64>, String> {
    let s = clean(cell);
    if is_blank(&s) {
        return Ok(None);
    }
    if s.starts_with('#') {
        return Err(format!("'{}' (value overflowed its column)", cell.trim()));
    }
    let Some((n, sfx)) = number_and_suffix(&s) else {
        return Err(format!("'{}' is not a number", cell.trim()));
    };
    let base: f64 = match scale {
        Scale::Decimal => 1000.0,
        Scale::Binary => 1024.0,
    };
    let mult = match sfx {
        "" => 1.0,
        "K" | "k" => base,
        "M" => base.powi(2),
        "G" => base.powi(3),
        "T" => base.powi(4),
        "P" => base.powi(5),
        other => return Err(format!("'{}': unknown suffix '{other}'", cell.trim())),
    };
    Ok(Some(n * mult))
}

/// Parses a duration cell into milliseconds.
///
/// A value with a unit (`ns`, `us`, `µs`, `ms`, `s`, `m` for minutes, `h`) is converted; a bare
/// number is taken to be in `bare_unit_ms` milliseconds per unit (1.0 when the column header says
/// `(ms)`, 1000.0 for `(s)`).
pub fn duration_ms(cell: &str, bare_unit_ms: f64) -> Result<Option<f64>, String> {
    let s = clean(cell).replace(['\u{b5}', '\u{3bc}'], "u");
    if is_blank(&s) {
        return Ok(None);
    }
    let Some((n, sfx)) = number_and_suffix(&s) else {
        return Err(format!("'{}' is not a duration", cell.trim()));
    };
    let ms = match sfx {
        "" => bare_unit_ms,
        "ns" => 1e-6,
        "us" => 1e-3,
        "ms" => 1.0,
        "s" => 1000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        other => return Err(format!("'{}': unknown time unit '{other}'", cell.trim())),
    };
    Ok(Some(n * ms))
}

/// Parses an AWR timestamp: `12-Dec-23 17:00:31`, `22-Jun-23 09:06`, or 4-digit years.
pub fn awr_datetime(cell: &str) -> Option<NaiveDateTime> {
    let s = cell.trim().replace('\u{a0}', " ");
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    [
        "%d-%b-%y %H:%M:%S",
        "%d-%b-%y %H:%M",
        "%d-%b-%Y %H:%M:%S",
        "%d-%b-%Y %H:%M",
    ]
    .iter()
    .find_map(|f| NaiveDateTime::parse_from_str(&s, f).ok())
}

/// Decimals printed in a numeric cell (`1,140.38` → 2, `109.4` → 1, `12` → 0, `1.2E+03` → 0).
pub fn decimals(cell: &str) -> u32 {
    let c = clean(cell);
    if c.contains(['e', 'E']) {
        return 0;
    }
    c.split_once('.').map_or(0, |(_, f)| {
        f.chars().take_while(|ch| ch.is_ascii_digit()).count() as u32
    })
}

/// Parses `60.09 (mins)` (the AWR `Elapsed:` / `DB Time:` cells) into minutes.
pub fn minutes(cell: &str) -> Option<f64> {
    let s = cell.replace("(mins)", "").replace("(min)", "");
    number(&s, Scale::Decimal).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_awr_prints_them() {
        assert_eq!(number("1,435.8", Scale::Decimal), Ok(Some(1435.8)));
        assert_eq!(number(" .5 ", Scale::Decimal), Ok(Some(0.5)));
        assert_eq!(number("\u{a0}", Scale::Decimal), Ok(None));
        assert_eq!(number("", Scale::Decimal), Ok(None));
        assert_eq!(number("2144.8K", Scale::Decimal), Ok(Some(2_144_800.0)));
        assert_eq!(number("328.8M", Scale::Decimal), Ok(Some(328_800_000.0)));
        assert_eq!(number("12M", Scale::Binary), Ok(Some(12.0 * 1048576.0)));
        assert_eq!(
            number("1.9T", Scale::Binary),
            Ok(Some(1.9 * 1024f64.powi(4)))
        );
        assert_eq!(number("-3", Scale::Decimal), Ok(Some(-3.0)));
        assert!(number("#########", Scale::Decimal).is_err());
        assert!(number("abc", Scale::Decimal).is_err());
        assert!(number("12Q", Scale::Decimal).is_err());
    }

    #[test]
    fn durations_to_ms() {
        let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-9;
        assert!(close(duration_ms("152.25us", 1.0).unwrap(), 0.15225));
        assert!(close(duration_ms("3.23ms", 1.0).unwrap(), 3.23));
        assert!(close(duration_ms("52.86 s", 1.0).unwrap(), 52860.0));
        assert!(close(duration_ms("433.09ns", 1.0).unwrap(), 0.00043309));
        assert!(close(duration_ms("12", 1.0).unwrap(), 12.0));
        assert!(close(duration_ms("1.5", 1000.0).unwrap(), 1500.0));
        assert!(close(duration_ms("7\u{b5}s", 1.0).unwrap(), 0.007));
        assert_eq!(duration_ms("", 1.0), Ok(None));
        assert!(duration_ms("3.2parsec", 1.0).is_err());
    }

    #[test]
    fn printed_decimals() {
        assert_eq!(decimals("1,140.38"), 2);
        assert_eq!(decimals(" 109.4 "), 1);
        assert_eq!(decimals("12"), 0);
        assert_eq!(decimals("2144.8K"), 1);
    }

    #[test]
    fn timestamps_and_minutes() {
        let t = awr_datetime("12-Dec-23 17:00:31").unwrap();
        assert_eq!(t.to_string(), "2023-12-12 17:00:31");
        assert_eq!(
            awr_datetime("22-Jun-23 09:06").unwrap().to_string(),
            "2023-06-22 09:06:00"
        );
        assert_eq!(minutes("4,319.92 (mins)"), Some(4319.92));
        assert!(awr_datetime("yesterday").is_none());
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// Formats like AWR: `,` thousands separators, fixed decimals.
    fn awr_format(v: f64, d: usize) -> String {
        let s = format!("{:.*}", d, v);
        let (int, frac) = s
            .split_once('.')
            .map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
        let mut g = String::new();
        for (i, ch) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                g.push(',');
            }
            g.push(ch);
        }
        match frac {
            Some(f) => format!("{g}.{f}"),
            None => g,
        }
    }

    proptest! {
        #[test]
        fn printed_numbers_round_trip(v in 0.0f64..1e13, d in 0usize..4) {
            let printed = awr_format(v, d);
            let back = number(&printed, Scale::Decimal).unwrap().unwrap();
            prop_assert!((back - v).abs() <= 0.5 * 10f64.powi(-(d as i32)) * 1.0001 + 1e-9 * v);
        }

        #[test]
        fn any_cell_is_a_number_unknown_or_an_error_never_a_panic(s in "\\PC{0,12}") {
            let _ = number(&s, Scale::Binary);
            let _ = duration_ms(&s, 1.0);
            let _ = awr_datetime(&s);
        }
    }
}
