//! The normalisation plan of a header: which printed column feeds which `Normalised` field.
//!
//! Flow: each column is asked of `sysstat_normalise` itself, one at a time, when the header is
//! first seen; the plan is checked on probe rows, and a header whose plan does not match is
//! normalised sample by sample instead.

use super::*;

// ---------------------------------------------------------------------------------------------
// Normalisation plan
// ---------------------------------------------------------------------------------------------

/// Number of [`Normalised`] fields.
pub(super) const FIELDS: usize = Normalised::FIELDS;
pub(super) const F_READ_IOPS: usize = 0;
pub(super) const F_WRITE_IOPS: usize = 1;
pub(super) const F_DISCARD_IOPS: usize = 2;
pub(super) const F_TOTAL_IOPS: usize = 3;
pub(super) const F_AVG_REQUEST: usize = 12;
pub(super) const F_READ_REQUEST: usize = 13;
pub(super) const F_WRITE_REQUEST: usize = 14;

pub(super) fn fields(n: &Normalised) -> [Option<f64>; FIELDS] {
    n.to_fields()
}

pub(super) fn from_fields(f: [Option<f64>; FIELDS]) -> Normalised {
    Normalised::from_fields(f)
}

/// Whether [`sysstat_normalise`] counts flushes (`f/s`) in the total IOPS it derives from `r/s +
/// w/s (+ d/s)`; asked once.
pub(super) fn flush_in_total() -> bool {
    static FLUSH: OnceLock<bool> = OnceLock::new();
    *FLUSH.get_or_init(|| {
        let probe =
            [("r/s", 1.0), ("w/s", 2.0), ("f/s", 4.0)].map(|(c, v)| (c.to_string(), Some(v)));
        sysstat_normalise(&probe).total_iops == Some(7.0)
    })
}

/// Which column (and factor) feeds each [`Normalised`] field for one header, found by asking
/// [`sysstat_normalise`] itself (one column at a time), then checked against it on probe rows.
#[derive(Debug, Clone)]
pub(super) struct Plan {
    /// Per field: the column and the factor of a field read from one column.
    pub(super) src: [Option<(usize, f64)>; FIELDS],
    /// `Some(column of f/s, if printed)` when the derived total IOPS counts flushes.
    pub(super) flush: Option<Option<usize>>,
}

impl Plan {
    /// The plan for a header, or `None` when it does not give exactly what
    /// [`sysstat_normalise`] gives on the probe rows.
    ///
    /// Linear in the width of the header: [`sysstat_normalise`] reads a column only by one of
    /// the names [`crate::disk::sysstat_known`] lists, and only the first column of a name, so
    /// the plan is built and checked on those columns alone ([`known_columns`]: at most one per
    /// known name, a few dozen whatever the header) and mapped back to the printed positions. A
    /// 100,000-column header costs one pass over its names more than a 10-column one
    /// (it was quadratic: each probe row normalised every column; issue 14).
    pub(super) fn build(columns: &[String]) -> Option<Plan> {
        let known = known_columns(columns);
        let names: Vec<String> = known.iter().map(|&i| columns[i].clone()).collect();
        let mut plan = Plan::build_on(&names)?;
        for (i, _) in plan.src.iter_mut().flatten() {
            *i = known[*i];
        }
        if let Some(Some(i)) = plan.flush.as_mut() {
            *i = known[*i];
        }
        Some(plan)
    }

    /// [`Plan::build`] on columns that are all distinct known names (quadratic in their count,
    /// which is bounded by the alias tables).
    fn build_on(columns: &[String]) -> Option<Plan> {
        let n = columns.len();
        let mut probe: Vec<(String, Option<f64>)> =
            columns.iter().map(|c| (c.clone(), None)).collect();
        let mut plan = Plan {
            src: [None; FIELDS],
            flush: flush_in_total().then(|| columns.iter().position(|c| c == "f/s")),
        };
        for i in 0..n {
            probe[i].1 = Some(1.0);
            let out = fields(&normalise_counted(&probe));
            probe[i].1 = None;
            for (f, v) in out.iter().enumerate() {
                if let Some(factor) = v {
                    if plan.src[f].is_some() {
                        return None;
                    }
                    plan.src[f] = Some((i, *factor));
                }
            }
        }
        // Probe rows: all printed, none printed, every k-th (or all but every k-th) missing,
        // all zero, and each column missing alone.
        let mut vals = vec![None; n];
        let value = |j: usize| Some(0.75 + j as f64 * 1.375);
        let mut patterns: Vec<Box<dyn Fn(usize) -> Option<f64>>> =
            vec![Box::new(value), Box::new(|_| None), Box::new(|_| Some(0.0))];
        for k in 2..=4 {
            patterns.push(Box::new(move |j| (j % k != 0).then(|| value(j)).flatten()));
            patterns.push(Box::new(move |j| (j % k == 0).then(|| value(j)).flatten()));
        }
        for miss in 0..n {
            patterns.push(Box::new(move |j| (j != miss).then(|| value(j)).flatten()));
        }
        for p in &patterns {
            for j in 0..n {
                vals[j] = p(j);
                probe[j].1 = vals[j];
            }
            if plan.eval(&vals) != normalise_counted(&probe) {
                return None;
            }
        }
        Some(plan)
    }

    /// Columns the plan reads.
    pub(super) fn used(&self, n: usize) -> Vec<bool> {
        let mut used = vec![false; n];
        for (i, _) in self.src.iter().flatten() {
            used[*i] = true;
        }
        if let Some(Some(i)) = self.flush {
            used[i] = true;
        }
        used
    }

