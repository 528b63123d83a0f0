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
//!
//! A number is a value only when [`value`] accepts it: finite (`NaN`, `inf`, `infinity` and
//! `1e309` are not), at most [`MAX_VALUE`] in magnitude (so no sum of them can overflow), and
//! within its [`Range`]: not negative for a count, rate, time, size or percentage, at most 100 for
//! a percentage of a whole. [`number`] and [`duration_ms`] check it; the parsers with their own
//! number grammar (sysstat JSON, `sadf -d`, vSAN, esxtop, nmon, …) call [`value`] on what they
//! read, and the `checked` sink checks every record once more on its way out of the crate. A cell
//! that fails is an error for its caller, which makes it unknown with a warning naming the line
//! and the cell (never 0, never a number).

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

/// The largest magnitude a cell may hold: 10^18 (an exabyte, or a count no system prints in one
/// interval). Any sum of a few million such values stays far below `f64::MAX` (≈1.8·10^308), so
/// sums and ratios of accepted values are finite.
pub const MAX_VALUE: f64 = 1e18;

/// What a quantity may be, besides finite and at most [`MAX_VALUE`] in magnitude.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// A count, rate, time, size or throughput: 0 or more.
    NonNegative,
    /// A percentage of a whole (a hit ratio, CPU busy): 0 to 100.
    Percent,
    /// A difference or a signed efficiency (`Execute to Parse %` can be negative): any sign,
    /// at most 100 when `percent`.
    Signed {
        /// Also at most 100.
        percent: bool,
    },
}

/// Checks that `v`, read from `cell`, is a value in `range` (see the module docs).
///
/// # Errors
/// Why it is not, naming the cell as printed: `'NaN' is not a finite number`, `'-1' is negative
/// (a count, rate, time or size cannot be)`, `'1e308' is out of range (more than 10^18)`,
/// `'104.2' is more than 100 %`.
#[inline]
pub fn value(v: f64, cell: &str, range: Range) -> Result<f64, String> {
    let (percent, signed) = match range {
        Range::NonNegative => (false, false),
        Range::Percent => (true, false),
        Range::Signed { percent } => (percent, true),
    };
    // The accepted value, checked without touching the cell (this runs for every number of
    // every log: trimming the cell first cost 10 % of an iostat run, `docs/performance.md`).
    if v.is_finite() && v.abs() <= MAX_VALUE && (signed || v >= 0.0) && !(percent && v > 100.0) {
        // `-0` reads as 0.
        return Ok(v + 0.0);
    }
    refused(v, cell, range)
}

/// Why [`value`] refuses `v` (cold: only for a refused value).
#[cold]
fn refused(v: f64, cell: &str, range: Range) -> Result<f64, String> {
    let c = cell.trim();
    if !v.is_finite() {
        return Err(format!("'{c}' is not a finite number"));
    }
    if v.abs() > MAX_VALUE {
        return Err(format!("'{c}' is out of range (more than 10^18)"));
    }
    let percent = match range {
        Range::NonNegative => false,
        Range::Percent => true,
        Range::Signed { percent } => percent,
    };
    if v < 0.0 && !matches!(range, Range::Signed { .. }) {
        return Err(format!(
            "'{c}' is negative (a count, rate, time, size or percentage cannot be)"
        ));
    }
    if percent && v > 100.0 {
        return Err(format!("'{c}' is more than 100 %"));
    }
    // `-0` reads as 0.
    Ok(v + 0.0)
}

/// Removes the characters AWR uses for padding or grouping: white space, no-break space, `,`.
/// Borrowed when there is nothing to remove (most cells: this runs for every number cell).
fn clean(cell: &str) -> std::borrow::Cow<'_, str> {
    let padding = |c: char| c.is_whitespace() || c == '\u{a0}' || c == ',';
    if cell.contains(padding) {
        cell.chars()
            .filter(|c| !padding(*c))
            .collect::<String>()
            .into()
    } else {
        cell.into()
    }
}

