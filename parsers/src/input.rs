//! Shared input plumbing: read bytes, reject binary, decode to text.
//!
//! AWR reports are written by SQL*Plus in the database character set; files re-saved on Windows are
//! often windows-1252, sometimes UTF-16 with a byte-order mark. A UTF-16 BOM selects UTF-16, and so
//! does UTF-16 without one when its first code units are ASCII ([`utf16_without_bom`]); valid
//! UTF-8 is used as is (a leading BOM is dropped); anything else is decoded as windows-1252 with
//! [`encoding_rs`], which maps every byte, so decoding never fails. gzip data is decompressed
//! first (with [`flate2`]); binary sysstat `saDD` files are refused with the `sadf` command to run.
//! [`crate::parse_path_into`] hands streaming parsers UTF-16 input already decoded to UTF-8.
//!
//! Files are read under [`Limits`] (issue 14): [`check_file_size`] before a file is opened, and
//! [`open_stream_capped`] / [`read_capped`] while it is read, a gzip stream decompressed on the
//! fly and stopped at its cap ([`ParseError::TooLarge`]), never buffered whole. [`decode`] of
//! bytes already in memory (standard input) still gunzips them whole, at most [`GUNZIP_LIMIT`].

use std::borrow::Cow;
use std::path::Path;

use crate::error::ParseError;

/// Text decoded from an input file, with the encoding that was used.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// The decoded text.
    pub text: Cow<'a, str>,
    /// `"UTF-8"`, `"UTF-16LE"`, `"UTF-16BE"` or `"windows-1252"`.
    pub encoding: &'static str,
    /// The bytes were gzip-compressed (decompressed here, e.g. OSWatcher `.dat.gz` archives).
    pub gzip: bool,
}

/// Largest decompressed size accepted from a gzip input (a guard against decompression bombs).
pub const GUNZIP_LIMIT: u64 = 4 << 30;

/// Caps on what one input may make sizer read (issue 14: bounded resources). Every input is
/// checked against them as it is read, so one oversized file fails alone with
/// [`ParseError::TooLarge`] and the rest of a batch goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest input file on disk, bytes (checked before it is opened, and while it is read, in
    /// case it grows): [`Limits::DEFAULT_FILE_SIZE`].
    pub max_file_size: u64,
    /// Largest decompressed size of a gzip input, bytes: the stream stops at the cap (a gzip
    /// bomb is refused after that many bytes, never buffered whole):
    /// [`Limits::DEFAULT_DECOMPRESSED_SIZE`].
    pub max_decompressed_size: u64,
}

impl Limits {
    /// 64 GiB: OS logs stream in bounded memory whatever their size, so the cap is far above a
    /// week of `iostat -x 1` on 100 devices (about 30 GB); it stops a path that names a disk
    /// image or a runaway file. Database reports are read whole: a real AWR report is a few MB.
    pub const DEFAULT_FILE_SIZE: u64 = 64 << 30;
    /// 64 GiB, as [`Limits::DEFAULT_FILE_SIZE`]: a `.gz` log may decompress to many times its
    /// size (iostat text compresses about 10:1), and it is streamed, never held.
    pub const DEFAULT_DECOMPRESSED_SIZE: u64 = 64 << 30;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_size: Limits::DEFAULT_FILE_SIZE,
            max_decompressed_size: Limits::DEFAULT_DECOMPRESSED_SIZE,
        }
    }
}

pub use crate::error::human_bytes;

/// The payload of the I/O error a [`Capped`] reader returns at its cap.
#[derive(Debug)]
struct CapReached(ParseError);

impl std::fmt::Display for CapReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for CapReached {}

/// A reader that fails (an I/O error carrying [`ParseError::TooLarge`]) once more than its cap
/// would be read, instead of reading on.
struct Capped<R> {
    inner: R,
    left: u64,
    limit: u64,
    what: &'static str,
    flag: &'static str,
}

