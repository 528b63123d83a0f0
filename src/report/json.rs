//! The JSON renderer: one document per run (layout in `docs/json-schema.md`).

use std::io::{self, Write};

use serde::Serialize;

use crate::pipeline::Run;
use crate::subject::database::DatabaseAnalysis;

/// Identifier of the JSON document layout; bumped on any incompatible change.
pub const JSON_SCHEMA: &str = "sizer.analyze/2";

/// The fleet summaries' figures (`fleet` of the document).
#[derive(Serialize)]
struct Fleet {
    databases: Option<crate::fleet::DatabaseFleet>,
    hosts: Option<crate::fleet::HostFleet>,
}

/// A writer that indents every line after the first by `pad`: a value printed by
/// `serde_json::to_writer_pretty` at indent 0, so written, is the same value printed in place
/// inside a document at that depth (a JSON text has no raw line break inside a string, so every
/// `\n` is a line of the layout).
struct Indent<'a, W: Write> {
    out: &'a mut W,
    pad: &'static [u8],
}

impl<W: Write> Write for Indent<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut lines = buf.split(|&b| b == b'\n');
        if let Some(first) = lines.next() {
            self.out.write_all(first)?;
        }
        for line in lines {
            self.out.write_all(b"\n")?;
            self.out.write_all(self.pad)?;
            self.out.write_all(line)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Keeps the I/O error's kind of a serde_json error (a closed pipe is not a failure for the
/// caller).
fn io_error(e: serde_json::Error) -> io::Error {
    match e.io_error_kind() {
        Some(kind) => io::Error::new(kind, e),
        None => io::Error::other(e),
    }
}

/// The document, one top-level member at a time: `"name": value` as
/// `serde_json::to_writer_pretty` prints a struct's fields (two spaces a level).
struct Doc<'a, W: Write> {
    out: &'a mut W,
    first: bool,
}

impl<W: Write> Doc<'_, W> {
    fn key(&mut self, name: &str) -> io::Result<()> {
        self.out
            .write_all(if self.first { b"\n  " } else { b",\n  " })?;
        self.first = false;
        write!(self.out, "\"{name}\": ")
    }

    fn member<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> io::Result<()> {
        self.key(name)?;
        let mut w = Indent {
            out: self.out,
            pad: b"  ",
        };
        serde_json::to_writer_pretty(&mut w, value).map_err(io_error)
    }
}

/// Renders the run as one JSON document (see `docs/json-schema.md`): the members `schema`,
/// `generator`, `databases`, `hosts`, `virtual`, `reports` (one per AWR or Statspack report; a
/// collector capture's records, one per snapshot and instance, are not listed: their figures
/// are its database's `intervals`), `failed`, `skipped`, `duplicates`, `capacity_rows`
/// (`--capacity-file` rows refused or matched by nothing), `not_sized` (databases, hosts and
/// clusters with no recommendation) and `fleet` (the fleet summaries' figures).
///
/// The document is the one `serde_json::to_writer_pretty` prints of these members; it is
/// written member by member so that the `reports` list, which a large run keeps in its spill
/// file ([`crate::held::ReportList`]), streams from there one report at a time.
///
/// # Errors
/// I/O errors of `out`, and read errors of the spill file.
pub fn json(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    // serde_json writes token by token: a buffer of a concrete type takes each token inline,
    // where `out` (a `dyn Write`) would take one dynamic call per token (about 2 % of a batch's
    // time: `docs/performance.md`).
    let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
    buffered.write_all(b"{")?;
    let mut doc = Doc {
        out: &mut buffered,
        first: true,
    };
    doc.member("schema", JSON_SCHEMA)?;
    doc.member("generator", &format!("sizer {}", env!("CARGO_PKG_VERSION")))?;
    doc.member::<[DatabaseAnalysis]>("databases", &run.databases)?;
    doc.member("hosts", &run.hosts)?;
    doc.member("virtual", &run.virtual_)?;
    doc.key("reports")?;
    let mut none = true;
    run.analyses.each_json(|a| {
        doc.out
            .write_all(if none { b"[\n    " } else { b",\n    " })?;
        none = false;
        Indent {
            out: &mut *doc.out,
            pad: b"    ",
        }
        .write_all(a)
    })?;
    doc.out.write_all(if none { b"[]" } else { b"\n  ]" })?;
    doc.member("failed", &run.failures)?;
    doc.member("skipped", &run.skipped)?;
    doc.member("duplicates", &run.duplicates)?;
    doc.member("capacity_rows", &run.capacity_rows)?;
    doc.member("not_sized", &crate::fleet::not_sized(run))?;
    doc.member(
        "fleet",
        &Fleet {
            databases: crate::fleet::databases(run),
            hosts: crate::fleet::hosts(run),
        },
    )?;
    buffered.write_all(b"\n}\n")?;
    buffered.flush()
}
