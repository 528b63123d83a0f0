//! Words for figures computed from a report's totals because the printed cell is coarser
//! ([`crate::metrics::Derivation`]) and for the bounds an IO report card grade rests on.

use std::fmt::{self, Display, Formatter};

use crate::metrics::{derived_decimals, DerivedFrom, Figure};
use crate::report::fmt::{fmt_num, fmt_trim};
use crate::rules::AverageBounds;

/// How a figure was derived, for its `From` cell: empty when it is the printed one.
pub(crate) struct Derived<'a>(pub(crate) &'a Figure);

/// `x` to one significant digit, rounded up (a half-width stays a bound): `0.00003`.
fn one_digit(x: f64) -> String {
    if x.is_nan() || x <= 0.0 || !x.is_finite() {
        return "0".into();
    }
    let e = x.log10().floor() as i32;
    let m = 10f64.powi(-e);
    let v = (x * m - 1e-9).ceil() / m;
    fmt_num(v, (-e).max(0) as usize)
}

/// `1 s` / `0.1 s`: the unit of a total's last printed digit, from half of it.
fn printed_to(half: f64) -> String {
    fmt_trim(2.0 * half)
}

impl Display for Derived<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let m = self.0;
        let Some(d) = m.derived() else {
            return Ok(());
        };
        let b = (m.decimals + 1) as usize; // bounds: one digit more than the value
        let printed = m.printed().map(str::to_string).or_else(|| {
            m.as_printed()
                .map(|p| fmt_num(p, d.printed_decimals as usize))
        });
        match &d.basis {
            DerivedFrom::TotalOverElapsed {
                elapsed_min,
                elapsed_decimals,
            } => {
                write!(f, "recomputed as Total / elapsed seconds")?;
                if let Some(p) = &printed {
                    write!(f, ", finer than the printed per Second ({p})")?;
                }
                match (elapsed_min, elapsed_decimals) {
                    (Some(e), Some(ed)) => {
                        let half_s = 0.5 * 10f64.powi(-(*ed as i32)) * 60.0;
                        write!(
                            f,
                            ": Elapsed {} min is printed to {} min (± {} s), so ± {}",
                            fmt_num(*e, *ed as usize),
                            fmt_trim(10f64.powi(-(*ed as i32))),
                            fmt_trim((half_s * 1000.0).round() / 1000.0),
                            one_digit((d.hi - d.lo) / 2.0)
                        )
                    }
                    _ => write!(
                        f,
                        " of each instance report, so ± {}",
                        one_digit((d.hi - d.lo) / 2.0)
                    ),
                }
            }
            DerivedFrom::PrintedZero => write!(
                f,
                "the printed 0 is a rounding: the average is under {} ms (the total wait time is not finer)",
                fmt_trim(d.hi)
            ),
            DerivedFrom::TotalWaitTimeOverWaits {
                total_wait_s,
                total_wait_half_s,
                waits,
            } => {
                write!(f, "recomputed as Total Wait Time / Waits")?;
                if let Some(p) = &printed {
                    write!(f, ", finer than the printed average ({p})")?;
                }
                if d.at_most {
                    write!(
                        f,
                        ": Total Wait Time printed 0 s (to {} s: under {} s) over {} waits, so at most {} ms: a bound, not a measured average",
                        printed_to(*total_wait_half_s),
                        fmt_trim(*total_wait_half_s),
                        fmt_num(*waits, 0),
                        fmt_num(m.value.unwrap_or(d.hi), m.decimals as usize)
                    )
                } else {
                    write!(
                        f,
                        ": {} s (printed to {} s, ± {} s) over {} waits, so {} to {} ms",
                        fmt_trim(*total_wait_s),
                        printed_to(*total_wait_half_s),
                        fmt_trim(*total_wait_half_s),
                        fmt_num(*waits, 0),
                        fmt_num(d.lo, b),
                        fmt_num(d.hi, b)
                    )
                }
            }
        }
    }
}

/// The `From` cell of a figure: its provenance, then how it was derived from totals.
pub(crate) fn from_cell(m: &Figure) -> String {
    if m.derived().is_some() {
        format!("{}, {}", m.from, Derived(m))
    } else {
        m.from.to_string()
    }
}

/// An upper bound shown to `d` decimals, rounded up so that it stays a bound.
pub(crate) fn at_most_text(v: f64, d: usize) -> String {
    let m = 10f64.powi(d as i32);
    format!("≤ {}", fmt_num((v * m - 1e-9).ceil() / m, d))
}

/// The value cell of a figure: `≤ 0.062` for an average known only as a bound.
pub(crate) fn value_cell(m: &Figure) -> String {
    match (m.value, m.derived()) {
        (Some(v), Some(d)) if d.at_most => at_most_text(v, m.decimals as usize),
        (Some(v), _) => fmt_num(v, m.decimals as usize),
        (None, _) => "unknown".to_string(),
    }
}

/// The clause a report-card grade adds for an average known only between bounds; `graded`
/// when the grade rests on them (no histogram p95).
pub(crate) struct BoundsClause<'a>(pub(crate) &'a AverageBounds, pub(crate) bool);

impl Display for BoundsClause<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (b, graded) = (self.0, self.1);
        // Graded on the p95 and known between close bounds: the Latency table has them.
        if !graded && !b.at_most {
            return Ok(());
        }
        // One digit more than the average's own.
        let d = (derived_decimals((b.hi_ms - b.lo_ms) / 2.0, 6) + 1) as usize;
        if b.at_most {
            match b.total_wait_s {
                Some((_, half)) => write!(
                    f,
                    "; Total Wait Time printed 0 s (under {} s): the average is at most {} ms",
                    fmt_trim(half),
                    at_most_text(b.hi_ms, 3).trim_start_matches("≤ ")
                )?,
                None => write!(
                    f,
                    "; the average printed as 0 is under {} ms",
                    fmt_trim(b.hi_ms)
                )?,
            }
            if graded {
                f.write_str(", graded from 0 to that bound (its letters span both)")?;
            }
        } else {
            let (t, half) = b.total_wait_s.unwrap_or((0.0, 0.0));
            write!(
                f,
                "; Total Wait Time {} s ± {} s puts the average between {} and {} ms",
                fmt_trim(t),
                fmt_trim(half),
                fmt_num(b.lo_ms, d),
                fmt_num(b.hi_ms, d)
            )?;
            if graded {
                f.write_str(", graded on both ends")?;
            }
        }
        Ok(())
    }
}
