//! AWR Miner captures zipped, as Oracle's AWR Miner documentation ships its sample output
//! (`awr-hist-<dbid>-<name>-<min>-<max>.out` inside a `.zip`), and as DBAs mail them.
//!
//! Flow: [`looks_like`] sees the zip magic and a member whose name ends `.out` and whose head is
//! a capture (`~~BEGIN-…~~` markers); [`parse_zip`] reads each such member in memory (never to
//! disk, each up to [`MEMBER_LIMIT`]), decodes it as any input and hands its text to the capture
//! parser, so a zip of one capture reads as the capture itself.

use std::io::Read;

use crate::error::ParseError;
use crate::sink::Sink;

/// Largest member read, bytes of uncompressed text (a week of a 6-node RAC is 3.6 MB).
pub const MEMBER_LIMIT: u64 = 1 << 30;

/// The `.out` members of a zip whose first 64 KiB are an AWR Miner or DBCSI capture.
fn captures(bytes: &[u8]) -> Vec<String> {
    if !bytes.starts_with(b"PK\x03\x04") {
        return Vec::new();
    }
    let Ok(mut z) = zip::ZipArchive::new(std::io::Cursor::new(bytes)) else {
        return Vec::new();
    };
    let names: Vec<String> = (0..z.len())
        .filter_map(|i| {
            z.by_index(i)
                .ok()
                .and_then(|f| f.name().ok().map(|n| n.into_owned()))
        })
        .filter(|n| n.ends_with(".out") && !n.starts_with("__MACOSX/"))
        .collect();
    names
        .into_iter()
        .filter(|n| {
            let mut head = Vec::new();
            z.by_name(n)
                .ok()
                .and_then(|f| f.take(64 * 1024).read_to_end(&mut head).ok())
                .is_some()
                && super::looks_like(&String::from_utf8_lossy(&head))
        })
        .collect()
}

/// Detection from the raw bytes: a zip holding at least one capture.
pub fn looks_like(bytes: &[u8]) -> bool {
    !captures(bytes).is_empty()
}

/// Reads every capture of the zip into `sink`, in the archive's order.
///
/// # Errors
/// A member that cannot be read or is over [`MEMBER_LIMIT`] (naming it), and the capture
/// parser's errors.
pub fn parse_zip(bytes: &[u8], sink: &mut dyn Sink) -> Result<(), ParseError> {
    let names = captures(bytes);
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| {
        ParseError::section("zip archive", None, "a readable zip archive", e.to_string())
    })?;
    for name in names {
        let bad = |e: String| ParseError::section(&name, None, "a readable zip member", e);
        let mut text = Vec::new();
        z.by_name(&name)
            .map_err(|e| bad(e.to_string()))?
            .take(MEMBER_LIMIT + 1)
            .read_to_end(&mut text)
            .map_err(|e| bad(e.to_string()))?;
        if text.len() as u64 > MEMBER_LIMIT {
            return Err(bad(format!("a member over {MEMBER_LIMIT} bytes")));
        }
        let decoded = crate::input::decode(&text)?;
        super::parse(&decoded.text, sink)?;
    }
    Ok(())
}
