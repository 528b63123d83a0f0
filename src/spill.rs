//! The spill: where a large run keeps what it holds of each report until it renders, so that a
//! fleet's memory grows with its databases and intervals, not with its reports.
//!
//! A run reads every report before it can size any database (a RAC interval's instance reports
//! can arrive in any order), and its JSON lists every report. Of each report it keeps three
//! things: its `Analysis` (rendered only in the JSON `reports` list), its
//! kept rows (`KeptRows`, read again only for a RAC sum or a collector's peaks)
//! and a small head (figures, interval, warnings) that the databases are built from. A run of
//! more inputs than `Settings::spill_after` (`--spill-after`) writes the first two to one
//! unnamed temporary file as they arrive (`tempfile::tempfile`: created in `TMPDIR`, readable by
//! this process only, removed by the system when the run ends, however it ends) and reads each
//! back when it is needed:
//! - an analysis as the pretty JSON the document prints (`serde_json`, at indent 0), deflated
//!   (`flate2`, fastest level: the JSON of an hourly report is 10–20 KB, about 3 KB deflated);
//! - kept rows as `KeptRows::to_bytes` writes them.
//!
//! This module knows only bytes; `held.rs` decides what goes in.
//!
//! The file is written during reading and read after it ([`Spill::finish`]), so a record's place
//! is a [`Span`] (offset, length) and the file needs no index of its own.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::{Mutex, PoisonError};

/// Where one record sits in the spill file: byte offset and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    at: u64,
    len: u32,
}

/// The spill file while the run writes it.
#[derive(Debug)]
pub struct Spill {
    out: BufWriter<File>,
    at: u64,
    /// One deflate state and output buffer for every record (a new encoder per record would
    /// allocate and free its ~300 KB of tables each time, which fragments the heap).
    z: flate2::Compress,
    zbuf: Vec<u8>,
    /// A buffer for the callers' records ([`Spill::buffer`]).
    buf: Vec<u8>,
}

impl Spill {
    /// A new, empty spill file in the system's temporary directory.
    ///
    /// # Errors
    /// When the temporary directory cannot hold a file (`TMPDIR` unwritable).
    pub fn new() -> io::Result<Spill> {
        Ok(Spill {
            out: BufWriter::with_capacity(1 << 16, tempfile::tempfile()?),
            at: 0,
            z: flate2::Compress::new(flate2::Compression::fast(), false),
            zbuf: Vec::new(),
            buf: Vec::new(),
        })
    }

    /// Appends `bytes` as one record.
    ///
    /// # Errors
    /// A write error of the file (the disk full), or a record of 4 GiB or more.
    pub fn put(&mut self, bytes: &[u8]) -> io::Result<Span> {
        let len = u32::try_from(bytes.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a record of 4 GiB"))?;
        self.out.write_all(bytes)?;
        let span = Span { at: self.at, len };
        self.at += u64::from(len);
        Ok(span)
    }

    /// An empty buffer to write a record into, reused from record to record (give it back to
    /// [`Spill::put_buffer`] or [`Spill::put_buffer_deflated`]).
    pub fn buffer(&mut self) -> Vec<u8> {
        let mut b = std::mem::take(&mut self.buf);
        b.clear();
        b
    }

    /// Appends `b` (from [`Spill::buffer`]) as one record, and keeps the buffer.
    ///
    /// # Errors
    /// As [`Spill::put`].
    pub fn put_buffer(&mut self, b: Vec<u8>) -> io::Result<Span> {
        let span = self.put(&b);
        self.buf = b;
        span
    }

    /// Appends the JSON text `b` (from [`Spill::buffer`]) deflated (read back with
    /// [`Spilled::json`]), and keeps the buffer.
    ///
    /// # Errors
    /// As [`Spill::put`].
    pub fn put_buffer_deflated(&mut self, b: Vec<u8>) -> io::Result<Span> {
        let span = self.put_deflated(&b);
        self.buf = b;
        span
    }

    /// Appends `json` deflated (read back with [`Spilled::json`]).
    ///
    /// # Errors
    /// As [`Spill::put`]; a deflate error (not expected) as `Other`.
    pub fn put_deflated(&mut self, json: &[u8]) -> io::Result<Span> {
        self.z.reset();
        let mut zbuf = std::mem::take(&mut self.zbuf);
        zbuf.clear();
        let mut input = json;
        loop {
            if zbuf.capacity() - zbuf.len() < 4096 {
                zbuf.reserve(input.len() / 4 + 4096);
            }
            let before = self.z.total_in();
            let status = self
                .z
                .compress_vec(input, &mut zbuf, flate2::FlushCompress::Finish)
                .map_err(io::Error::other)?;
            input = &input[(self.z.total_in() - before) as usize..];
            if status == flate2::Status::StreamEnd {
                break;
            }
        }
        let span = self.put(&zbuf);
        self.zbuf = zbuf;
        span
    }

    /// The file, written out, ready to be read.
    ///
    /// # Errors
    /// A write error of the last buffered records.
    pub fn finish(self) -> io::Result<Spilled> {
        let file = self
            .out
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        Ok(Spilled {
            file: Mutex::new(file),
        })
    }
}

/// The spill file once written: records are read back by their [`Span`].
#[derive(Debug)]
pub struct Spilled {
    file: Mutex<File>,
}

impl Spilled {
    /// The record at `span`, as written.
    ///
    /// # Errors
    /// A read error of the file.
    pub fn get(&self, span: Span) -> io::Result<Vec<u8>> {
        let mut f = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        f.seek(SeekFrom::Start(span.at))?;
        let mut buf = vec![0; span.len as usize];
        f.read_exact(&mut buf)?;
        Ok(buf)
    }

    /// The record at `span`, written by [`Spill::put_deflated`], inflated.
    ///
    /// # Errors
    /// A read error, or a record that does not inflate (`InvalidData`).
    pub fn json(&self, span: Span) -> io::Result<Vec<u8>> {
        let z = self.get(span)?;
        let mut out = Vec::with_capacity(z.len() * 8);
        flate2::read::DeflateDecoder::new(&z[..]).read_to_end(&mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records come back as written, in any order, plain or deflated; an empty record is one.
    #[test]
    fn records_come_back_as_written() {
        let mut s = Spill::new().unwrap();
        let a = s.put(b"first").unwrap();
        let json = br#"{"a": [1, 2, 3], "b": "text text text text"}"#.repeat(50);
        let b = s.put_deflated(&json).unwrap();
        let c = s.put(b"").unwrap();
        let d = s.put(b"last").unwrap();
        // The buffers are reused: a second deflated record after a plain one.
        let mut buf = s.buffer();
        buf.extend_from_slice(&json[..100]);
        let e = s.put_buffer_deflated(buf).unwrap();
        let buf = s.buffer();
        assert!(buf.is_empty() && buf.capacity() >= 100);
        let f = s.finish().unwrap();
        assert_eq!(f.json(e).unwrap(), &json[..100]);
        assert_eq!(f.get(d).unwrap(), b"last");
        assert_eq!(f.json(b).unwrap(), json);
        assert!(f.get(b).unwrap().len() < json.len() / 10);
        assert_eq!(f.get(a).unwrap(), b"first");
        assert_eq!(f.get(c).unwrap(), b"");
    }
}