fn is_blank(s: &str) -> bool {
    s.is_empty() || s == "-" || s.eq_ignore_ascii_case("n/a") || s == "&nbsp;"
}

/// Splits `"1.9T"` into `(1.9, "T")`.
fn number_and_suffix(s: &str) -> Option<(f64, &str)> {
    let r: nom::IResult<&str, (f64, &str, &str)> = all_consuming((double, space0, alpha0)).parse(s);
    r.ok().map(|(_, (n, _, sfx))| (n, sfx))
}

/// Parses a numeric cell that cannot be negative (a count, rate, time or size).
///
/// Returns `Ok(None)` for a blank cell and `Err(reason)` for anything that is not a number, or
/// not a value ([`value`] with [`Range::NonNegative`]).
pub fn number(cell: &str, scale: Scale) -> Result<Option<f64>, String> {
    number_in(cell, scale, Range::NonNegative)
}

/// Parses a numeric cell whose value must be in `range`; else as [`number`].
///
/// # Errors
/// As [`number`].
pub fn number_in(cell: &str, scale: Scale, range: Range) -> Result<Option<f64>, String> {
    match as_printed(cell, scale)? {
        Some(n) => value(n, cell, range).map(Some),
        None => Ok(None),
    }
}

/// [`number`] without the [`value`] check: what the cell reads as (`NaN`, `-1` and `1e308`
/// included). For the OS-log readers, whose records the `checked` sink checks on their way out,
/// so that such a cell is unknown with a warning rather than an error for its whole report.
///
/// # Errors
/// When the cell is not a number at all.
pub(crate) fn as_printed(cell: &str, scale: Scale) -> Result<Option<f64>, String> {
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

/// A cell of a tool that prints numbers with a decimal point, or with a decimal comma in a
/// non-C locale (`sadf -d` under `LC_NUMERIC=de_DE`, PowerCLI under `de-DE`): `1.5` or `1,5`
/// (one comma and no point). `Ok(None)` when blank. `NaN`, `-nan` and `inf` read as themselves,
/// unchecked: the caller's records go through the `checked` sink, which makes them unknown with
/// a warning naming the cell.
///
/// # Errors
/// `'1,234.5' is not a number` (a thousands separator), and for anything else that is not a
/// number.
pub fn point_or_comma(tok: &str) -> Result<Option<f64>, String> {
    let t = tok.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if t.trim_start_matches(['-', '+']).eq_ignore_ascii_case("nan") {
        return Ok(Some(f64::NAN));
    }
    let owned;
    let mut s = t;
    if t.contains(',') {
        if t.contains('.') || t.matches(',').count() > 1 {
            return Err(format!("'{t}' is not a number"));
        }
        owned = t.replace(',', ".");
        s = &owned;
    }
    let r: nom::IResult<&str, f64> = all_consuming(double).parse(s);
    r.map(|(_, v)| Some(v))
        .map_err(|_| format!("'{t}' is not a number"))
}

/// Parses a duration cell into milliseconds (a [`value`]: finite, not negative).
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
    value(n * ms, cell, Range::NonNegative).map(Some)
}

/// How a report prints its numbers: the C locale (`1,140.38`, AWR's default) or a decimal-comma
/// locale (NLS `de_DE` and its kin: `1.140,38`, `29.542` for 29542, `60,09 (mins)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Locale {
    /// `,` groups thousands, `.` is the decimal point.
    C,
    /// `.` groups thousands, `,` is the decimal point.
    DecimalComma,
}

