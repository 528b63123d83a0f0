//! Words for the VM-size answer of a cloud option ([`HostChoice`]): per family, the smallest
//! catalogued host type that drives the demand to the tier, or why there is none.

use std::fmt::{self, Display, Formatter};

use crate::report::fmt::{fmt_num, fmt_trim};
use crate::rules::schema::HostFamily;
use crate::rules::{HostChoice, HostFit};

impl Display for HostFamily {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HostFamily::General => "general purpose",
            HostFamily::Memory => "memory optimised",
            HostFamily::Storage => "storage optimised",
        })
    }
}

/// `` `m6i.8xlarge` (32 vCPU, 128 GiB; 40,000 IOPS, 1,250 MB/s) ``: its caps for the tier.
impl Display for HostFit {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let size = match (self.vcpus, self.memory_gib) {
            (Some(v), Some(m)) => format!("{v} vCPU, {} GiB; ", fmt_trim(m)),
            (Some(v), None) => format!("{v} vCPU; "),
            (None, Some(m)) => format!("{} GiB; ", fmt_trim(m)),
            (None, None) => String::new(),
        };
        write!(
            f,
            "`{}` ({size}{} IOPS, {} MB/s)",
            self.id,
            fmt_num(self.max_iops, 0),
            fmt_trim(self.max_mb_s)
        )
    }
}

/// Host types that can attach a tier but whose cap for it is unknown:
/// `` per-VM cap for this tier not found, not counted: `m3-megamem-64`, `z3-highmem-88` ``.
pub(crate) struct CapUnknown<'a>(pub(crate) &'a [String]);

impl Display for CapUnknown<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let ids: Vec<String> = self.0.iter().map(|i| format!("`{i}`")).collect();
        write!(
            f,
            "per-VM cap for this tier not found, not counted: {}",
            ids.join(", ")
        )
    }
}

/// One family: `general purpose: m6i.8xlarge (…)`, or why none is named; then the family's
/// hosts whose cap for the tier is unknown, if any.
impl Display for HostChoice {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let known = if self.cap_unknown.is_empty() {
            ""
        } else {
            " with a known cap"
        };
        match (&self.host, &self.largest) {
            (Some(h), _) => write!(f, "{}: {h}", self.family),
            (None, Some(l)) if self.catalogued == 1 => write!(
                f,
                "{}: the only one catalogued{known}, {l}, cannot",
                self.family
            ),
            (None, Some(l)) => write!(
                f,
                "{}: none of the {} catalogued{known} can; the largest: {l}",
                self.family, self.catalogued
            ),
            (None, None) => write!(f, "{}: none catalogued{known} for this tier", self.family),
        }?;
        if !self.cap_unknown.is_empty() {
            write!(f, " ({})", CapUnknown(&self.cap_unknown))?;
        }
        Ok(())
    }
}

/// The host line of a recommended cloud option: the demand it must drive, then each family.
pub(crate) struct HostLine<'a> {
    /// The option's tier name.
    pub(crate) tier: &'a str,
    /// The option's per-family choices.
    pub(crate) hosts: &'a [HostChoice],
    /// Counted IOPS the host must drive.
    pub(crate) iops: f64,
    /// `iops` are the tier's counted IOPS (large requests split into its IO units), not the
    /// sized IOPS.
    pub(crate) counted: bool,
    /// Sized MB/s (10^6 B/s) the host must drive; `None` when unknown.
    pub(crate) mb_s: Option<f64>,
}

impl Display for HostLine<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Host: the smallest catalogued VM per family that drives {} IOPS{} and {} to {} — ",
            fmt_num(self.iops, 0),
            if self.counted {
                " (as the tier counts them)"
            } else {
                ""
            },
            match self.mb_s {
                Some(mb) => format!("{} MB/s", fmt_num(mb, 2)),
                None => "an unknown throughput (checked on IOPS only)".to_string(),
            },
            self.tier
        )?;
        let parts: Vec<String> = self.hosts.iter().map(ToString::to_string).collect();
        write!(f, "{}.", parts.join("; "))
    }
}
