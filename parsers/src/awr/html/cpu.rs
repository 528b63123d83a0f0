//! Host CPU of an AWR HTML report (see [`HostCpu`]).
//!
//! | report | table (`summary` / heading) | columns |
//! |---|---|---|
//! | instance | "This table displays system load statistics" (`Host CPU`) | `%User %System %WIO %Idle` |
//! | instance | "This table displays operating systems statistics" (`Operating System Statistics`) | `Statistic`, `Value`: rows `BUSY_TIME`, `IDLE_TIME`, `IOWAIT_TIME` (hundredths of a second) |
//! | RAC global | `OS Statistics By Instance` | `I#`, `% Busy % Usr % Sys % WIO % Idl`, `Time (s)`: `Busy Idle` |
//!
//! | instance, 11.1 / 10.2 (no summaries) | `Host CPU` by its columns (11.1 only); heading `Operating System Statistics` | as above; 10.2 names the value column `Total` |
//!
//! Columns and rows are found by name, never by position.

use super::*;

/// Hundredths of a second (V$OSSTAT `*_TIME`) to seconds.
const CS_PER_S: f64 = 100.0;

pub(super) fn host_cpu(doc: &Doc, cx: &mut Ctx, kind: ReportKind) -> Vec<HostCpu> {
    if kind == ReportKind::RacGlobal {
        return by_instance(doc, cx);
    }
    let mut h = HostCpu::default();
    let load = find(doc, |s, _| s.contains("displays system load statistics"))
        .or_else(|| super::legacy::system_load(doc));
    if let Some(t) = load {
        let c = Cols::of(t);
        if let Some(row) = t.data().next() {
            let mut pct = |names: &[&str]| {
                let i = c.get(names)?;
                cx.num(t, names[0], cell(&row, Some(i)), Scale::Decimal)
            };
            h.user_pct = pct(&["%user"]);
            h.system_pct = pct(&["%system"]);
            h.wio_pct = pct(&["%wio"]);
            h.idle_pct = pct(&["%idle"]);
        }
    }
    let os = find(doc, |s, _| {
        s.contains("displays operating systems statistics")
    })
    .or_else(|| super::legacy::os_stats(doc));
    if let Some(t) = os {
        let c = Cols::of(t);
        // 10.2 names the value column `Total`.
        let (name, value) = (c.get(&["statistic"]), c.get(&["value", "total"]));
        for row in t.data() {
            let slot = match cell(&row, name).trim() {
                "BUSY_TIME" => &mut h.busy_time_s,
                "IDLE_TIME" => &mut h.idle_time_s,
                "IOWAIT_TIME" => &mut h.iowait_time_s,
                _ => continue,
            };
            let what = cell(&row, name).trim().to_string();
            *slot = cx
                .num(t, &what, cell(&row, value), Scale::Decimal)
                .map(|cs| cs / CS_PER_S);
        }
    }
    if h.is_empty() {
        Vec::new()
    } else {
        vec![h]
    }
}

/// RAC global `OS Statistics By Instance`: one entry per `I#` row (the `Sum` row is left out:
/// the engine adds the instances).
fn by_instance(doc: &Doc, cx: &mut Ctx) -> Vec<HostCpu> {
    let Some(t) = find(doc, |s, _| s.starts_with("os statistics by instance")) else {
        return Vec::new();
    };
    let c = Cols::of(t);
    let mut out = Vec::new();
    for row in t.data() {
        let Ok(number) = cell(&row, c.get(&["i#"])).trim().parse::<u32>() else {
            continue;
        };
        let mut n = |k: &str| {
            let i = c.get(&[k])?;
            cx.num(t, k, cell(&row, Some(i)), Scale::Decimal)
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
    out
}
