//! The Wait Event Histogram tables, shared by the HTML and text parsers: column headers → bucket
//! edges, cells → percentages, rows → points of a cumulative distribution, and the merge of every
//! histogram table of a report into one [`WaitHistogram`] per event.
//!
//! # Layouts
//! | release | tables (title) | bucket columns |
//! |---|---|---|
//! | 10.2–12.1, Statspack | `Wait Event Histogram` | `<1ms <2ms <4ms <8ms <16ms <32ms <=1s >1s` |
//! | 11.2–12.1 | `Wait Event Histogram Detail (64 msec to 2 sec)`, `(4 sec to 2 min)`, `(4 min to 1 hr)` | `<32ms <64ms <1/8s <1/4s <1/2s <1s <2s >=2s`, `<2s … < 2m >=2m`, `<2m … < 1h >=1h` |
//! | 12.2+ | `Wait Event Histogram` | `<8us <16us … <512us >=512us` |
//! | 12.2+ | `Wait Event Histogram (up to 64 us)`, `(up to 32 ms)`, `(up to 2 sec)`, `(up to 2 min)`, `(up to 1 hr)` | `<1us … <64us >=64us`, `<512us <1ms … <32ms >=32ms`, then as the 11g Detail tables |
//! | 19c RAC global | `Wait Event Histogram (Global)` | `<1us <2us … <512ms <1s >=1s`; `0.0(6)`: below 0.05 %, 6 waits |
//!
//! In every table the first bucket column holds the share of waits below its edge and each next
//! `<X` column the share from the previous edge up to `X`; a last `>=X` (`>X`) column holds the
//! waits at or above the last edge. A row therefore adds up to 100 %, and its cells summed left
//! to right give the cumulative share below each edge. Text reports cut headers to the column
//! width (`<128u`, `>=512`, `>=32m`, `<512`): a cut unit is restored as the one that keeps the
//! edges ascending (an open `>=X` column repeats the last edge).
//!
//! # Units of the edges (ms)
//! The reports' legends define the units: `us` microseconds, `ms` milliseconds ("1024
//! microseconds (approximately 1 millisecond)" in the microsecond tables), `s` 1024 ms, `m`
//! 64 × 1024 ms, `h` 4096 × 1024 ms; and in the 11g table "`<=1s` is truly `<1024ms`". Oracle's
//! buckets are powers of two, so the edges here are: `us` = 0.001 ms, `ms` = 1 ms, `s` = 1024 ms,
//! `m` = 65,536 ms, `h` = 4,194,304 ms (`<1/8s` = 128 ms, `<1/4h` = 1,048,576 ms). The `ms`
//! edges of the microsecond tables are really 2.4 % longer (1 ms = 1,024 us); they are kept at
//! their printed value so that `<32ms` is one edge in the `(up to 32 ms)` and `(up to 2 sec)`
//! tables.
//!
//! # Precision
//! Cells are rounded to 0.1 (`.0`: above 0 and below 0.05; blank: truly 0). The cumulative
//! share below an edge is the sum of the row's cells up to it, except that an edge after which
//! every cell is blank has exactly 100 % below it. Each point carries its rounding bound (0.05
//! per printed cell summed; 0 for that exact 100 %). When several tables give the same edge,
//! the point with the smallest bound is kept (a later table's first column, printed directly,
//! wins over a sum of seven cells); points that differ by more than their two bounds together
//! add a warning. A row whose cells do not add up to 100 within their rounding is left out with
//! a warning (its columns were not read right).

use std::collections::HashMap;

use super::WaitHistogram;
use crate::num::{self, Scale};

const US: f64 = 0.001;
const MS: f64 = 1.0;
const S: f64 = 1024.0;
const MIN: f64 = 65_536.0;
const H: f64 = 4_194_304.0;

/// Rounding of one printed cell: AWR prints one decimal.
const HALF_UNIT: f64 = 0.05;

/// A bucket column of a histogram table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Bucket {
    /// `<X` / `<=X`: the waits from the previous edge (0 for the first column) up to `X` ms.
    Below(f64),
    /// `>=X` / `>X`: the waits at or above `X` ms (the open-ended bucket).
    Above(f64),
}