/// The runs of digits, `.` and `,` of `text` that stand alone as numbers (not inside a word such
/// as `1.5em`, `v1.2` or `x86_64`), as byte ranges.
fn number_runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphabetic() || c == b'_';
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            // A run starts at a digit, or at a separator that begins a fraction without a
            // leading zero (`.1` in the C locale, `,1` with a decimal comma, as Oracle prints
            // them), not inside a word or after another digit or separator.
            let sep = |c: u8| c == b'.' || c == b',';
            let after_gap =
                i == 0 || !(word(b[i - 1]) || sep(b[i - 1]) || b[i - 1].is_ascii_digit());
            let starts = (b[i].is_ascii_digit() && (i == 0 || !(word(b[i - 1]) || sep(b[i - 1]))))
                || (sep(b[i]) && after_gap && b.get(i + 1).is_some_and(u8::is_ascii_digit));
            if !starts {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b',') {
                i += 1;
            }
            // A trailing separator is punctuation (`12.` ending a sentence, `3,` in a list).
            let mut end = i;
            while end > start && !b[end - 1].is_ascii_digit() {
                end -= 1;
            }
            if i < b.len() && word(b[i]) && !matches!(b[i], b'K' | b'M' | b'G' | b'T' | b'P' | b'k')
            {
                // `1.5em`, `2.0x`: part of a word, not a number (AWR's K/M/G/T/P suffixes are).
                continue;
            }
            return Some((start, end));
        }
        None
    })
}

/// What one run says about the locale: `Some(Locale::DecimalComma)` for `1.140,38`, `60,09` or
/// `4.111.819`; `Some(Locale::C)` for `1,140.38`, `60.09` or `4,111,819`; `None` when either
/// reading fits (`1,140`, `29.542`, `12`) or it is no number of either (`11.2.0.4.0`, `12.12.23`).
fn run_says(run: &str) -> Option<Locale> {
    let groups_of_3 = |s: &str, sep: char| s.split(sep).skip(1).all(|g| g.len() == 3);
    let (dots, commas) = (run.matches('.').count(), run.matches(',').count());
    // A leading separator begins a fraction (`.1`, `,1`): it is never a thousands group.
    match run.as_bytes().first() {
        Some(b'.') if (dots, commas) == (1, 0) => return Some(Locale::C),
        Some(b',') if (dots, commas) == (0, 1) => return Some(Locale::DecimalComma),
        Some(b'.' | b',') => return None,
        _ => {}
    }
    match (dots, commas) {
        (0, 0) => None,
        (_, 0) if dots > 1 => groups_of_3(run, '.').then_some(Locale::DecimalComma),
        (0, _) if commas > 1 => groups_of_3(run, ',').then_some(Locale::C),
        (1, 0) => (!groups_of_3(run, '.')).then_some(Locale::C),
        (0, 1) => (!groups_of_3(run, ',')).then_some(Locale::DecimalComma),
        _ => {
            let last_dot = run.rfind('.')?;
            let last_comma = run.rfind(',')?;
            if last_comma > last_dot {
                let int = &run[..last_comma];
                (int.matches(',').count() == 0 && groups_of_3(int, '.'))
                    .then_some(Locale::DecimalComma)
            } else {
                let int = &run[..last_dot];
                (int.matches('.').count() == 0 && groups_of_3(int, ',')).then_some(Locale::C)
            }
        }
    }
}

/// How many numbers that read one way only decide a report's locale ([`detect_locale`]).
pub const LOCALE_VOTES: usize = 1000;

/// Tells the locale of a report from its own numbers: each number that can be read one way only
/// is a vote (`1.140,38`, `60,09` for a decimal comma; `1,140.38`, `60.09` for the C locale).
/// A decimal comma needs at least 10 votes and 9 in 10 of them, so a C report with a few odd
/// cells (`3,5` in a free-text column) stays C. The first [`LOCALE_VOTES`] votes decide.
pub fn detect_locale(text: &str) -> Locale {
    let (mut c, mut comma) = (0usize, 0usize);
    for (a, b) in number_runs(text) {
        match run_says(&text[a..b]) {
            Some(Locale::C) => c += 1,
            Some(Locale::DecimalComma) => comma += 1,
            None => {}
        }
        // The first 1,000 votes decide (a report prints thousands of numbers: scanning them all
        // cost more than parsing the report), and the scan stops as soon as the votes still to
        // come cannot change the answer: a C report stops at its 101st C vote.
        let left = LOCALE_VOTES - (c + comma);
        if !could_be_decimal_comma(c, comma + left) || could_be_decimal_comma(c + left, comma) {
            break;
        }
    }
    if could_be_decimal_comma(c, comma) {
        Locale::DecimalComma
    } else {
        Locale::C
    }
}

