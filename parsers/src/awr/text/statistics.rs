//! The statistics sections of a text report: `Load Profile`, `IO Profile`, `Instance Efficiency
//! Percentages` and the Instance Activity Stats tables (every release's titles, and the RAC
//! `System Statistics (Global)`), each into the records the HTML parser gives.
//!
//! Flow: each reader finds its section in the [`Doc`] by title, reads its table's columns by
//! header name and keeps each row's cells through the [`Ctx`] (a cell that cannot be read is
//! unknown and warned); activity rows wrapped by SQL*Plus are joined back ([`join_wrapped`]).

use super::*;

/// `Load Profile`: every `label:` row (label without the colon).
pub(crate) fn load_profile(d: &Doc, cx: &mut Ctx) -> Vec<LoadProfileRow> {
    let Some(sec) = d.find(|t| t == "load profile").next() else {
        return Vec::new();
    };
    let Some(t) = Table::all_in(&d.lines, sec).into_iter().next() else {
        return Vec::new();
    };
    let ps = t.col(&["per second"]);
    let pt = t.col(&["per transaction"]);
    let pe = t.col(&["per exec"]);
    let pc = t.col(&["per call"]);
    let Some(first) = [ps, pt, pe, pc].into_iter().flatten().min() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in t.rows(&d.lines, sec.end) {
        let ln = &d.lines[r];
        let lab = t.label(&ln.s, first);
        if !lab.ends_with(':') {
            break;
        }
        let name = label(&lab);
        let cells = t.cells(&ln.s);
        let mut v = |i: Option<usize>| i.and_then(|i| cx.num(&sec.title, ln.no, &name, &cells[i]));
        out.push(LoadProfileRow {
            per_second: v(ps),
            per_transaction: v(pt),
            per_exec: v(pe),
            per_call: v(pc),
            name,
        });
    }
    out
}

/// A row label: blanks collapsed, trailing `:` removed.
pub(crate) fn label(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    s.trim_end_matches(':').trim().to_string()
}

/// `IO Profile` / `IO Profile (Global)`.
pub(crate) fn io_profile(d: &Doc, cx: &mut Ctx) -> Vec<IoProfileRow> {
    let Some(sec) = d
        .find(|t| t == "io profile" || t == "io profile (global)")
        .next()
    else {
        return Vec::new();
    };
    let Some(t) = Table::all_in(&d.lines, sec).into_iter().next() else {
        return Vec::new();
    };
    let rw = t.col(&["read+write/second", "read+write per second", "read+write/s"]);
    let rd = t.col(&["read/second", "read per second", "reads/s"]);
    let wr = t.col(&["write/second", "write per second", "writes/s"]);
    let Some(first) = [rw, rd, wr].into_iter().flatten().min() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in t.rows(&d.lines, sec.end) {
        let ln = &d.lines[r];
        let name = label(&t.label(&ln.s, first));
        if name.is_empty() {
            break;
        }
        let cells = t.cells(&ln.s);
        let cell = |i: Option<usize>| i.map(|i| cells[i].clone()).unwrap_or_default();
        out.push(IoProfileRow {
            read_write: cx.num(&sec.title, ln.no, &name, &cell(rw)),
            read_write_printed: cell(rw),
            read: cx.num(&sec.title, ln.no, &name, &cell(rd)),
            write: cx.num(&sec.title, ln.no, &name, &cell(wr)),
            name,
        });
    }
    out
}

/// `Buffer Nowait %:  100.00       Redo NoWait %:  100.00` → label/value pairs; `None` when the
/// line is not such a line (every label must contain `%`).
pub(super) fn efficiency_pairs(s: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.trim().is_empty() {
        let r: nom::IResult<&str, (&str, char, &str, &str, &str)> = (
            take_till1(|c| c == ':'),
            char(':'),
            space0,
            take_till(|c| c == ' '),
            space0,
        )
            .parse(rest);
        let (rem, (lab, _, _, val, _)) = r.ok()?;
        let lab = label(lab);
        if !lab.contains('%') {
            return None;
        }
        out.push((lab, val.to_string()));
        rest = rem;
    }
    (!out.is_empty()).then_some(out)
}

/// `Instance Efficiency Percentages (Target 100%)` / Statspack `Instance Efficiency
/// Indicators`: labels with their runs of blanks collapsed (`Buffer  Hit   %:` → `Buffer Hit %`).
pub(crate) fn efficiency(d: &Doc, cx: &mut Ctx) -> Vec<(String, Option<f64>)> {
    let Some(sec) = d.find(|t| t.starts_with("instance efficiency")).next() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for l in &d.lines[sec.at + 1..sec.end] {
        let t = l.s.trim();
        if t.is_empty() || t.starts_with('~') {
            continue;
        }
        let Some(pairs) = efficiency_pairs(&l.s) else {
            break;
        };
        for (name, v) in pairs {
            let pct = crate::awr::efficiency_range(&name);
            let v = cx.keep(
                &sec.title,
                l.no,
                &name,
                crate::num::number_in(&v, Scale::Decimal, pct),
            );
            out.push((name, v));
        }
    }
    out
}

