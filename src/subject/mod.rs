//! The subjects sized: databases (from AWR/Statspack reports), hosts (from OS disk logs) and
//! clusters (from vSAN/esxtop/HCIBench exports).

pub mod awr;
pub mod cluster;
pub mod database;
pub mod entity_totals;
pub mod hana;
pub mod host;
pub mod side_by_side;
