//! sizer engine: what storage does this workload need?
//!
//! # Flow
//! bytes → [`sizer_parsers`] (typed records) → [`ingest`] (each file reduced in its reader
//! thread) → [`model`] (polars: the AWR statistics, the series statistics, the export frames) →
//! [`subject`] (a database, a host or a cluster over its series; AWR figures by [`metrics`]) →
//! [`sizing`] (series → [`rules::Demand`] → [`rules::recommend`]) → [`report`] (Markdown or JSON).
//! [`pipeline`] wires the stages together and returns a [`pipeline::Run`]; [`settings`] and
//! [`warning`] are shared by every stage, [`error`] holds the run's error, [`output`] and
//! [`export`] write files atomically.
//!
//! The rules engine never sees a file format; a parser never sees a tier; only [`model`] (and
//! [`export`], to encode files) uses polars.
#![deny(missing_docs)]

pub mod capacity;
pub mod charts;
pub mod consolidate;
pub mod cpu;
pub mod error;
pub mod export;
pub mod figures;
pub mod fleet;
pub mod held;
pub mod ingest;
pub mod metrics;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod rules;
pub mod settings;
pub mod shard;
pub mod sizing;
pub mod spill;
pub mod subject;
pub mod warning;