fn is_activity_title(t: &str) -> bool {
    t.contains("instance activity stats")
        || t.starts_with("system statistics (global)")
        || t == "global activity statistics"
}

/// Every Instance Activity Stats row (all split tables and pages; `System Statistics (Global)`
/// in RAC reports). Names cut to the column width are restored from [`names::STATISTICS`];
/// a statistic already read from another table (the Key table) is kept once.
pub(crate) fn activity(d: &Doc, cx: &mut Ctx) -> Vec<ActivityStat> {
    let mut out: Vec<ActivityStat> = Vec::new();
    // Statistic → the table it was first read from.
    let mut seen: HashMap<String, String> = HashMap::new();
    for sec in d.find(is_activity_title) {
        for t in Table::all_in(&d.lines, sec) {
            let (Some(nc), Some(tot), Some(ps), Some(pt)) = (
                t.col(&["statistic"]),
                t.col(&["total"]),
                t.col(&["per second"]),
                t.col(&["per trans"]),
            ) else {
                continue;
            };
            // (row, line index, name fills its column, continued on a later line)
            let mut rows: Vec<(ActivityStat, usize, bool, bool)> = Vec::new();
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let c = t.cells(&ln.s);
                let name = c[nc].clone();
                if name.is_empty() {
                    continue;
                }
                if c[tot].is_empty() && c[ps].is_empty() && c[pt].is_empty() {
                    // A long name wrapped onto the next line: append it to the row above.
                    if let Some(last) = rows.last_mut().filter(|l| l.1 + 1 == r) {
                        last.0.name = join_wrapped(&last.0.name, last.2, &ln.s, &t, nc);
                        last.1 = r;
                        last.2 = t.fills(&ln.s, nc);
                        last.3 = true;
                    }
                    continue;
                }
                if c[tot].is_empty() || c[ps].is_empty() || c[pt].is_empty() {
                    // A row missing a cell: the fixed-width columns would read its `per Trans`
                    // as `per Second`. An error for the row, whose values are unknown.
                    cx.warnings.push(format!(
                        "section '{}' (line {}), {name}: expected Total, per Second and per \
                         Trans, found {} of them — row left out, its values unknown",
                        sec.title,
                        ln.no,
                        [&c[tot], &c[ps], &c[pt]]
                            .iter()
                            .filter(|v| !v.is_empty())
                            .count()
                    ));
                    continue;
                }
                let s = ActivityStat {
                    total: cx.num(&sec.title, ln.no, &name, &c[tot]),
                    per_second: {
                        cx.rate_decimals = cx.rate_decimals.max(crate::num::decimals(&c[ps]));
                        cx.num(&sec.title, ln.no, &name, &c[ps])
                    },
                    per_trans: cx.num(&sec.title, ln.no, &name, &c[pt]),
                    table: sec.title.clone(),
                    name,
                };
                rows.push((s, r, t.fills(&ln.s, nc), false));
            }
            let width = t.width(nc);
            for (mut s, _, _, continued) in rows {
                if !continued {
                    if let Some(full) = names::restore(&s.name, width, names::STATISTICS) {
                        s.name = full.to_string();
                    }
                }
                match seen.get(&s.name) {
                    Some(table) if *table != s.table => continue,
                    Some(_) => {}
                    None => {
                        seen.insert(s.name.clone(), s.table.clone());
                    }
                }
                out.push(s);
            }
        }
    }
    out
}

/// Joins a statistic name wrapped by SQL*Plus: a known Oracle name wins (`physical write total
/// multi block` + `requests`); otherwise the parts are joined by a blank unless the first part
/// fills its column and the continuation starts at the column's first position (a word cut in
/// two by `WRAPPED`).
fn join_wrapped(first: &str, filled: bool, line: &str, t: &Table, col: usize) -> String {
    let cont = t.cells(line)[col].clone();
    let spaced = format!("{first} {cont}");
    let glued = format!("{first}{cont}");
    for c in [&spaced, &glued] {
        if names::STATISTICS.contains(&c.as_str()) {
            return c.clone();
        }
    }
    let starts_blank = line.chars().nth(t.cols[col].start).is_none_or(|c| c == ' ');
    if filled && !starts_blank {
        glued
    } else {
        spaced
    }
}
