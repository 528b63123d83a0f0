//! The subjects sized: databases (from AWR/Statspack reports), hosts (from OS disk logs) and
//! clusters (from vSAN/esxtop/HCIBench exports).

pub mod awr;
pub mod cluster;
pub mod database;
pub mod entity_totals;
pub mod hana;
pub mod host;
pub mod host_name;
pub mod side_by_side;
pub mod virt_cpu;

use chrono::NaiveDateTime;

/// A time stamp as ISO 8601 without zone (`2024-01-25T06:47:54`), as the JSON prints it.
pub(crate) fn iso(t: Option<NaiveDateTime>) -> Option<String> {
    t.map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string())
}