/// `<1/8s` → `(false, 0.125, "s")`; `None` when the header is not a bucket header.
fn split(header: &str) -> Option<Result<(bool, f64, String), String>> {
    let s: String = header.chars().filter(|c| !c.is_whitespace()).collect();
    let (above, rest) = if let Some(r) = s.strip_prefix(">=") {
        (true, r)
    } else if let Some(r) = s.strip_prefix('>') {
        (true, r)
    } else if let Some(r) = s.strip_prefix("<=") {
        (false, r)
    } else if let Some(r) = s.strip_prefix('<') {
        (false, r)
    } else {
        return None;
    };
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '/'))
        .unwrap_or(rest.len());
    let (n, unit) = rest.split_at(end);
    let value = match n.split_once('/') {
        Some((a, b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(a), Ok(b)) if b > 0.0 => Some(a / b),
            _ => None,
        },
        None => n.parse::<f64>().ok(),
    };
    Some(match value {
        Some(v) if v > 0.0 => Ok((above, v, unit.to_ascii_lowercase())),
        _ => Err(format!("column '{header}': no bucket limit")),
    })
}

/// The milliseconds per unit a header's unit can stand for, smallest first. `cut`: the header
/// fills its column in a text report, so its unit may be cut (`>=32m` for `>=32ms`).
fn units(unit: &str, cut: bool) -> Option<&'static [f64]> {
    Some(match unit {
        "us" | "\u{b5}s" | "u" => &[US],
        "ms" => &[MS],
        "s" | "sec" => &[S],
        "m" if cut => &[MS, MIN],
        "m" | "min" => &[MIN],
        "h" | "hr" => &[H],
        "" => &[US, MS, S, MIN, H],
        _ => return None,
    })
}

/// Edge in ms of `v` units of `per_unit` ms (microseconds by division, so that `512us` is the
/// same number as `0.512`).
fn edge(v: f64, per_unit: f64) -> f64 {
    if per_unit == US {
        v / 1000.0
    } else {
        v * per_unit
    }
}

fn same_edge(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// Reads the column headers of a histogram table: `(header, cut)` per column, `cut` telling that
/// the header fills its column in a text report. Gives, per column, its bucket or `None` for the
/// other columns (`Event`, `Total Waits`); an error when a bucket header cannot be read or the
/// edges do not ascend.
pub(crate) fn buckets(headers: &[(&str, bool)]) -> Result<Vec<Option<Bucket>>, String> {
    let mut out = Vec::with_capacity(headers.len());
    let mut prev: Option<f64> = None;
    let mut open = false;
    for &(h, cut) in headers {
        let Some(parsed) = split(h) else {
            out.push(None);
            continue;
        };
        let (above, v, unit) = parsed?;
        let per =
            units(&unit, cut).ok_or_else(|| format!("column '{h}': unknown unit '{unit}'"))?;
        if open {
            return Err(format!("column '{h}' after the open-ended column"));
        }
        let b = if above {
            let p = prev.ok_or_else(|| format!("column '{h}': open-ended column first"))?;
            per.iter()
                .map(|&u| edge(v, u))
                .find(|&e| same_edge(e, p))
                .map(Bucket::Above)
                .ok_or_else(|| format!("column '{h}' does not repeat the last limit ({p} ms)"))?
        } else {
            let e = per
                .iter()
                .map(|&u| edge(v, u))
                .find(|&e| prev.is_none_or(|p| e > p && !same_edge(e, p)))
                .ok_or_else(|| format!("column '{h}': limits do not ascend"))?;
            prev = Some(e);
            Bucket::Below(e)
        };
        open = matches!(b, Bucket::Above(_));
        out.push(Some(b));
    }
    Ok(out)
}

/// A percentage cell: `Ok(None)` when blank (truly 0), `Ok(Some(p))` when printed (`.0` is
/// below 0.05 and reads 0.0; `0.0(6)`, with a count of waits in parentheses, reads 0.0).
pub(crate) fn percent(cell: &str) -> Result<Option<f64>, String> {
    let mut s = cell.trim();
    if let Some((v, n)) = s.strip_suffix(')').and_then(|x| x.split_once('(')) {
        if !n.trim().chars().all(|c| c.is_ascii_digit() || c == ',') {
            return Err(format!("'{}' is not a percentage", cell.trim()));
        }
        s = v;
    }
    if s.chars().any(|c| c.is_alphabetic()) {
        return Err(format!("'{}' is not a percentage", cell.trim()));
    }
    match num::number(s, Scale::Decimal)? {
        None => Ok(None),
        Some(p) if (0.0..=100.0 + HALF_UNIT).contains(&p) => Ok(Some(p)),
        Some(_) => Err(format!("'{}' is not a percentage", cell.trim())),
    }
}

/// One point of a table row's cumulative distribution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Point {
    /// Edge, ms.
    pub edge: f64,
    /// Share of waits below the edge, percent.
    pub cum: f64,
    /// Largest error of `cum` from the rounding of the printed cells, percent.
    pub err: f64,
}

