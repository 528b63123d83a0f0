//! The JSON renderer: one document per run (layout in `docs/json-schema.md`).

use std::io::{self, Write};

use serde::Serialize;

use crate::pipeline::Run;
use crate::subject::database::DatabaseAnalysis;

/// Identifier of the JSON document layout; bumped on any incompatible change.
pub const JSON_SCHEMA: &str = "sizer.analyze/2";

#[derive(Serialize)]
struct JsonDoc<'a> {
    schema: &'static str,
    generator: String,
    databases: &'a [DatabaseAnalysis],
    hosts: &'a [crate::subject::host::HostAnalysis],
    #[serde(rename = "virtual")]
    virtual_: &'a [crate::subject::cluster::VirtAnalysis],
    /// One per AWR or Statspack report; a collector capture's records (one per snapshot and
    /// instance) are not listed: their figures are its database's `intervals`.
    reports: Vec<&'a crate::subject::awr::Analysis>,
    failed: &'a [crate::pipeline::Failure],
    skipped: &'a [crate::pipeline::Skipped],
    duplicates: &'a [crate::pipeline::Duplicate],
    /// `--capacity-file` rows refused or matched by nothing (empty without the file).
    capacity_rows: &'a [crate::capacity::RefusedRow],
    /// Databases, hosts and clusters with no recommendation (warnings in a directory batch).
    not_sized: Vec<crate::fleet::NotSized>,
    fleet: Fleet,
}

/// The fleet summaries' figures (`fleet` of the document).
#[derive(Serialize)]
struct Fleet {
    databases: Option<crate::fleet::DatabaseFleet>,
    hosts: Option<crate::fleet::HostFleet>,
}

/// Renders the run as one JSON document (see `docs/json-schema.md`).
///
/// # Errors
/// I/O errors of `out`.
pub fn json(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    let doc = JsonDoc {
        schema: JSON_SCHEMA,
        generator: format!("sizer {}", env!("CARGO_PKG_VERSION")),
        databases: &run.databases,
        hosts: &run.hosts,
        virtual_: &run.virtual_,
        reports: run
            .analyses
            .iter()
            .filter(|a| !a.source.format.collector())
            .collect(),
        failed: &run.failures,
        skipped: &run.skipped,
        duplicates: &run.duplicates,
        capacity_rows: &run.capacity_rows,
        not_sized: crate::fleet::not_sized(run),
        fleet: Fleet {
            databases: crate::fleet::databases(run),
            hosts: crate::fleet::hosts(run),
        },
    };
    // serde_json writes token by token: a buffer of a concrete type takes each token inline,
    // where `out` (a `dyn Write`) would take one dynamic call per token (about 2 % of a batch's
    // time: `docs/performance.md`).
    let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
    // Keep the I/O error's kind (a closed pipe is not a failure for the caller).
    serde_json::to_writer_pretty(&mut buffered, &doc).map_err(|e| match e.io_error_kind() {
        Some(kind) => io::Error::new(kind, e),
        None => io::Error::other(e),
    })?;
    writeln!(buffered)?;
    buffered.flush()
}
