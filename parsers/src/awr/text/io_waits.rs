//! The IO and wait sections of a text report: `IOStat by Function` / `by Filetype` summaries,
//! foreground and background wait events (and the older `Top 5` tables when nothing else is
//! printed), and every `Wait Event Histogram…` section merged per event.
//!
//! Flow: each reader finds its sections in the [`Doc`] by title, reads the columns by header
//! name (IOStat headers grouped by their `Reads:`/`Writes:` spans) and keeps each cell through
//! the [`Ctx`].

use super::*;

fn iostat_columns(t: &Table) -> Vec<IoCol> {
    let mut running = "";
    t.cols
        .iter()
        .map(|c| {
            let h = norm(&c.name);
            running = iostat_group(&h, running);
            // A group heading above the column (`---- Read ----`) wins over the running group.
            let g = norm(&c.group);
            let group = if g.starts_with("read") {
                "r"
            } else if g.starts_with("write") {
                "w"
            } else if g.is_empty() {
                running
            } else {
                ""
            };
            iostat_column(&h, group, &g)
        })
        .collect()
}

/// `IOStat by Function summary` / `IOStat by Filetype summary` (RAC: `IOStat by Function` /
/// `IOStat by File Type`; Statspack: `IO Stat by Function - summary`).
pub(crate) fn iostat(d: &Doc, cx: &mut Ctx, filetype: bool) -> Vec<IoStatRow> {
    let titles: &[&str] = if filetype {
        &["iostat by filetype summary", "iostat by file type"]
    } else {
        &[
            "iostat by function summary",
            "iostat by function",
            "io stat by function - summary",
        ]
    };
    let mut out = Vec::new();
    for sec in d.find(|t| titles.contains(&t)) {
        for t in Table::all_in(&d.lines, sec) {
            let cols = iostat_columns(&t);
            let Some(nc) = cols.iter().position(|c| *c == IoCol::Name) else {
                continue;
            };
            let width = t.width(nc);
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let mut row = IoStatRow::default();
                let name = cells[nc].clone();
                if name.is_empty() {
                    continue;
                }
                row.name = names::restore(&name, width, names::IOSTAT)
                    .map(str::to_string)
                    .unwrap_or(name);
                let sec_t = sec.title.as_str();
                for (i, c) in cols.iter().enumerate() {
                    let v = cells[i].as_str();
                    let what = format!("{} / column {}", row.name, i + 1);
                    match c {
                        IoCol::Instance => row.instance = Some(v.to_string()),
                        IoCol::Name | IoCol::Other => {}
                        IoCol::ReadReqs => row.read_reqs_per_s = cx.num(sec_t, ln.no, &what, v),
                        IoCol::WriteReqs => row.write_reqs_per_s = cx.num(sec_t, ln.no, &what, v),
                        IoCol::ReadMiBs => row.read_bytes_per_s = cx.mib(sec_t, ln.no, &what, v),
                        IoCol::WriteMiBs => row.write_bytes_per_s = cx.mib(sec_t, ln.no, &what, v),
                        IoCol::Waits => row.waits = cx.num(sec_t, ln.no, &what, v),
                        IoCol::AvgMs => row.avg_wait_ms = cx.dur(sec_t, ln.no, &what, v),
                        IoCol::SmallRead => row.small_read_ms = cx.dur(sec_t, ln.no, &what, v),
                        IoCol::LargeRead => row.large_read_ms = cx.dur(sec_t, ln.no, &what, v),
                    }
                }
                out.push(row);
            }
        }
    }
    out
}

/// The rows of the wait-event tables in the sections matching `pred`.
fn wait_table(
    d: &Doc,
    cx: &mut Ctx,
    scope: WaitScope,
    pred: impl Fn(&str) -> bool,
    top: bool,
) -> Vec<WaitEvent> {
    let mut out = Vec::new();
    for sec in d.find(pred) {
        for t in Table::all_in(&d.lines, sec) {
            let ev = if top { Some(0) } else { t.col(&["event"]) };
            let Some(ev) = ev else { continue };
            let class = t.col(&["wait class", "class"]);
            let waits = t.col(&["waits"]);
            let total = t.col(&[
                "total wait time (s)",
                "total wait time (sec)",
                "total(s)",
                "time (s)",
                "time(s)",
                "wait time (s)",
            ]);
            let avg = t.cols.iter().position(|c| {
                let n = norm(&c.name);
                n.starts_with("avg wait") || n.starts_with("wait avg") || n == "avg wait (ms)"
            });
            let avg = avg.or_else(|| {
                // Statspack / 11g Top 5: `Avg wait (ms)` over three header lines may end as
                // `Avg wait (ms)` or `wait (ms)`.
                t.cols.iter().position(|c| norm(&c.name).contains("(ms)"))
            });
            let width = t.width(ev);
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let cell = |i: Option<usize>| i.map(|i| cells[i].clone()).unwrap_or_default();
                let mut event = cells[ev].clone();
                if event.is_empty() {
                    continue;
                }
                if top && (event == "DB CPU" || event == "CPU time") {
                    continue;
                }
                if let Some(full) = names::restore(&event, width, names::EVENTS) {
                    event = full.to_string();
                }
                let printed = cell(avg);
                out.push(WaitEvent {
                    scope,
                    wait_class: Some(cell(class)).filter(|s| !s.is_empty()),
                    waits: cx.num(&sec.title, ln.no, &event, &cell(waits)),
                    total_wait_s: cx.num(&sec.title, ln.no, &event, &cell(total)),
                    total_wait_decimals: Some(crate::num::decimals(&cell(total))),
                    avg_wait_ms: cx.dur(&sec.title, ln.no, &event, &printed),
                    avg_wait_printed: printed,
                    event,
                });
            }
        }
    }
    out
}