/// The decision rule of [`detect_locale`]: at least 10 decimal-comma votes and 9 in 10 of all.
fn could_be_decimal_comma(c: usize, comma: usize) -> bool {
    comma >= 10 && comma >= 9 * c
}

/// `text` with every decimal-comma number printed as the C locale prints it (`1.140,38` →
/// `1,140.38`, `29.542` → `29,542`, `60,09` → `60.09`): `.` and `,` swap inside numbers, so
/// every column keeps its width and position (fixed-width text reports stay aligned). Runs that
/// are not decimal-comma numbers (`11.2.0.4.0`, `12.12.23`) are left as they are.
pub fn to_c_locale(text: &str) -> String {
    swap_separators(text, |run| {
        matches!(run_says(run), Some(Locale::DecimalComma) | None) && decimal_comma_number(run)
    })
}

/// `text` as a decimal-comma locale prints it: the inverse of [`to_c_locale`] for the numbers
/// the C locale prints (`4,111,819` → `4.111.819`, `1,140.38` → `1.140,38`, `60.09` → `60,09`);
/// runs that are no C number (`11.2.0.4.0`, `12.12.23`) stay as they are. For tests and
/// mutation runs that need a real report as an NLS `de_DE` database would print it.
pub fn to_decimal_comma(text: &str) -> String {
    swap_separators(text, c_number)
}

