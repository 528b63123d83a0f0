//! Errors of the parsers crate: typed, each naming where in the input it happened.

use std::path::PathBuf;

/// Where in an input a problem was found.
///
/// `line` is 1-based; `section` is the report section (table heading or `summary` text) when known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// 1-based line number in the decoded text, when known.
    pub line: Option<usize>,
    /// Report section (e.g. `Load Profile`), when known.
    pub section: Option<String>,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.line, &self.section) {
            (Some(l), Some(s)) => write!(f, "line {l}, in section '{s}'"),
            (Some(l), None) => write!(f, "line {l}"),
            (None, Some(s)) => write!(f, "in section '{s}'"),
            (None, None) => write!(f, "before the first section"),
        }
    }
}

/// A line, row or record a parser left out and counted, with why (every format's skipped lines).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SkippedLine {
    /// 1-based line (or record number for JSON documents).
    pub line: usize,
    /// Why it was left out, with what was expected.
    pub reason: String,
}

/// Why an input could not be parsed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The file could not be read at all.
    #[error("cannot read the file: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating-system error.
        source: std::io::Error,
    },
    /// The input holds no bytes (or only white space).
    #[error("the file is empty: expected an AWR or Statspack report, or an OS disk log")]
    Empty,
    /// The input looks binary (NUL bytes or mostly control characters).
    #[error("the file looks binary (NUL byte at byte offset {offset}): expected an AWR or Statspack report, or an OS disk log (text)")]
    Binary {
        /// Byte offset (from 0) of the first NUL byte.
        offset: usize,
    },
    /// The input is not of a format this crate reads.
    #[error("not a recognised report: {reason}")]
    UnknownFormat {
        /// What was looked for and not found.
        reason: String,
    },
    /// gzip-compressed data that cannot be decompressed (a corrupt or truncated stream; in memory,
    /// more than the gunzip limit, 4 GiB; a file is capped by [`ParseError::TooLarge`] instead):
    /// the file claims to be an input and cannot be
    /// read, unlike [`ParseError::UnknownFormat`].
    #[error("not a recognised report: {reason}")]
    Gzip {
        /// The gzip problem, with what was expected.
        reason: String,
    },
    /// The input is larger than a cap (`Limits` of the `input` module): on disk before it is opened,
    /// or, for gzip, once the stream decompresses past the cap (it is never buffered whole).
    #[error("{what} is more than the cap of {} ({flag}); raise the cap with {flag} if all of it is meant to be read", human_bytes(*.limit))]
    TooLarge {
        /// `the file` or `the decompressed gzip data`.
        what: &'static str,
        /// The cap, bytes.
        limit: u64,
        /// The command-line flag that sets it (`--max-file-size`, `--max-decompressed-size`).
        flag: &'static str,
    },
    /// The report stops before its end.
    #[error("truncated report: {what} ({at})")]
    Truncated {
        /// What was missing.
        what: String,
        /// Where the input stopped.
        at: Location,
    },
    /// A section the sizing needs is missing or malformed.
    #[error("{at}: expected {expected}, found {found}")]
    Section {
        /// Where.
        at: Location,
        /// What the parser expected.
        expected: String,
        /// What it found instead.
        found: String,
    },
}

impl ParseError {
    /// Shorthand for a [`ParseError::Section`] error.
    pub fn section(
        section: impl Into<String>,
        line: Option<usize>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        ParseError::Section {
            at: Location {
                line,
                section: Some(section.into()),
            },
            expected: expected.into(),
            found: found.into(),
        }
    }
}

/// `n` bytes in the largest binary unit that divides it (`64 GiB`, `1.5 MiB` → `1536 KiB`), or
/// bytes.
pub fn human_bytes(n: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{} {unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}