/// Rounds away the binary noise of summing one-decimal values.
fn tidy(x: f64) -> f64 {
    // `+ 0.0` turns the -0.0 of `100 - 100` into 0.0.
    ((x * 1000.0).round() / 1000.0).clamp(0.0, 100.0) + 0.0
}

/// The cumulative points of one row, given its cells aligned with `buckets`. An error when a
/// cell is not a percentage or the row does not add up to 100 within its rounding.
pub(crate) fn row_points(buckets: &[Option<Bucket>], cells: &[&str]) -> Result<Vec<Point>, String> {
    let mut vals: Vec<(Bucket, Option<f64>)> = Vec::new();
    for (i, b) in buckets.iter().enumerate() {
        if let Some(b) = b {
            let c = cells.get(i).copied().unwrap_or("");
            vals.push((*b, percent(c)?));
        }
    }
    let printed = vals.iter().filter(|v| v.1.is_some()).count();
    let total: f64 = vals.iter().filter_map(|v| v.1).sum();
    let allowed = HALF_UNIT * printed as f64 + 1e-6;
    if (total - 100.0).abs() > allowed {
        return Err(format!(
            "the shares add up to {total:.1} %, not 100 % (rounding allows ±{:.2})",
            allowed
        ));
    }
    let mut out = Vec::new();
    for (k, (b, _)) in vals.iter().enumerate() {
        let Bucket::Below(e) = *b else { continue };
        let (left, right) = vals.split_at(k + 1);
        let (cum, n) = if right.iter().all(|v| v.1.is_none()) {
            // Every later bucket is blank, truly 0: all waits are below this edge.
            (100.0, 0)
        } else {
            (
                left.iter().filter_map(|v| v.1).sum::<f64>(),
                left.iter().filter(|v| v.1.is_some()).count(),
            )
        };
        out.push(Point {
            edge: e,
            cum: tidy(cum),
            err: HALF_UNIT * n as f64,
        });
    }
    Ok(out)
}

struct Entry {
    name: String,
    total_waits: Option<f64>,
    /// (point, index in `Merge::tables` of the table it came from)
    points: Vec<(Point, usize)>,
    /// Tables (indexes in `Merge::tables`) that already gave a row for this event.
    rows_from: Vec<usize>,
}

/// Collects the rows of every histogram table of a report, then merges them per event.
#[derive(Default)]
pub(crate) struct Merge {
    events: Vec<Entry>,
    index: HashMap<String, usize>,
    /// Table names as given to [`Merge::add`], each once (rows refer to them by index).
    tables: Vec<String>,
}

