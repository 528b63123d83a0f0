//! Host CPU figures: how busy the host was over an interval, beside its IO.
//!
//! Flow: the parsers read `Host CPU` and `Operating System Statistics`
//! ([`sizer_parsers::awr::HostCpu`]);
//! the model turns them into rows of the model's `Host CPU` section (times in seconds as
//! `total`, so that [`View::sum`] adds RAC instances like every other counter; percentages as
//! `value`, which a sum drops); [`awr_figures`] reads one interval's view into two
//! [`CpuValue`]s, which the interval figures turn into two `Figure`s.
//!
//! Formulas (V$OSSTAT names verbatim):
//! - busy % = 100 × `BUSY_TIME` / (`BUSY_TIME` + `IDLE_TIME`), 2 decimals; summed over the
//!   instances of a RAC interval (their hosts' CPU time added). Where the times are not
//!   printed: 100 − `%Idle` of `Host CPU`, to its 1 decimal (or RAC `% Busy`).
//! - iowait % = 100 × `IOWAIT_TIME` / (`BUSY_TIME` + `IDLE_TIME`), else `%WIO` as printed (RAC
//!   global: each instance's `% WIO` weighted by its Busy + Idle time).
//!   IO wait is idle time with IO outstanding: it is part of `IDLE_TIME`, not of busy.
//!
//! The OS logs' CPU (iostat `avg-cpu` and `-o JSON`, `sar -u`, `sadf -d`/`-j`, nmon `CPU_ALL`,
//! OSWatcher, AIX `tty:` line, Solaris `us sy wt id`: 100 − idle − iowait, found by column name
//! in the parsers, `sizer_parsers::disk::CpuUtil`) is read with the host series
//! (`src/subject/host.rs`), and esxtop's `Physical Cpu(_Total)\% Util Time` with the cluster
//! (`src/subject/virt_cpu.rs`); no engine code names a format. Every source feeds the same two
//! rules: `host-cpu-bounds-workload` through `Demand::host_cpu_busy_pct`, and
//! `host-waits-on-io` (the host waits on its storage) through `Demand::host_cpu_iowait_pct`.

use sizer_parsers::awr::ReportKind;

use crate::model::{section, View, BUSY_TIME, IDLE_TIME, IOWAIT_TIME};

/// One CPU figure before it becomes a `Figure`: `(value, decimals)` or why it is unknown, and
/// where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct CpuValue {
    /// `(value %, decimals)`, or the unknown reason.
    pub value: Result<(f64, u32), String>,
    /// The statistics and formula it comes from.
    pub from: &'static str,
}

/// Busy % and iowait % of one interval's view (see the module docs). `kind` is the report's
/// kind, `None` for the sum of a RAC database's instance reports (used only in the reasons).
pub fn awr_figures(v: &View, kind: Option<ReportKind>) -> [CpuValue; 2] {
    let t = |s: &str| v.get(section::HOST_CPU, s).and_then(|c| c.total);
    let p = |s: &str| v.get(section::HOST_CPU, s).and_then(|c| c.value);
    let why = || {
        match kind {
            None => "an instance report of this interval prints no Operating System Statistics BUSY_TIME and IDLE_TIME",
            Some(ReportKind::RacGlobal) => "the RAC report's OS Statistics By Instance prints no Busy and Idle times for every instance",
            Some(ReportKind::Pdb) => "PDB-level reports print no Host CPU or Operating System Statistics",
            Some(ReportKind::Instance) => "the report prints no Host CPU table and no Operating System Statistics BUSY_TIME and IDLE_TIME",
        }
        .to_string()
    };
    let known = |v: f64, d: u32, from| CpuValue {
        value: Ok((v, d)),
        from,
    };
    let unknown = |why: String, from| CpuValue {
        value: Err(why),
        from,
    };
    let total = match (t(BUSY_TIME), t(IDLE_TIME)) {
        (Some(b), Some(i)) if b + i > 0.0 => Some((b, b + i)),
        _ => None,
    };
    let rac_global = kind == Some(ReportKind::RacGlobal);
    let from_t = if rac_global {
        "OS Statistics By Instance 100 × Σ Busy / Σ (Busy + Idle) over the instances (Time (s))"
    } else {
        "Operating System Statistics 100 × BUSY_TIME / (BUSY_TIME + IDLE_TIME)"
    };
    let busy = match (total, p("%Idle"), p("% Busy")) {
        (Some((b, all)), _, _) => known(100.0 * b / all, 2, from_t),
        (None, Some(idle), _) => known(100.0 - idle, 1, "Host CPU 100 − %Idle"),
        (None, None, Some(busy)) => known(busy, 2, "OS Statistics By Instance % Busy"),
        _ => unknown(why(), from_t),
    };
    let from_w = if rac_global {
        "OS Statistics By Instance Σ (% WIO × (Busy + Idle)) / Σ (Busy + Idle) over the instances (% WIO printed to 2 decimals)"
    } else {
        "Operating System Statistics 100 × IOWAIT_TIME / (BUSY_TIME + IDLE_TIME)"
    };
    let iowait = match (total, t(IOWAIT_TIME), p("%WIO")) {
        (Some((_, all)), Some(w), _) => known(100.0 * w / all, 2, from_w),
        (_, _, Some(wio)) => known(wio, 1, "Host CPU %WIO"),
        _ => unknown(
            if total.is_some() {
                "the report prints no IOWAIT_TIME and no %WIO".to_string()
            } else {
                why()
            },
            from_w,
        ),
    };
    [busy, iowait]
}
