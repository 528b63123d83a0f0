//! The tables of AWR HTML reports printed without `summary` attributes: 11.1 and 10.2.
//!
//! From 11.2 every table of an AWR HTML report has a `summary` ("This table displays load
//! profile"), and the parser finds its sections by it. 11.1 and 10.2 print the same sections
//! without one: the tables after the Report Summary have `<h3>` headings (`Instance Activity
//! Stats`, `Foreground Wait Events`, `Operating System Statistics`), which the parser already
//! reads, but the header tables have no title at all, and the Report Summary's titles (`Load
//! Profile`, `Instance Efficiency Percentages`, `Top 5 Timed Foreground Events`, `Host CPU`) are
//! plain text between `<p />` tags, not headings. These are found here by their column names and,
//! where columns are not enough, by a row label that only that table prints.
//!
//! Each finder is the fallback of one `summary` lookup in `html.rs`, tried only when no table has
//! that summary, and each is exact enough that it matches no other table of an 11.1 report (nor
//! any table of the 11.2+ reports of the corpus, whose outputs it leaves unchanged):
//!
//! | section | found by | checked against a real file |
//! |---|---|---|
//! | database, instance | columns `DB Name`, `DB Id`, `Instance` (11.1: `Inst num`, `Startup Time`, `Release`, `RAC`; 10.2: `Inst num`, `Release`, `RAC`, `Host`) | 11.1.0.7; 10.2 from Oracle's documented layout |
//! | host | columns `Host Name`, `Platform` (11.1); 10.2 has the header's `Host` column, and its size from Operating System Statistics `NUM_CPUS`, `NUM_CPU_CORES`, `NUM_CPU_SOCKETS`, `PHYSICAL_MEMORY_BYTES` | 11.1.0.7 |
//! | snapshots | columns `Snap Id`, `Snap Time` and a `Begin Snap:` row | 11.1.0.7 |
//! | Load Profile | columns `Per Second`, `Per Transaction` and a `Redo size:` row (RAC's `Global Cache Load Profile` has the columns, not the row) | 11.1.0.7 |
//! | Instance Efficiency | a `Buffer Nowait %:` cell (the table has no header row) | 11.1.0.7 |
//! | Top 5 events | columns `Event`, `Waits`, `Time(s)` or `Time (s)`, `Avg wait (ms)` | 11.1.0.7 (10.2: `Top 5 Timed Events`, `% Total Call Time`) |
//! | Host CPU | columns `Load Average Begin`, `%User`, `%System`, `%Idle` (11.1; 10.2 prints none) | 11.1.0.7 |
//! | Operating System Statistics | heading `Operating System Statistics`, columns `Statistic` and `Value` (11.1) or `Total` (10.2) | 11.1.0.7 |

use super::*;

/// Normalised column names of `t` (see [`norm`]).
fn columns(t: &Table) -> Vec<String> {
    t.columns().iter().map(|c| norm(c)).collect()
}

/// True when `t` has every column of `names` (normalised).
fn has_all(t: &Table, names: &[&str]) -> bool {
    let cols = columns(t);
    names.iter().all(|n| cols.iter().any(|c| c == n))
}

/// True when the first cell of some data row of `t` reads `row` ([`label`], lower case).
fn has_row(t: &Table, row: &str) -> bool {
    t.data().any(|r| {
        r.first()
            .is_some_and(|c| label(c).eq_ignore_ascii_case(row))
    })
}

/// The first table satisfying `pred`.
fn first(doc: &Doc, pred: impl Fn(&Table) -> bool) -> Option<&Table> {
    doc.tables.iter().find(|t| pred(t))
}

/// The database/instance header table: `DB Name`, `DB Id`, `Instance`.
pub(super) fn header(doc: &Doc) -> Option<&Table> {
    first(doc, |t| has_all(t, &["db name", "db id", "instance"]))
}