impl Merge {
    /// Adds one row. `table` names the table for messages (`'Wait Event Histogram' (line 12)`,
    /// quoted section title and line) and tells
    /// tables apart; `total_waits` is kept from the first table that prints it. An error when the
    /// same table already gave a row for this event (the row is left out).
    pub fn add(
        &mut self,
        table: &str,
        event: &str,
        total_waits: Option<f64>,
        points: Vec<Point>,
    ) -> Result<(), String> {
        // Rows come table by table: the table is the last one seen, or a new one.
        let ti = match self.tables.last() {
            Some(t) if t == table => self.tables.len() - 1,
            _ => match self.tables.iter().position(|t| t == table) {
                Some(i) => i,
                None => {
                    self.tables.push(table.to_string());
                    self.tables.len() - 1
                }
            },
        };
        let i = match self.index.get(event) {
            Some(&i) => i,
            None => {
                self.events.push(Entry {
                    name: event.to_string(),
                    total_waits: None,
                    points: Vec::new(),
                    rows_from: Vec::new(),
                });
                self.index.insert(event.to_string(), self.events.len() - 1);
                self.events.len() - 1
            }
        };
        let e = &mut self.events[i];
        if e.rows_from.contains(&ti) {
            return Err(
                "a second row of this name in the table (text reports cut names to the column width, so two events can print alike); the first row is kept"
                    .into(),
            );
        }
        e.rows_from.push(ti);
        if e.total_waits.is_none() {
            e.total_waits = total_waits;
        }
        e.points.extend(points.into_iter().map(|p| (p, ti)));
        Ok(())
    }

