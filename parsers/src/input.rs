//! Shared input plumbing: read bytes, reject binary, decode to text.
//!
//! AWR reports are written by SQL*Plus in the database character set; files re-saved on Windows are
//! often windows-1252, sometimes UTF-16 with a byte-order mark. A UTF-16 BOM selects UTF-16; valid
//! UTF-8 is used as is (a leading BOM is dropped); anything else is decoded as windows-1252 with
//! [`encoding_rs`], which maps every byte, so decoding never fails. gzip data is named as such.

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
}

/// Reads a whole file. Errors name the path.
pub fn read_file(path: &Path) -> Result<Vec<u8>, ParseError> {
    std::fs::read(path).map_err(|source| ParseError::Io {
        path: path.to_path_buf(),
        source,
    })
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
            });
        }
    }
    if bytes.starts_with(b"\x1F\x8B") {
        return Err(ParseError::UnknownFormat {
            reason: "gzip-compressed data: decompress it first (gunzip), then pass the report"
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
        }),
        Err(_) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            Ok(Decoded {
                text,
                encoding: "windows-1252",
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
        let e = decode(b"\x1F\x8B\x08\x00\x00\x00").unwrap_err();
        assert!(e.to_string().contains("gzip"), "{e}");
    }

    #[test]
    fn utf8_bom_is_dropped() {
        let d = decode(b"\xEF\xBB\xBF<html>").unwrap();
        assert_eq!(d.text, "<html>");
    }
}