/// `text` with `.` and `,` swapped inside every number run that `swap` accepts (widths kept).
fn swap_separators(text: &str, swap: impl Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (a, b) in number_runs(text) {
        let run = &text[a..b];
        if swap(run) {
            out.push_str(&text[last..a]);
            out.extend(run.chars().map(|ch| match ch {
                '.' => ',',
                ',' => '.',
                other => other,
            }));
            last = b;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// `run` reads as a C-locale number: `ddd(,ddd)*(.d+)?` or `d+.d+`.
fn c_number(run: &str) -> bool {
    let swapped: String = run
        .chars()
        .map(|ch| match ch {
            '.' => ',',
            ',' => '.',
            other => other,
        })
        .collect();
    decimal_comma_number(&swapped)
}

/// `run` reads as a decimal-comma number: `ddd(.ddd)*(,d+)?` or `d+,d+`.
fn decimal_comma_number(run: &str) -> bool {
    let (int, frac) = match run.split_once(',') {
        Some((i, f)) => (i, Some(f)),
        None => (run, None),
    };
    let frac_ok = frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()));
    let mut groups = int.split('.');
    // `,1` (no leading zero) is a fraction alone: an empty integer part with no groups.
    let bare_fraction = int.is_empty() && frac.is_some();
    let first_ok = groups.next().is_some_and(|g| {
        bare_fraction
            || (!g.is_empty() && g.len() <= if int.contains('.') { 3 } else { usize::MAX })
    });
    frac_ok && first_ok && groups.all(|g| g.len() == 3 && g.bytes().all(|c| c.is_ascii_digit()))
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
        assert_eq!(
            number_in("-3", Scale::Decimal, Range::Signed { percent: false }),
            Ok(Some(-3.0))
        );
        assert!(number("#########", Scale::Decimal).is_err());
        assert!(number("abc", Scale::Decimal).is_err());
        assert!(number("12Q", Scale::Decimal).is_err());
    }

    /// The issue-14 cells: each reads as a number to `str::parse`/nom, none is a value.
    #[test]
    fn non_finite_negative_and_huge_cells_are_not_values() {
        for cell in [
            "NaN", "nan", "inf", "-inf", "Infinity", "1e308", "1e309", "-1", "-0.5",
        ] {
            let e = number(cell, Scale::Decimal).unwrap_err();
            assert!(e.contains(&format!("'{cell}'")), "{cell}: {e}");
            assert!(duration_ms(cell, 1.0).is_err(), "{cell}");
        }
        assert!(number("NaN", Scale::Decimal)
            .unwrap_err()
            .contains("not a finite number"));
        assert!(number("-1", Scale::Decimal)
            .unwrap_err()
            .contains("negative"));
        assert!(number("1e308", Scale::Decimal)
            .unwrap_err()
            .contains("out of range"));
        // 10^18 is the largest value; 1.1 × 10^18 is not, nor is 2,000P (2 × 10^18).
        assert_eq!(number("1e18", Scale::Decimal), Ok(Some(1e18)));
        assert!(number("1.1e18", Scale::Decimal).is_err());
        assert!(number("2,000P", Scale::Decimal).is_err());
        // `-0` is 0 and `-` is blank.
        assert_eq!(number("-0", Scale::Decimal), Ok(Some(0.0)));
        assert_eq!(number("-", Scale::Decimal), Ok(None));
        // Percentages: 0 to 100; a signed one may be negative but not above 100.
        assert_eq!(
            number_in("100.00", Scale::Decimal, Range::Percent),
            Ok(Some(100.0))
        );
        assert!(number_in("100.01", Scale::Decimal, Range::Percent).is_err());
        assert!(number_in("-0.01", Scale::Decimal, Range::Percent).is_err());
        let signed_pct = Range::Signed { percent: true };
        assert_eq!(
            number_in("-25.3", Scale::Decimal, signed_pct),
            Ok(Some(-25.3))
        );
        assert!(number_in("104.2", Scale::Decimal, signed_pct).is_err());
        assert!(number_in("NaN", Scale::Decimal, signed_pct).is_err());
        assert!(value(f64::NAN, "x", Range::Signed { percent: false }).is_err());
    }

    /// sadf -d and PowerCLI cells (one reader for both since issue 14).
    #[test]
    fn point_or_comma_cells() {
        assert_eq!(point_or_comma("0.36"), Ok(Some(0.36)));
        assert_eq!(point_or_comma(" 13,89 "), Ok(Some(13.89)));
        assert_eq!(point_or_comma(""), Ok(None));
        assert!(point_or_comma("-nan").unwrap().unwrap().is_nan());
        assert_eq!(point_or_comma("inf"), Ok(Some(f64::INFINITY)));
        assert!(point_or_comma("1,234.5").is_err());
        assert!(point_or_comma("1,2,3").is_err());
        assert!(point_or_comma("12K").is_err());
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
    fn decimal_comma_reports_are_told_and_read_as_c() {
        // Evidence: one reading only.
        assert_eq!(run_says("1.140,38"), Some(Locale::DecimalComma));
        assert_eq!(run_says("60,09"), Some(Locale::DecimalComma));
        assert_eq!(run_says("4.111.819"), Some(Locale::DecimalComma));
        assert_eq!(run_says("1,140.38"), Some(Locale::C));
        assert_eq!(run_says("60.09"), Some(Locale::C));
        assert_eq!(run_says("4,111,819"), Some(Locale::C));
        // Either reading, or neither.
        assert_eq!(run_says("29.542"), None);
        assert_eq!(run_says("1,140"), None);
        assert_eq!(run_says("11.2.0.4.0"), None);
        assert_eq!(run_says("12.12.23"), None);
        // The swap keeps widths: `1.140,38` is 8 characters before and after.
        let de = "Elapsed: 60,09 (mins) | 4.111.819 | 1.140,38 | 29.542 | 11.2.0.4.0 | 1.5em";
        assert_eq!(
            to_c_locale(de),
            "Elapsed: 60.09 (mins) | 4,111,819 | 1,140.38 | 29,542 | 11.2.0.4.0 | 1.5em"
        );
        assert_eq!(
            number(&to_c_locale("1.140,38"), Scale::Decimal),
            Ok(Some(1140.38))
        );
        assert_eq!(
            number(&to_c_locale("29.542"), Scale::Decimal),
            Ok(Some(29542.0))
        );
        assert_eq!(to_c_locale("2.144,8K"), "2,144.8K");
        // And back: the C text as a decimal-comma locale prints it, and round trip.
        let c = "Elapsed: 60.09 (mins) | 4,111,819 | 1,140.38 | 29,542 | 11.2.0.4.0 | 1.5em";
        assert_eq!(
            to_decimal_comma(c),
            "Elapsed: 60,09 (mins) | 4.111.819 | 1.140,38 | 29.542 | 11.2.0.4.0 | 1.5em"
        );
        assert_eq!(to_c_locale(&to_decimal_comma(c)), c);
        // A fraction without a leading zero, as Oracle prints it (`.1`; `,1` with a decimal
        // comma) is a fraction, never the whole number 1 (a histogram row `1,1 | ,1 | 4,2`
        // read its `,1` as 1 %).
        assert_eq!(run_says(",1"), Some(Locale::DecimalComma));
        assert_eq!(run_says(".1"), Some(Locale::C));
        assert_eq!(run_says(",123"), Some(Locale::DecimalComma));
        let de = "<td>,1</td><td>58,8</td> (,98) x,5 1,,2";
        assert_eq!(to_c_locale(de), "<td>.1</td><td>58.8</td> (.98) x,5 1,,2");
        assert_eq!(to_decimal_comma("<td>.1</td> .98ms"), "<td>,1</td> .98ms");
        assert_eq!(number(&to_c_locale(",1"), Scale::Decimal), Ok(Some(0.1)));
        // 10 votes, all for the comma.
        let many = "1.140,38 ".repeat(10);
        assert_eq!(detect_locale(&many), Locale::DecimalComma);
        assert_eq!(detect_locale(&"1,140.38 ".repeat(10)), Locale::C);
        // A C report with a few decimal-comma-looking cells stays C.
        let mixed = format!("{}{}", "1,140.38 ".repeat(5), "3,5 ".repeat(10));
        assert_eq!(detect_locale(&mixed), Locale::C);
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
        fn early_exit_decides_as_the_first_1000_votes_do(
            votes in (0.8f64..=1.0).prop_flat_map(|p| proptest::collection::vec(
                prop_oneof![1 => Just(2u8), 4 => proptest::bool::weighted(p).prop_map(u8::from)],
                0..2500,
            )),
        ) {
            // Runs voting C (`60.09`, 0), decimal comma (`60,09`, 1) or neither (`12`, 2), with
            // 80 % to 100 % of the votes for the comma (around the 9-in-10 boundary) and any
            // count around LOCALE_VOTES: the early exit must give the answer that counting
            // the first 1,000 votes gives.
            let text: String = votes
                .iter()
                .map(|v| ["60.09 ", "60,09 ", "12 "][usize::from(*v)])
                .collect();
            let (mut c, mut comma) = (0usize, 0usize);
            for v in votes.iter().filter(|v| **v < 2).take(LOCALE_VOTES) {
                if *v == 0 { c += 1 } else { comma += 1 }
            }
            let expected = if comma >= 10 && comma >= 9 * c {
                Locale::DecimalComma
            } else {
                Locale::C
            };
            prop_assert_eq!(detect_locale(&text), expected);
        }

        #[test]
        fn any_cell_is_a_number_unknown_or_an_error_never_a_panic(s in "\\PC{0,12}") {
            // Whatever the cell, what comes back as a value is finite, not negative and at
            // most 10^18.
            for v in [number(&s, Scale::Binary), duration_ms(&s, 1.0)].into_iter().flatten().flatten() {
                prop_assert!(v.is_finite() && (0.0..=MAX_VALUE).contains(&v), "{s:?} → {v}");
            }
            let _ = awr_datetime(&s);
        }
    }
}