    /// One histogram per event, in the order the events were first seen; disagreements between
    /// tables beyond rounding are added to `warnings`.
    pub fn finish(self, warnings: &mut Vec<String>) -> Vec<WaitHistogram> {
        let mut out = Vec::with_capacity(self.events.len());
        let tables = self.tables;
        for mut e in self.events {
            e.points.sort_by(|a, b| a.0.edge.total_cmp(&b.0.edge));
            let mut kept: Vec<(Point, usize)> = Vec::new();
            for (p, t) in e.points {
                match kept.last_mut() {
                    Some((k, kt)) if same_edge(k.edge, p.edge) => {
                        if (k.cum - p.cum).abs() > k.err + p.err + 1e-6 {
                            warnings.push(format!(
                                "section {}, event '{}': {:.1} % of waits below {} ms, but {:.1} % in section {} (more than rounding allows); the value with the smaller rounding error is kept",
                                tables[t], e.name, p.cum, p.edge, k.cum, tables[*kt]
                            ));
                        }
                        if p.err < k.err {
                            *k = p;
                            *kt = t;
                        }
                    }
                    _ => kept.push((p, t)),
                }
            }
            // A cumulative share cannot fall: where rounding makes it dip, the earlier point is
            // lowered (the conservative side: a percentile never looks faster than printed).
            for i in (0..kept.len().saturating_sub(1)).rev() {
                let (next, next_err) = (kept[i + 1].0.cum, kept[i + 1].0.err);
                let (p, t) = &mut kept[i];
                if p.cum > next {
                    if p.cum - next > p.err + next_err + 1e-6 {
                        warnings.push(format!(
                            "section {}, event '{}': {:.1} % of waits below {} ms is more than the {:.1} % below the next limit; lowered to it",
                            tables[*t], e.name, p.cum, p.edge, next
                        ));
                    }
                    p.cum = next;
                }
            }
            out.push(WaitHistogram {
                event: e.name,
                total_waits: e.total_waits,
                cdf: kept.into_iter().map(|(p, _)| (p.edge, p.cum)).collect(),
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(h: &[&str]) -> Vec<Option<Bucket>> {
        buckets(&h.iter().map(|h| (*h, false)).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn headers_of_every_layout() {
        use Bucket::{Above, Below};
        assert_eq!(
            b(&[
                "Event",
                "Total Waits",
                "<1ms",
                "<2ms",
                "<32ms",
                "<=1s",
                ">1s"
            ]),
            vec![
                None,
                None,
                Some(Below(1.0)),
                Some(Below(2.0)),
                Some(Below(32.0)),
                Some(Below(1024.0)),
                Some(Above(1024.0))
            ]
        );
        assert!(buckets(&[("<512us", false), ("<1ms", false), (">=32ms", false)]).is_err());
        assert_eq!(
            b(&["<32ms", "<64ms", "<1/8s", "<1/4s", "<1/2s", "<1s", "<2s", ">=2s"])[2..],
            [
                Some(Below(128.0)),
                Some(Below(256.0)),
                Some(Below(512.0)),
                Some(Below(1024.0)),
                Some(Below(2048.0)),
                Some(Above(2048.0))
            ]
        );
        assert_eq!(
            b(&["<32s", "< 1m", "< 2m", ">=2m"])[1..],
            [
                Some(Below(65536.0)),
                Some(Below(131072.0)),
                Some(Above(131072.0))
            ]
        );
        assert_eq!(
            b(&["<2m", "<4m", "<8m", "<1/4h", "<1/2h", "< 1h", ">=1h"])[3..],
            [
                Some(Below(1_048_576.0)),
                Some(Below(2_097_152.0)),
                Some(Below(4_194_304.0)),
                Some(Above(4_194_304.0))
            ]
        );
        // Text headers cut to five characters.
        let cut = |h: &[(&str, bool)]| buckets(h).unwrap();
        assert_eq!(
            cut(&[("<256u", true), ("<512u", true), (">=512", true)]),
            vec![Some(Below(0.256)), Some(Below(0.512)), Some(Above(0.512))]
        );
        assert_eq!(
            cut(&[
                ("<512", false),
                ("<1ms", false),
                ("<32ms", true),
                (">=32m", true)
            ]),
            vec![
                Some(Below(0.512)),
                Some(Below(1.0)),
                Some(Below(32.0)),
                Some(Above(32.0))
            ]
        );
        assert!(buckets(&[("<2ms", false), ("<1ms", false)]).is_err());
        assert!(buckets(&[("<2parsecs", false)]).is_err());
    }

    #[test]
    fn cells() {
        assert_eq!(percent(""), Ok(None));
        assert_eq!(percent(".0"), Ok(Some(0.0)));
        assert_eq!(percent("58.8"), Ok(Some(58.8)));
        assert_eq!(percent("0.0(1807)"), Ok(Some(0.0)));
        assert!(percent("12K").is_err());
        assert!(percent("######").is_err());
        assert!(percent("250.0").is_err());
    }

    #[test]
    fn rows_add_up_and_end_at_100_when_the_rest_is_blank() {
        let bk = b(&["<1ms", "<2ms", "<4ms", "<8ms", ">8ms"]);
        let p = row_points(&bk, &["58.8", "16.2", "16.7", "8.3", ""]).unwrap();
        let cum: Vec<(f64, f64)> = p.iter().map(|p| (p.edge, p.cum)).collect();
        assert_eq!(
            cum,
            vec![(1.0, 58.8), (2.0, 75.0), (4.0, 91.7), (8.0, 100.0)]
        );
        assert_eq!(p[3].err, 0.0, "a blank open column: exactly 100 %");
        assert!(row_points(&bk, &["58.8", "16.2", "", "", ""]).is_err());
    }

    #[test]
    fn merge_keeps_the_precise_point_and_warns_on_disagreement() {
        let pt = |edge, cum, err| Point { edge, cum, err };
        let mut m = Merge::default();
        m.add(
            "A",
            "x",
            Some(10.0),
            vec![pt(1.0, 50.0, 0.05), pt(32.0, 99.4, 0.3)],
        )
        .unwrap();
        m.add(
            "B",
            "x",
            None,
            vec![pt(32.0, 99.5, 0.05), pt(64.0, 100.0, 0.0)],
        )
        .unwrap();
        assert!(m.add("B", "x", None, vec![]).is_err());
        m.add(
            "B",
            "y",
            None,
            vec![pt(1.0, 60.0, 0.05), pt(2.0, 50.0, 0.05)],
        )
        .unwrap();
        let mut w = Vec::new();
        let h = m.finish(&mut w);
        assert_eq!(h[0].cdf, vec![(1.0, 50.0), (32.0, 99.5), (64.0, 100.0)]);
        assert_eq!(h[0].total_waits, Some(10.0));
        assert_eq!(h[1].cdf, vec![(1.0, 50.0), (2.0, 50.0)]);
        assert_eq!(w.len(), 1, "{w:?}");
    }
}
