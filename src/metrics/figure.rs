//! [`Figure`]: one figure of a report or interval, with its unit, its provenance and, when
//! unknown, why; how a figure finer than the printed cells says what it was computed from
//! ([`Derivation`]); and the rounding every figure goes through.
//!
//! A fleet run holds one set of figures per report until it renders, so a figure is kept small:
//! the parts only some figures have are boxed ([`FigureNotes`]) and the provenance text is one
//! shared copy per text ([`super::text::shared`]).

use serde::Serialize;

use super::text;

/// One figure with its unit and provenance.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// Value, rounded to `decimals`; `None` = unknown.
    pub value: Option<f64>,
    /// The value before rounding, for computations (statistics over intervals, sizing), so that
    /// derived figures are not built from rounded ones. Not serialized.
    #[serde(skip)]
    pub exact: Option<f64>,
    /// Unit: `IOPS`, `MB/s` (10^6 bytes/s), `KiB`, `%`, `ms`, `min`.
    pub unit: &'static str,
    /// Decimals the value is given to (the report's printed precision for AWR rates).
    pub decimals: u32,
    /// Where it came from: statistic names and formula (one shared copy per text,
    /// [`text::shared`]).
    pub from: std::sync::Arc<str>,
    /// What only some figures have (the printed text, why it is unknown, its wait event,
    /// its bounds), boxed so that a figure without any costs one pointer: a fleet run holds
    /// about 35 figures per report. Serialized in place, as if its fields were the figure's.
    #[serde(flatten)]
    pub notes: Option<Box<FigureNotes>>,
}

/// The parts of a [`Figure`] that only some figures have (see [`Figure::notes`]); every field is
/// left out of the JSON when `None`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FigureNotes {
    /// The value as the report printed it, where it was converted (`152.25us`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub printed: Option<Box<str>>,
    /// Why the value is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown_reason: Option<Box<str>>,
    /// Wait figures only: the wait event the average is of (verbatim; on Exadata the cell
    /// event standing for a `db file …` event).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Box<str>>,
    /// Wait figures only: the waits the average rests on (`Waits` of the row used).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waits: Option<f64>,
    /// Where the report printed this figure coarser than its totals give it: the figure as
    /// computed from the printed cells (`per Second` rates, average waits), beside `value`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_printed: Option<f64>,
    /// How `value` was computed from totals instead of the coarser printed cells, and its
    /// bounds; `None` = from the printed cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub derived: Option<Derivation>,
}

impl Figure {
    /// The value as the report printed it, where it was converted.
    pub fn printed(&self) -> Option<&str> {
        self.notes.as_ref()?.printed.as_deref()
    }

    /// Why the value is unknown (`None` when it is known).
    pub fn unknown_reason(&self) -> Option<&str> {
        self.notes.as_ref()?.unknown_reason.as_deref()
    }

    /// Wait figures: the wait event the average is of.
    pub fn event(&self) -> Option<&str> {
        self.notes.as_ref()?.event.as_deref()
    }

    /// Wait figures: the waits the average rests on.
    pub fn waits(&self) -> Option<f64> {
        self.notes.as_ref()?.waits
    }

    /// The figure as computed from the coarser printed cells, where `value` is finer.
    pub fn as_printed(&self) -> Option<f64> {
        self.notes.as_ref()?.as_printed
    }

    /// How `value` was computed from totals, and its bounds; `None` = from the printed cells.
    pub fn derived(&self) -> Option<&Derivation> {
        self.notes.as_ref()?.derived.as_ref()
    }

    /// The notes, created empty if the figure has none.
    pub(crate) fn notes_mut(&mut self) -> &mut FigureNotes {
        self.notes.get_or_insert_with(Box::default)
    }
}

/// A figure computed from a report's totals because the printed cell is coarser
/// (`model::wait_average`, `model::activity_rate`), with the bounds the printed precision of
/// its inputs leaves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Derivation {
    /// What it was computed from.
    pub basis: DerivedFrom,
    /// The true value lies in `[lo, hi]` (the figure's unit).
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Known only as an upper bound (a total printed as 0): `value` is `hi`, rounded up.
    pub at_most: bool,
    /// Decimals of the printed cells it replaces (`per Second`: 1 in text reports; average
    /// wait, in ms: 0 for a whole-ms `2`).
    pub printed_decimals: u32,
}

/// The totals a [`Derivation`] divides.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DerivedFrom {
    /// Instance Activity `Total` / (`Elapsed:` minutes × 60), bounded by half a unit of the
    /// printed minutes.
    TotalOverElapsed {
        /// `Elapsed:` as printed, minutes (`None` for a sum of instance reports).
        elapsed_min: Option<f64>,
        /// Its printed decimals.
        elapsed_decimals: Option<u32>,
    },
    /// Not from a total: the printed average is 0 (`0`, `.00`), so it is at most half a unit
    /// of its last digit (`0` ms: under 0.5 ms), and `Total Wait Time` is not finer.
    PrintedZero,
    /// `Total Wait Time (s)` × 1000 / `Waits`, bounded by half a unit of the printed total.
    TotalWaitTimeOverWaits {
        /// Total wait time, seconds, as printed (a sum for a RAC sum).
        total_wait_s: f64,
        /// Half a unit of its last printed digit, seconds (0.5 for whole seconds).
        total_wait_half_s: f64,
        /// The waits.
        waits: f64,
    },
}