/// `Foreground Wait Events` and `Background Wait Events` (RAC: `… (Global)`); older reports:
/// `Wait Events`, then the Top 5 / Top 10 table, as foreground events (with a warning).
pub(crate) fn wait_events(d: &Doc, cx: &mut Ctx) -> Vec<WaitEvent> {
    let mut fg = wait_table(
        d,
        cx,
        WaitScope::Foreground,
        |t| t.starts_with("foreground wait events"),
        false,
    );
    if fg.is_empty() {
        fg = wait_table(d, cx, WaitScope::Foreground, |t| t == "wait events", false);
        if !fg.is_empty() {
            cx.warnings.push(
                "section 'Wait Events': no 'Foreground Wait Events' table (release before 11.2); its events, which include background waits, are read as foreground events".into(),
            );
        }
    }
    if fg.is_empty() {
        let is_top = |t: &str| {
            t.starts_with("top 5 timed")
                || t.starts_with("top 10 foreground events")
                || t.starts_with("top 10 timed")
        };
        fg = wait_table(d, cx, WaitScope::Foreground, is_top, true);
        if !fg.is_empty() {
            cx.warnings.push(
                "no 'Foreground Wait Events' table: the average waits of the Top 5 / Top 10 events table are used instead".into(),
            );
        }
    }
    let bg = wait_table(
        d,
        cx,
        WaitScope::Background,
        |t| t.starts_with("background wait events"),
        false,
    );
    fg.into_iter().chain(bg).collect()
}

/// Every `Wait Event Histogram…` section (all pages), merged per event (see
/// [`WaitHistogram`]). Headers cut to the column width get their unit back from the edges around
/// them; a table or row that cannot be read is left out with a warning naming the section.
pub(crate) fn wait_histograms(d: &Doc, cx: &mut Ctx) -> Vec<WaitHistogram> {
    let mut merge = super::histogram::Merge::default();
    for sec in d.find(|t| t.starts_with("wait event histogram")) {
        for t in Table::all_in(&d.lines, sec) {
            let Some(ev) = t.col(&["event"]) else {
                continue;
            };
            let headers: Vec<(&str, bool)> = t
                .cols
                .iter()
                .enumerate()
                .map(|(i, c)| (c.name.as_str(), c.name.chars().count() >= t.width(i)))
                .collect();
            let line = d.lines[t.at].no;
            let buckets = match super::histogram::buckets(&headers) {
                Ok(b) if b.iter().any(Option::is_some) => b,
                Ok(_) => continue,
                Err(e) => {
                    cx.warnings.push(format!(
                        "section '{}' (line {line}): {e} — table left out",
                        sec.title
                    ));
                    continue;
                }
            };
            let total = t.col(&["total waits", "waits"]);
            let width = t.width(ev);
            // The pages of one section are one table: a second row of one name on another page
            // is a second event cut to the same name (`Streams AQ: qmn coordinato`).
            let table = format!("'{}'", sec.title);
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let mut event = cells[ev].clone();
                if event.is_empty() {
                    continue;
                }
                if let Some(full) = names::restore(&event, width, names::EVENTS) {
                    event = full.to_string();
                }
                let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
                let added = super::histogram::row_points(&buckets, &refs).and_then(|points| {
                    let waits = total.and_then(|i| cx.num(&sec.title, ln.no, &event, &cells[i]));
                    merge.add(&table, &event, waits, points)
                });
                if let Err(e) = added {
                    cx.warnings.push(format!(
                        "section '{}' (line {}), event '{event}': {e} — row left out",
                        sec.title, ln.no
                    ));
                }
            }
        }
    }
    merge.finish(&mut cx.warnings)
}
