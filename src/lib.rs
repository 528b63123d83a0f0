//! sizer engine: what storage does this workload need?
//!
//! # Brief overview
//! bytes → [`sizer_parsers`] (typed records, e.g. [`sizer_parsers::awr::AwrReport`]) →
//! [`model`] (a polars DataFrame, one row per source, instance, interval and statistic) →
//! [`metrics`] ([`metrics::Workload`]: IOPS, MB/s, IO size, hit ratio, latency, each with unit and
//! source) → [`rules`] ([`rules::Demand`] in, [`rules::Recommendation`] out, driven by
//! `rules/*.toml`) → [`report`] (Markdown or JSON). [`analyze::run`] wires the stages together.
//! OS disk logs ([`sizer_parsers::disk::DeviceLog`]: iostat, sar, sadf, nmon, OSWatcher) take the
//! [`hosts`] path: per-device and per-host series, host totals, the same rules.
//!
//! The rules engine never sees a file format; a parser never sees a tier.
#![deny(missing_docs)]

pub mod analyze;
pub mod export;
pub mod fleet;
pub mod hosts;
pub mod metrics;
pub mod model;
pub mod output;
pub mod report;
pub mod rules;
pub mod virt;