/// The bounds of a wait figure recomputed as Total Wait Time / Waits, for the IO report card.
pub fn average_bounds(f: &Figure) -> Option<crate::rules::AverageBounds> {
    let d = f.derived()?;
    match d.basis {
        DerivedFrom::TotalWaitTimeOverWaits {
            total_wait_s,
            total_wait_half_s,
            ..
        } => Some(crate::rules::AverageBounds {
            lo_ms: d.lo,
            hi_ms: d.hi,
            at_most: d.at_most,
            total_wait_s: Some((total_wait_s, total_wait_half_s)),
        }),
        DerivedFrom::PrintedZero => Some(crate::rules::AverageBounds {
            lo_ms: d.lo,
            hi_ms: d.hi,
            at_most: true,
            total_wait_s: None,
        }),
        DerivedFrom::TotalOverElapsed { .. } => None,
    }
}

/// Decimals to give a value known to ± `hw`: up to and including the first uncertain digit
/// (10^-d ≤ hw), at most `cap`.
pub fn derived_decimals(hw: f64, cap: u32) -> u32 {
    if hw.is_nan() || hw <= 0.0 || !hw.is_finite() {
        return cap;
    }
    let d = (1.0 / hw).log10().ceil();
    if d <= 0.0 {
        0
    } else {
        (d as u32).min(cap)
    }
}

impl Figure {
    /// Replaces the printed-cell value by the finer one from totals: `lo`/`hi` its bounds,
    /// `as_printed` the figure from the printed cells (`printed_decimals` decimals). Unknown
    /// figures are left alone.
    pub(crate) fn finer(
        mut self,
        lo: f64,
        hi: f64,
        as_printed: Option<f64>,
        printed_decimals: u32,
        basis: DerivedFrom,
    ) -> Figure {
        let Some(exact) = self.exact else {
            return self;
        };
        let at_most = lo <= 0.0 && hi > 0.0 && exact >= hi;
        let d = if matches!(basis, DerivedFrom::PrintedZero) {
            // Under half a unit of the printed last digit: one digit more (`0` → ≤ 0.5).
            printed_decimals + 1
        } else if at_most {
            // An upper bound keeps one more digit than its first, rounded up.
            derived_decimals(hi / 2.0, 6).saturating_add(1).min(6)
        } else {
            derived_decimals((hi - lo) / 2.0, 6)
        };
        let d = d.min(if matches!(basis, DerivedFrom::TotalOverElapsed { .. }) {
            crate::model::HTML_RATE_DECIMALS
        } else {
            6
        });
        let d = d.max(printed_decimals);
        self.decimals = d;
        self.value = Some(if at_most {
            let m = 10f64.powi(d as i32);
            (hi * m - 1e-9).ceil() / m
        } else {
            round(exact, d)
        });
        let notes = self.notes_mut();
        notes.as_printed = as_printed.map(|p| round(p, printed_decimals));
        notes.derived = Some(Derivation {
            basis,
            lo,
            hi,
            at_most,
            printed_decimals,
        });
        self
    }
}

/// A figure's value, or why it is unknown: not an error but the `unknown_reason` shown in the
/// report and the JSON (a missing statistic, a zero denominator).
pub(crate) type ValueOrWhy = Result<f64, String>;

/// `v` rounded to `d` decimals (`d` < 0: tens, hundreds, …).
pub(crate) fn round_signed(v: f64, d: i32) -> f64 {
    let m = 10f64.powi(d);
    (v * m).round() / m
}

fn round(v: f64, d: u32) -> f64 {
    let m = 10f64.powi(d as i32);
    (v * m).round() / m
}

impl Figure {
    pub(crate) fn known(
        v: f64,
        unit: &'static str,
        decimals: u32,
        from: impl AsRef<str>,
    ) -> Figure {
        Figure {
            value: Some(round(v, decimals)),
            exact: Some(v),
            unit,
            decimals,
            from: text::shared(from.as_ref()),
            notes: None,
        }
    }
    pub(crate) fn unknown(
        unit: &'static str,
        decimals: u32,
        from: impl AsRef<str>,
        why: String,
    ) -> Figure {
        Figure {
            value: None,
            exact: None,
            unit,
            decimals,
            from: text::shared(from.as_ref()),
            notes: Some(Box::new(FigureNotes {
                unknown_reason: Some(why.into()),
                ..FigureNotes::default()
            })),
        }
    }
    pub(crate) fn of(
        v: ValueOrWhy,
        unit: &'static str,
        decimals: u32,
        from: impl AsRef<str>,
    ) -> Figure {
        match v {
            Ok(v) => Figure::known(v, unit, decimals, from),
            Err(why) => Figure::unknown(unit, decimals, from, why),
        }
    }
}
