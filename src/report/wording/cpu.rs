//! Words for the host CPU beside the IO: the Summary line of a database, and the line of a
//! host (OS log) under its sizing figure.

use std::fmt::{self, Display, Formatter};

use crate::metrics::Figure;
use crate::report::fmt::figure_text;
use crate::rules::Recommendation;

/// The rule that says the host CPU, not storage, bounds the workload (rules/sizing.toml).
pub(crate) const CPU_RULE: &str = "host-cpu-bounds-workload";

/// The rule that says the host is waiting on its storage: IO wait above its threshold
/// (rules/sizing.toml).
pub(crate) const IOWAIT_RULE: &str = "host-waits-on-io";

/// `92.22 % busy, iowait 3.30 %: the host CPU, not storage, bounds the workload (rule
/// host-cpu-bounds-workload)`, `2.00 % busy, iowait 96.00 %: the host is waiting on its storage,
/// not on CPU (rule host-waits-on-io)`, or the unknown reason.
pub(crate) struct CpuSummary<'a> {
    /// Busy, % (the sizing statistic's value when there are several intervals).
    pub busy: Option<f64>,
    /// The busy figure of the character interval (unit, decimals, unknown reason).
    pub busy_figure: &'a Figure,
    /// IO wait, %.
    pub iowait: &'a Figure,
    /// The recommendation, whose fired rules say whether the CPU rule fired.
    pub recommendation: Option<&'a Recommendation>,
}

impl Display for CpuSummary<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let Some(busy) = self.busy else {
            return write!(
                f,
                "unknown: {}",
                self.busy_figure
                    .unknown_reason()
                    .unwrap_or("no host CPU figure")
            );
        };
        let d = self.busy_figure.decimals as usize;
        write!(f, "{} % busy", crate::report::fmt::fmt_num(busy, d))?;
        if self.iowait.value.is_some() {
            write!(f, ", iowait {} %", figure_text(self.iowait))?;
        }
        write_fired(f, self.recommendation)
    }
}

/// `: the host CPU, not storage, bounds the workload (rule …)` and/or `: the host is waiting on
/// its storage, not on CPU (rule …)`, for the CPU rules that fired.
fn write_fired(f: &mut Formatter<'_>, rec: Option<&Recommendation>) -> fmt::Result {
    let fired = |id: &str| rec.is_some_and(|r| r.fired_rules.iter().any(|x| x.id == id));
    if fired(CPU_RULE) {
        write!(
            f,
            ": the host CPU, not storage, bounds the workload (rule `{CPU_RULE}`)"
        )?;
    }
    if fired(IOWAIT_RULE) {
        write!(
            f,
            ": the host is waiting on its storage, not on CPU (rule `{IOWAIT_RULE}`)"
        )?;
    }
    Ok(())
}

/// A host's CPU in the interval closest to its sizing figure (the demand's figures, which the
/// rules test; 2 decimals): `Host CPU in the interval closest to the sizing figure: 2.00 % busy,
/// iowait 96.00 %: the host is waiting on its storage, not on CPU (rule `host-waits-on-io`).` Written only when the log prints a CPU (see [`HostCpuLine::known`]);
/// an unknown part is left out, never shown as 0.
pub(crate) struct HostCpuLine<'a> {
    /// Busy, % (`Demand::host_cpu_busy_pct`).
    pub busy: Option<f64>,
    /// IO wait, % (`Demand::host_cpu_iowait_pct`).
    pub iowait: Option<f64>,
    /// The recommendation, whose fired rules say whether a CPU rule fired.
    pub recommendation: Option<&'a Recommendation>,
}

impl HostCpuLine<'_> {
    /// True when busy or iowait is known.
    pub(crate) fn known(&self) -> bool {
        self.busy.is_some() || self.iowait.is_some()
    }
}

impl Display for HostCpuLine<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        use crate::report::fmt::fmt_num;
        write!(f, "Host CPU in the interval closest to the sizing figure: ")?;
        match (self.busy, self.iowait) {
            (Some(b), Some(w)) => {
                write!(f, "{} % busy, iowait {} %", fmt_num(b, 2), fmt_num(w, 2))?
            }
            (Some(b), None) => write!(f, "{} % busy", fmt_num(b, 2))?,
            (None, Some(w)) => write!(f, "busy unknown, iowait {} %", fmt_num(w, 2))?,
            (None, None) => write!(f, "unknown")?,
        }
        write_fired(f, self.recommendation)?;
        write!(f, ".")
    }
}
