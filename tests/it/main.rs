//! The integration tests, one binary (each module was a test crate of its own).

mod batch;
mod bounded;
mod capacity;
mod cli;
mod common;
mod corpus;
mod cpu;
mod duckdb_env;
mod exadata;
mod field_logs;
mod fleet_gen;
mod golden;
mod hosts;
mod onprem;
mod os_cpu;
mod outsafe;
mod precision;
mod snapshots;
mod tiers;
mod values;
mod virt;
mod vm_hosts;
