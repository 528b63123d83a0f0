//! Host CPU of an AWR text or Statspack report (see [`HostCpu`]).
//!
//! | report | section title | columns / rows |
//! |---|---|---|
//! | AWR instance | `Host CPU` | `%User %System %WIO %Idle` |
//! | Statspack | `Host CPU  (CPUs: 12 …)` | `User System Idle WIO` |
//! | AWR instance | `Operating System Statistics` | `Statistic`, `Value`: rows `BUSY_TIME`, `IDLE_TIME`, `IOWAIT_TIME` (hundredths of a second) |
//! | Statspack | `OS Statistics` | `Statistic`, `Total`: the same rows |
//! | RAC global | `OS Statistics By Instance` | `I#`, `% Busy % Usr % Sys % WIO % Idl` (and `Busy Idle` times where printed) |
//!
//! Columns are found by their header words, never by position.

use super::*;

/// Hundredths of a second (V$OSSTAT `*_TIME`) to seconds.
const CS_PER_S: f64 = 100.0;

pub(crate) fn host_cpu(d: &Doc, cx: &mut Ctx, kind: ReportKind) -> Vec<HostCpu> {
    if kind == ReportKind::RacGlobal {
        return by_instance(d, cx);
    }
    let mut h = HostCpu::default();
    // `Host CPU` (12c+), `Host CPU (CPUs:    8 Cores: …)` (11g: the title up to two blanks).
    if let Some(sec) = d
        .find(|t| t == "host cpu" || t.starts_with("host cpu ("))
        .next()
    {
        if let Some(t) = Table::all_in(&d.lines, sec).into_iter().next() {
            if let Some(&r) = t.rows(&d.lines, sec.end).first() {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let mut pct = |names: &[&str]| {
                    let i = last_word_col(&t, names)?;
                    cx.num(&sec.title, ln.no, names[0], &cells[i])
                };
                h.user_pct = pct(&["%user", "user"]);
                h.system_pct = pct(&["%system", "system"]);
                h.wio_pct = pct(&["%wio", "wio"]);
                h.idle_pct = pct(&["%idle", "idle"]);
            }
        }
    }
    if let Some(sec) = d
        .find(|t| t == "operating system statistics" || t == "os statistics")
        .next()
    {
        for t in Table::all_in(&d.lines, sec) {
            let (Some(name), Some(value)) = (t.col(&["statistic"]), t.col(&["value", "total"]))
            else {
                continue;
            };
            for r in t.rows(&d.lines, sec.end) {
                let ln = &d.lines[r];
                let cells = t.cells(&ln.s);
                let stat = cells[name].trim().to_string();
                let slot = match stat.as_str() {
                    "BUSY_TIME" => &mut h.busy_time_s,
                    "IDLE_TIME" => &mut h.idle_time_s,
                    "IOWAIT_TIME" => &mut h.iowait_time_s,
                    _ => continue,
                };
                *slot = cx
                    .num(&sec.title, ln.no, &stat, &cells[value])
                    .map(|cs| cs / CS_PER_S);
            }
        }
    }
    if h.is_empty() {
        Vec::new()
    } else {
        vec![h]
    }
}

/// The first column whose header's last word is one of `names`: Statspack's title line
/// `Host CPU  (CPUs: 12  Cores: 6  Sockets: 1)` sits right above the header and its words join
/// the column names below them (`1) User`).
fn last_word_col(t: &Table, names: &[&str]) -> Option<usize> {
    names.iter().find_map(|n| {
        t.cols
            .iter()
            .position(|c| !c.tilde && norm(&c.name).rsplit(' ').next() == Some(*n))
    })
}

/// RAC global `OS Statistics By Instance`: one entry per `I#` row.
fn by_instance(d: &Doc, cx: &mut Ctx) -> Vec<HostCpu> {
    let Some(sec) = d
        .find(|t| t.starts_with("os statistics by instance"))
        .next()
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in Table::all_in(&d.lines, sec) {
        let Some(ic) = t.col(&["i#"]) else { continue };
        for r in t.rows(&d.lines, sec.end) {
            let ln = &d.lines[r];
            let cells = t.cells(&ln.s);
            let Ok(number) = cells[ic].parse::<u32>() else {
                continue;
            };
            let mut n = |k: &str| {
                t.col(&[k])
                    .and_then(|i| cx.num(&sec.title, ln.no, k, &cells[i]))
            };
            out.push(HostCpu {
                instance: Some(number),
                busy_pct: n("% busy"),
                user_pct: n("% usr"),
                system_pct: n("% sys"),
                wio_pct: n("% wio"),
                idle_pct: n("% idl"),
                busy_time_s: n("busy"),
                idle_time_s: n("idle"),
                iowait_time_s: None,
            });
        }
    }
    out
}