/// The 11.1 host table: `Host Name`, `Platform`.
pub(super) fn host(doc: &Doc) -> Option<&Table> {
    first(doc, |t| has_all(t, &["host name", "platform"]))
}

/// The snapshot table: `Snap Id`, `Snap Time`, with a `Begin Snap:` row.
pub(super) fn snapshots(doc: &Doc) -> Option<&Table> {
    first(doc, |t| {
        has_all(t, &["snap id", "snap time"]) && has_row(t, "begin snap")
    })
}

/// The Load Profile: `Per Second`, `Per Transaction`, with a `Redo size:` row.
pub(super) fn load_profile(doc: &Doc) -> Option<&Table> {
    first(doc, |t| {
        has_all(t, &["per second", "per transaction"]) && has_row(t, "redo size")
    })
}

/// Instance Efficiency Percentages: label/value pairs without a header row, one of them
/// `Buffer Nowait %:`.
pub(super) fn efficiency(doc: &Doc) -> Option<&Table> {
    first(doc, |t| {
        t.header_rows() == 0
            && t.data().any(|r| {
                r.iter()
                    .step_by(2)
                    .any(|c| label(c).eq_ignore_ascii_case("buffer nowait %"))
            })
    })
}

/// The Report Summary's `Top 5 Timed (Foreground) Events`: `Event`, `Waits`, `Time(s)` (11.1)
/// or `Time (s)`, `Avg wait (ms)`; the wait-event tables print `Total Wait Time (s)` instead.
pub(super) fn top_events(doc: &Doc) -> Option<&Table> {
    first(doc, |t| {
        let cols = columns(t);
        let has = |n: &str| cols.iter().any(|c| c == n);
        has("event")
            && has("waits")
            && (has("time(s)") || has("time (s)"))
            && (has("avg wait (ms)") || has("avg wait(ms)"))
    })
}

/// The 11.1 Report Summary's `Host CPU`: `Load Average Begin`, `%User`, `%System`, `%Idle`.
pub(super) fn system_load(doc: &Doc) -> Option<&Table> {
    first(doc, |t| {
        has_all(t, &["load average begin", "%user", "%system", "%idle"])
    })
}

/// `Operating System Statistics` (heading), with `Statistic` and `Value` (11.1) or `Total`
/// (10.2) columns.
pub(super) fn os_stats(doc: &Doc) -> Option<&Table> {
    doc.tables.iter().zip(&doc.keys).find_map(|(t, (_, h))| {
        let cols = columns(t);
        let has = |n: &str| cols.iter().any(|c| c == n);
        (h == "operating system statistics" && has("statistic") && (has("value") || has("total")))
            .then_some(t)
    })
}

/// The host's size from Operating System Statistics, for 10.2, which prints no host table:
/// `NUM_CPUS`, `NUM_CPU_CORES`, `NUM_CPU_SOCKETS` and `PHYSICAL_MEMORY_BYTES` (in GB of 2^30
/// bytes, as the 11g host table prints `Memory (GB)`: 11.1.0.7 prints 31.44 for 33,753,260,032
/// bytes); each `None` when not printed.
pub(super) fn os_host(doc: &Doc) -> (Option<u32>, Option<u32>, Option<u32>, Option<f64>) {
    let Some(t) = os_stats(doc) else {
        return (None, None, None, None);
    };
    let c = Cols::of(t);
    let (name, value) = (c.get(&["statistic"]), c.get(&["value", "total"]));
    let stat = |k: &str| {
        t.data()
            .find(|r| cell(r, name).trim() == k)
            .and_then(|r| num::number(cell(&r, value), Scale::Decimal).ok().flatten())
    };
    let count = |k: &str| stat(k).map(|v| v as u32);
    (
        count("NUM_CPUS"),
        count("NUM_CPU_CORES"),
        count("NUM_CPU_SOCKETS"),
        stat("PHYSICAL_MEMORY_BYTES").map(|b| b / 1_073_741_824.0),
    )
}
