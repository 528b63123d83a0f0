//! Column names and units per platform: the Linux `sar -d`/`-b` columns (through
//! [`crate::disk::sysstat_normalise`], plus sysstat 5.x `sect/s`) and the AIX/Solaris/HP-UX
//! `sar -d` columns (see the table in the module docs), and which Solaris kstats are HBA or path
//! aggregates that double-count their disks.

use crate::disk::{sysstat_normalise, Normalised};

/// Column names of AIX/Solaris/HP-UX `sar -d` (after `device`).
pub(super) const UNIX_KNOWN: &[&str] = &[
    "%busy", "avque", "r+w/s", "r/s", "w/s", "blks/s", "Kbs/s", "avwait", "avserv",
];

/// Solaris host-bus-adapter drivers whose I/O kstats `sar -d` lists next to the disks.
pub(super) const HBA_DRIVERS: &[&str] = &[
    "mpt",
    "mpt_sas",
    "mr_sas",
    "iscsi",
    "scsi_vhci",
    "scsi_vhc",
    "fp",
    "fcp",
    "qlc",
    "emlxs",
    "pmcs",
    "ahci",
    "nv_sata",
    "si3124",
    "marvell88sx",
    "glm",
    "isp",
    "aac",
    "arcmsr",
    "cpqary3",
    "lsimega",
    "ehci",
    "ohci",
    "uhci",
    "xhci",
];

pub(super) fn linux_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let mut n = sysstat_normalise(values);
    if n.total_bytes_per_s.is_none() {
        n.total_bytes_per_s = values
            .iter()
            .find(|(c, _)| c == "sect/s")
            .and_then(|(_, v)| v.map(|v| v * 512.0));
    }
    n
}

/// AIX/Solaris/HP-UX `sar -d` columns (see the module table).
pub(super) fn unix_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let get = |name: &str| values.iter().find(|(c, _)| c == name).and_then(|(_, v)| *v);
    let avwait = get("avwait");
    let avserv = get("avserv");
    Normalised {
        total_iops: get("r+w/s"),
        read_iops: get("r/s"),
        write_iops: get("w/s"),
        total_bytes_per_s: get("blks/s")
            .map(|v| v * 512.0)
            .or_else(|| get("Kbs/s").map(|v| v * 1024.0)),
        queue_depth: get("avque"),
        await_ms: match (avwait, avserv) {
            (Some(w), Some(s)) => Some(w + s),
            _ => None,
        },
        service_ms: avserv,
        util_pct: get("%busy"),
        ..Normalised::default()
    }
}

/// Solaris HBA (controller) and MPxIO path I/O kstats: they double-count their disks.
pub(super) fn unix_aggregate(name: &str) -> bool {
    let drv_len = name
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_'))
        .unwrap_or(name.len());
    let (drv, rest) = name.split_at(drv_len);
    if drv.is_empty() {
        return false;
    }
    let starts_digit = rest.starts_with(|c: char| c.is_ascii_digit());
    // `sd5.t3.mpt_sas3`: disk instance, target, HBA (an I/O path).
    if starts_digit
        && rest
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with(".t")
    {
        return true;
    }
    HBA_DRIVERS.contains(&drv) && (rest.is_empty() || starts_digit)
}