impl<R: std::io::Read> std::io::Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // Read one byte past the cap, to tell "exactly the cap" from "more".
        let want = buf
            .len()
            .min(self.left.saturating_add(1).min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            return Err(std::io::Error::other(CapReached(ParseError::TooLarge {
                what: self.what,
                limit: self.limit,
                flag: self.flag,
            })));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// The [`ParseError::TooLarge`] an I/O error of a capped reader ([`open_stream_capped`]) carries, else
/// [`ParseError::Io`] naming `path`.
pub fn io_error(path: &Path, source: std::io::Error) -> ParseError {
    if source.get_ref().is_some_and(|e| e.is::<CapReached>()) {
        if let Ok(cap) = source
            .into_inner()
            .expect("checked")
            .downcast::<CapReached>()
        {
            return cap.0;
        }
        unreachable!("checked to be CapReached");
    }
    ParseError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Refuses a file larger than [`Limits::max_file_size`] on disk, before it is opened.
///
/// # Errors
/// [`ParseError::TooLarge`]; [`ParseError::Io`] when it cannot be looked at.
pub fn check_file_size(path: &Path, limits: &Limits) -> Result<(), ParseError> {
    let len = std::fs::metadata(path)
        .map_err(|source| io_error(path, source))?
        .len();
    if len > limits.max_file_size {
        return Err(ParseError::TooLarge {
            what: "the file",
            limit: limits.max_file_size,
            flag: "--max-file-size",
        });
    }
    Ok(())
}

/// UTF-16 text without a byte-order mark (some exporters write it so): `head` starts with an
/// ASCII code unit (one byte zero, the other not, < 0x80), at least 3 in 4 of its first 256 code
/// units are ASCII and none is NUL. Returns the encoding and its name, little-endian first.
/// Binary data rarely has that shape; text in UTF-8 or windows-1252 never has (it holds no NUL).
pub fn utf16_without_bom(head: &[u8]) -> Option<(&'static encoding_rs::Encoding, &'static str)> {
    let n = (head.len() / 2).min(256);
    if n < 2 {
        return None;
    }
    let units = || head[..2 * n].chunks_exact(2);
    for (hi, enc, name) in [
        (1, encoding_rs::UTF_16LE, "UTF-16LE"),
        (0, encoding_rs::UTF_16BE, "UTF-16BE"),
    ] {
        let ascii = |u: &[u8]| u[hi] == 0 && u[1 - hi] != 0 && u[1 - hi] < 0x80;
        let first_ascii = units().next().is_some_and(ascii);
        let count = units().filter(|u| ascii(u)).count();
        let nul = units().any(|u| u == [0, 0]);
        if first_ascii && !nul && 4 * count >= 3 * n {
            return Some((enc, name));
        }
    }
    None
}

/// Decompresses gzip data (all members, as `gunzip` does).
///
/// # Errors
/// [`ParseError::Gzip`] naming the gzip problem (truncated or corrupt stream, or more
/// than [`GUNZIP_LIMIT`] bytes).
fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, ParseError> {
    use std::io::Read;
    let mut out = Vec::with_capacity(bytes.len() * 4);
    let mut r = flate2::read::MultiGzDecoder::new(bytes).take(GUNZIP_LIMIT + 1);
    r.read_to_end(&mut out).map_err(|e| ParseError::Gzip {
        reason: format!(
            "gzip-compressed data that cannot be decompressed ({e}): expected a complete .gz file"
        ),
    })?;
    if out.len() as u64 > GUNZIP_LIMIT {
        return Err(ParseError::Gzip {
            reason: format!(
                "gzip data decompresses to more than {} GiB",
                GUNZIP_LIMIT >> 30
            ),
        });
    }
    Ok(out)
}

/// Reads a whole file. Errors name the path.
pub fn read_file(path: &Path) -> Result<Vec<u8>, ParseError> {
    std::fs::read(path).map_err(|source| ParseError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Opens a file for streaming line by line: a buffered reader over its bytes, decompressed on
/// the fly when the file is gzip (so a large log is never held in memory whole). UTF-16 input
/// ([`is_utf16`]) is decoded on the fly by the caller, [`crate::parse_path_into`].
///
/// # Errors
/// [`ParseError::Io`] naming the path.
pub fn open_stream(path: &Path) -> Result<Box<dyn std::io::BufRead + Send>, ParseError> {
    open_stream_capped(path, &Limits::default())
}

/// [`open_stream`] under `limits`: the bytes read from the file stop at
/// [`Limits::max_file_size`] and, for gzip, the decompressed bytes at
/// [`Limits::max_decompressed_size`]; past a cap the reader fails with an I/O error that
/// [`io_error`] turns into [`ParseError::TooLarge`]. Nothing is buffered beyond the reader's
/// 1 MiB buffer.
///
/// # Errors
/// [`ParseError::Io`] naming the path.
pub fn open_stream_capped(
    path: &Path,
    limits: &Limits,
) -> Result<Box<dyn std::io::BufRead + Send>, ParseError> {
    open_buffered(path, limits, 1 << 20)
}

/// [`open_stream_capped`] with a reader buffer of `capacity` bytes: 1 MiB for a stream, the
/// size of the head for [`peek_text`] (a 1 MiB buffer read 1 MiB of every file, and zeroed it,
/// to detect its format from 64 KiB: `docs/performance.md`).
fn open_buffered(
    path: &Path,
    limits: &Limits,
    capacity: usize,
) -> Result<Box<dyn std::io::BufRead + Send>, ParseError> {
    use std::io::{BufReader, Read};
    let file_cap = |f: std::fs::File| Capped {
        inner: f,
        left: limits.max_file_size,
        limit: limits.max_file_size,
        what: "the file",
        flag: "--max-file-size",
    };
    let io = |source| ParseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::open(path).map_err(io)?;
    let mut magic = [0u8; 2];
    let n = f.read(&mut magic).map_err(io)?;
    let f = std::fs::File::open(path).map_err(io)?;
    if n == 2 && magic == [0x1F, 0x8B] {
        let gz = flate2::read::MultiGzDecoder::new(BufReader::new(file_cap(f)));
        Ok(Box::new(BufReader::with_capacity(
            capacity,
            Capped {
                inner: gz,
                left: limits.max_decompressed_size,
                limit: limits.max_decompressed_size,
                what: "the decompressed gzip data",
                flag: "--max-decompressed-size",
            },
        )))
    } else {
        Ok(Box::new(BufReader::with_capacity(capacity, file_cap(f))))
    }
}

/// The whole content of a file, decompressed when gzip, read through [`open_stream_capped`]:
/// at most [`Limits::max_file_size`] bytes of a plain file and
/// [`Limits::max_decompressed_size`] bytes of decompressed gzip, so a document read whole (an
/// AWR report) stops at the cap instead of growing, and a `.gz` is never held compressed and
/// decompressed at once.
///
/// # Errors
/// [`ParseError::TooLarge`] past a cap; [`ParseError::Io`] naming the path; a corrupt gzip
/// stream is [`ParseError::Gzip`].
pub fn read_capped(path: &Path, limits: &Limits) -> Result<Vec<u8>, ParseError> {
    use std::io::Read;
    let gzip = is_gzip_file(path);
    if !gzip {
        return read_plain_capped(path, limits);
    }
    let mut out = Vec::new();
    open_stream_capped(path, limits)?
        .read_to_end(&mut out)
        .map_err(|e| match io_error(path, e) {
            ParseError::Io { source, .. } if gzip => ParseError::Gzip {
                reason: format!(
                    "gzip-compressed data that cannot be decompressed ({source}): expected a \
                     complete .gz file"
                ),
            },
            e => e,
        })?;
    Ok(out)
}

/// A plain (not gzip) file read whole, at most [`Limits::max_file_size`] bytes: what
/// [`read_capped`] reads through [`open_stream_capped`], read here in one exact-size buffer
/// (the file's length) with no buffered layer, so no byte is zeroed or copied twice (the
/// streamed read cost about 2 % of a batch of AWR reports: `docs/performance.md`).
///
/// # Errors
/// [`ParseError::TooLarge`] past the cap; [`ParseError::Io`] naming the path.
fn read_plain_capped(path: &Path, limits: &Limits) -> Result<Vec<u8>, ParseError> {
    use std::io::Read;
    let io = |source| ParseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let too_large = || ParseError::TooLarge {
        what: "the file",
        limit: limits.max_file_size,
        flag: "--max-file-size",
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len > limits.max_file_size {
        return Err(too_large());
    }
    // One byte past the cap tells "exactly the cap" from "more" (a file that grew since).
    let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0).saturating_add(1));
    file.take(limits.max_file_size.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(io)?;
    if out.len() as u64 > limits.max_file_size {
        return Err(too_large());
    }
    Ok(out)
}

/// The whole content of a reader that is no file (standard input), decompressed when it is
/// gzip, under `limits` as [`read_capped`] reads a file: at most [`Limits::max_file_size`]
/// bytes are read from it (`what` names it in the error, e.g. `standard input`), and at most
/// [`Limits::max_decompressed_size`] bytes are decompressed, on the fly (the compressed bytes
/// are never held whole). Past a cap the read stops there.
///
/// # Errors
/// [`ParseError::TooLarge`] past a cap; [`ParseError::Io`] naming `name`; a corrupt gzip
/// stream is [`ParseError::Gzip`].
pub fn read_reader_capped<R: std::io::Read>(
    mut r: R,
    name: &Path,
    limits: &Limits,
    what: &'static str,
) -> Result<Vec<u8>, ParseError> {
    use std::io::Read;
    let io = |e| io_error(name, e);
    let mut magic = [0u8; 2];
    let mut n = 0;
    while n < 2 {
        match r.read(&mut magic[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io(e)),
        }
    }
    let raw = Capped {
        inner: std::io::Cursor::new(magic[..n].to_vec()).chain(r),
        left: limits.max_file_size,
        limit: limits.max_file_size,
        what,
        flag: "--max-file-size",
    };
    let mut out = Vec::new();
    if n == 2 && magic == [0x1F, 0x8B] {
        Capped {
            inner: flate2::read::MultiGzDecoder::new(std::io::BufReader::new(raw)),
            left: limits.max_decompressed_size,
            limit: limits.max_decompressed_size,
            what: "the decompressed gzip data",
            flag: "--max-decompressed-size",
        }
        .read_to_end(&mut out)
        .map_err(|e| match io(e) {
            ParseError::Io { source, .. } => ParseError::Gzip {
                reason: format!(
                    "gzip-compressed data that cannot be decompressed ({source}): expected a \
                     complete gzip stream"
                ),
            },
            e => e,
        })?;
    } else {
        let mut raw = raw;
        raw.read_to_end(&mut out).map_err(io)?;
    }
    Ok(out)
}

/// Whether the file starts with the gzip magic bytes.
fn is_gzip_file(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| magic == [0x1F, 0x8B])
}

/// Whether `head`, the first bytes of an input (decompressed), is UTF-16: a byte-order mark in
/// either order, or [`utf16_without_bom`].
pub fn is_utf16(head: &[u8]) -> bool {
    head.starts_with(b"\xFF\xFE")
        || head.starts_with(b"\xFE\xFF")
        || utf16_without_bom(head).is_some()
}

/// The first `max` bytes of a file's content (decompressed when gzip), decoded like
/// [`decode`]: enough to detect its format without reading it all.
///
/// # Errors
/// As [`open_stream`] and [`decode`].
pub fn peek_text(path: &Path, max: usize) -> Result<String, ParseError> {
    use std::io::Read;
    let mut head = Vec::with_capacity(max);
    open_buffered(path, &Limits::default(), max.clamp(1, 1 << 20))?
        .take(max as u64)
        .read_to_end(&mut head)
        .map_err(|source| ParseError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    // A multi-byte character cut at the end is not an encoding problem.
    if let Err(e) = std::str::from_utf8(&head) {
        if e.error_len().is_none() {
            head.truncate(e.valid_up_to());
        }
    }
    Ok(decode(&head)?.text.into_owned())
}

/// Decodes bytes to text after checking they are not empty and not binary.
///
/// # Errors
/// [`ParseError::Empty`] for no bytes or only white space; [`ParseError::Binary`] when a NUL byte
/// occurs in the first 64 KiB.
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, ParseError> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ParseError::Empty);
    }
    if let Some((enc, name)) = utf16_without_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(bytes);
        return Ok(Decoded {
            text,
            encoding: name,
            gzip: false,
        });
    }
    // A UTF-16 byte-order mark (Windows tools save reports this way): decode, do not reject.
    for (bom, enc, name) in [
        (&b"\xFF\xFE"[..], encoding_rs::UTF_16LE, "UTF-16LE"),
        (&b"\xFE\xFF"[..], encoding_rs::UTF_16BE, "UTF-16BE"),
    ] {
        if let Some(rest) = bytes.strip_prefix(bom) {
            let (text, _) = enc.decode_without_bom_handling(rest);
            return Ok(Decoded {
                text,
                encoding: name,
                gzip: false,
            });
        }
    }
    if bytes.starts_with(b"\x1F\x8B") {
        let out = gunzip(bytes)?;
        let inner = decode(&out)?;
        return Ok(Decoded {
            text: Cow::Owned(inner.text.into_owned()),
            encoding: inner.encoding,
            gzip: true,
        });
    }
    for (magic, what, tool) in [
        (&b"BZh"[..], "bzip2", "bunzip2"),
        (&b"\x1F\x9D"[..], "compress (.Z)", "uncompress"),
        (&b"\xFD7zXZ\x00"[..], "xz", "unxz"),
        (&b"PK\x03\x04"[..], "zip", "unzip"),
    ] {
        if bytes.starts_with(magic)
            && (magic != b"BZh" || bytes.get(3).is_some_and(u8::is_ascii_digit))
        {
            return Err(ParseError::UnknownFormat {
                reason: format!(
                    "{what}-compressed data: decompress it first ({tool}); sizer reads gzip itself"
                ),
            });
        }
    }
    // sysstat's binary data files (`/var/log/sa/saDD`) start with SYSSTAT_MAGIC 0xd596 (either
    // byte order: the file is in the collecting host's endianness).
    if bytes.len() > 4 && (bytes.starts_with(b"\x96\xd5") || bytes.starts_with(b"\xd5\x96")) {
        return Err(ParseError::UnknownFormat {
            reason: "a binary sysstat data file (saDD): sizer reads sar's text, not its binary \
                     files. Convert it with the sysstat version that wrote it, e.g. \
                     `sadf -d saDD -- -d -b -p > saDD.csv` or `sar -d -b -p -f saDD > saDD.txt`, \
                     and pass that"
                .into(),
        });
    }
    let head = &bytes[..bytes.len().min(64 * 1024)];
    if let Some(offset) = head.iter().position(|&b| b == 0) {
        return Err(ParseError::Binary { offset });
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(Decoded {
            text: Cow::Borrowed(s),
            encoding: "UTF-8",
            gzip: false,
        }),
        Err(_) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            Ok(Decoded {
                text,
                encoding: "windows-1252",
                gzip: false,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_is_decoded_not_rejected() {
        // 0xB5 is MICRO SIGN in windows-1252 and invalid as UTF-8 on its own.
        let d = decode(b"<td>152.25\xB5s</td>").unwrap();
        assert_eq!(d.encoding, "windows-1252");
        assert_eq!(d.text, "<td>152.25\u{b5}s</td>");
    }

    #[test]
    fn empty_and_binary_are_errors() {
        assert!(matches!(decode(b""), Err(ParseError::Empty)));
        assert!(matches!(decode(b" \r\n\t"), Err(ParseError::Empty)));
        assert!(matches!(
            decode(b"\x7fELF\x02\x01\x00\x00"),
            Err(ParseError::Binary { offset: 6 })
        ));
    }

    #[test]
    fn utf16_with_bom_is_decoded_and_gzip_is_named() {
        let mut le = vec![0xFF, 0xFE];
        for u in "<html>µ".encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&le).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("<html>µ", "UTF-16LE"));
        // Without the byte-order mark, in either order: decoded, not "binary".
        let d = decode(&le[2..]).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("<html>µ", "UTF-16LE"));
        let be: Vec<u8> = "<html>µ"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let d = decode(&be).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("<html>µ", "UTF-16BE"));
        // Binary with NUL bytes is still binary.
        assert!(matches!(
            decode(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00"),
            Err(ParseError::Binary { .. })
        ));
        let e = decode(b"\x1F\x8B\x08\x00\x00\x00").unwrap_err();
        assert!(e.to_string().contains("gzip"), "{e}");
        // A real gzip stream is decompressed.
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(b"zzz ***Mon Nov 30 08:00:00 UTC 2026\n")
            .unwrap();
        let gz = z.finish().unwrap();
        let d = decode(&gz).unwrap();
        assert!(d.gzip);
        assert!(d.text.starts_with("zzz ***"));
    }

    #[test]
    fn other_compressions_name_their_tool() {
        let e = decode(b"BZh91AY&SY\x00\x01").unwrap_err();
        assert!(e.to_string().contains("bunzip2"), "{e}");
        let e = decode(b"\x1F\x9D\x90zzz").unwrap_err();
        assert!(e.to_string().contains("uncompress"), "{e}");
    }

    #[test]
    fn sysstat_binary_file_says_to_run_sadf() {
        let e = decode(b"\x96\xd5\x0c\x02\x00\x00\x00\x00").unwrap_err();
        assert!(e.to_string().contains("sadf -d"), "{e}");
    }

    #[test]
    fn a_plain_file_read_whole_is_its_bytes_up_to_the_cap_and_the_stream_agrees() {
        use std::io::Read;
        let dir = std::env::temp_dir().join(format!("sizer-read-capped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.txt");
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let cap = |max_file_size| Limits {
            max_file_size,
            ..Limits::default()
        };
        // The whole-file read, the streamed read and the file agree, at and under the cap.
        let mut streamed = Vec::new();
        open_stream_capped(&path, &cap(100_000))
            .unwrap()
            .read_to_end(&mut streamed)
            .unwrap();
        assert_eq!(read_capped(&path, &cap(100_000)).unwrap(), bytes);
        assert_eq!(streamed, bytes);
        // One byte over the cap is refused by both, naming the flag.
        let e = read_capped(&path, &cap(99_999)).unwrap_err();
        assert!(
            matches!(e, ParseError::TooLarge { limit: 99_999, .. }),
            "{e}"
        );
        let mut s = Vec::new();
        let e = open_stream_capped(&path, &cap(99_999))
            .unwrap()
            .read_to_end(&mut s)
            .unwrap_err();
        assert!(matches!(io_error(&path, e), ParseError::TooLarge { .. }));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn utf8_bom_is_dropped() {
        let d = decode(b"\xEF\xBB\xBF<html>").unwrap();
        assert_eq!(d.text, "<html>");
    }
}