    /// The normalised values of one sample, `vals` by column: what [`sysstat_normalise`] gives
    /// on the same columns.
    #[inline]
    pub(super) fn eval(&self, vals: &[Option<f64>]) -> Normalised {
        let mut out = [None; FIELDS];
        for (o, s) in out.iter_mut().zip(&self.src) {
            if let Some((i, f)) = *s {
                *o = vals[i].map(|x| if f == 1.0 { x } else { x * f });
            }
        }
        let (r, w, d) = (out[F_READ_IOPS], out[F_WRITE_IOPS], out[F_DISCARD_IOPS]);
        if out[F_TOTAL_IOPS].is_none() {
            if let (Some(r), Some(w)) = (r, w) {
                out[F_TOTAL_IOPS] = Some(match self.flush {
                    Some(f) => r + w + d.unwrap_or(0.0) + f.and_then(|i| vals[i]).unwrap_or(0.0),
                    None => r + w + d.unwrap_or(0.0),
                });
            }
        }
        if out[F_AVG_REQUEST].is_none() {
            if let (Some(r), Some(w), Some(rb), Some(wb)) =
                (r, w, out[F_READ_REQUEST], out[F_WRITE_REQUEST])
            {
                if r + w > 0.0 {
                    out[F_AVG_REQUEST] = Some((r * rb + w * wb) / (r + w));
                }
            }
        }
        from_fields(out)
    }
}

/// The positions of the columns [`sysstat_normalise`] can read: the first column of each name
/// [`crate::disk::sysstat_known`] lists, in printed order (a later column of the same name is
/// never looked up). One pass over the header.
pub(super) fn known_columns(columns: &[String]) -> Vec<usize> {
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    (0..columns.len())
        .filter(|&i| crate::disk::sysstat_known(&columns[i]) && seen.insert(&columns[i]))
        .collect()
}

#[cfg(test)]
thread_local! {
    /// Column cells [`Plan::build`] has handed to [`sysstat_normalise`] on this thread (tests
    /// count the work of a header with it, without timing).
    pub(super) static NORMALISED_CELLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// [`sysstat_normalise`], counted in tests ([`NORMALISED_CELLS`]).
fn normalise_counted(probe: &[(String, Option<f64>)]) -> Normalised {
    #[cfg(test)]
    NORMALISED_CELLS.with(|c| c.set(c.get() + probe.len()));
    sysstat_normalise(probe)
}

impl Layout {
    pub(super) fn new(key: &str, columns: Vec<String>, device_last: bool) -> Layout {
        let plan = Plan::build(&columns);
        let used = match &plan {
            Some(p) => p.used(columns.len()),
            None => vec![true; columns.len()],
        };
        Layout {
            key: key.to_string(),
            names: columns.iter().cloned().collect(),
            columns,
            device_last,
            plan,
            used,
        }
    }
}

/// One value cell (see [`crate::disk::sysstat_cell`]).
pub(super) fn cell(tok: &str, column: &str, comma: bool) -> Result<Option<f64>, String> {
    crate::disk::sysstat_cell(tok, column, comma)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells normalised while building the plan of `columns`.
    fn cost(columns: &[String]) -> (Option<Plan>, usize) {
        NORMALISED_CELLS.with(|c| c.set(0));
        let plan = Plan::build(columns);
        (plan, NORMALISED_CELLS.with(|c| c.get()))
    }

    /// Issue 14: a 100,000-column header costs what a 10-column one does (the plan's work is
    /// counted, not timed): the unknown columns are never probed, and the plan is the same one,
    /// at the printed positions.
    #[test]
    fn a_wide_header_costs_what_a_narrow_one_does() {
        let narrow: Vec<String> =
            "r/s w/s rkB/s wkB/s r_await w_await aqu-sz rareq-sz wareq-sz %util"
                .split(' ')
                .map(str::to_string)
                .collect();
        let (p10, c10) = cost(&narrow);
        let p10 = p10.expect("a plan for the 12.x -x columns");
        let mut wide: Vec<String> = (0..100_000).map(|i| format!("x{i}")).collect();
        // The known names spread over the header, and a second `r/s` (never read).
        for (k, c) in narrow.iter().enumerate() {
            wide[k * 9_000 + 5] = c.clone();
        }
        wide[99_999] = "r/s".into();
        let (p, c) = cost(&wide);
        let p = p.expect("a plan for the wide header");
        assert_eq!(c, c10, "cells normalised: 100,000 columns against 10");
        // Each field reads the same column, moved to where it is printed (k → k × 9,000 + 5).
        for (a, b) in p10.src.iter().zip(&p.src) {
            assert_eq!(a.map(|(i, f)| (i * 9_000 + 5, f)), *b);
        }
        // rkB/s is column 2 of 10 and column 18,005 of 100,000, × 1024 bytes.
        assert_eq!(p.src[4], Some((18_005, 1024.0)));
        // And the plan still gives what sysstat_normalise gives on a full row.
        let vals: Vec<Option<f64>> = (0..wide.len()).map(|j| Some(j as f64 + 0.5)).collect();
        let row: Vec<(String, Option<f64>)> =
            wide.iter().cloned().zip(vals.iter().copied()).collect();
        assert_eq!(p.eval(&vals), sysstat_normalise(&row));
    }
}
