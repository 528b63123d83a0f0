//! Line plumbing every text parser shares: the head of a file that detection looks at, the lines
//! of a stream, clipping a line quoted in a message, and removing terminal colour escapes.
//!
//! A line-oriented parser is written once, over an iterator of lines
//! (`impl Iterator<Item = Result<impl AsRef<str>, ParseError>>`): its whole-text parse feeds it
//! [`text_lines`], and its streaming parse feeds it the lines of [`with_stream_lines`], which are
//! the same lines, so the two cannot disagree.
//!
//! Detection reads only [`head`] (the first 64 KiB), so telling a format costs the same for a
//! 10 KiB report and a 2 GiB log. A line quoted in an error, warning or skipped-line reason is
//! [`clip`]ped so one garbage line cannot make a message megabytes long.

use std::borrow::Cow;
use std::io::BufRead;

use crate::error::ParseError;

/// How many bytes of a text detection looks at.
pub(crate) const HEAD_BYTES: usize = 64 * 1024;

/// Clip length (characters) of the Linux sysstat parsers' quoted lines (iostat, sar, sadf -d).
pub(crate) const CLIP_SYSSTAT: usize = 120;

/// Clip length (characters) of the AIX/Solaris iostat, nmon and OSWatcher parsers' quoted lines.
pub(crate) const CLIP_UNIX: usize = 100;

/// The first [`HEAD_BYTES`] of `text`, cut back to a character boundary.
pub(crate) fn head(text: &str) -> &str {
    let mut end = text.len().min(HEAD_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `s` when it has at most `max_chars` characters, else its first `max_chars` characters and `…`.
pub(crate) fn clip(s: &str, max_chars: usize) -> String {
    if s.chars().count() > max_chars {
        format!("{}…", s.chars().take(max_chars).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Removes ANSI SGR escapes (`ESC [ … m`).
pub(crate) fn strip_ansi(line: &str) -> Cow<'_, str> {
    if !line.contains('\u{1b}') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut it = line.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\u{1b}' && it.peek() == Some(&'[') {
            it.next();
            for c in it.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The lines of a whole text as a line-oriented parser takes them: exactly `text.split('\n')`
/// (a CR before the LF is kept, and a text that ends with LF has a last, empty line).
pub(crate) fn text_lines(text: &str) -> impl Iterator<Item = Result<&str, ParseError>> {
    text.split('\n').map(Ok)
}

/// Hands the lines of `src` (already decompressed) to `read`, one at a time, without holding the
/// input: the same lines [`text_lines`] gives for the decoded whole text ([`crate::input::decode`]).
///
/// - Lines are split at LF; a CR before it is kept, and an input that ends with LF (or is empty)
///   has a last, empty line, as `split('\n')` has.
/// - A UTF-8 byte-order mark at the start is dropped.
/// - A line that is not UTF-8 is decoded as windows-1252. The whole-text decoder decodes the whole
///   file so when any line is not UTF-8: the two differ only for a file that mixes both.
/// - An input that starts with a UTF-16 byte-order mark is read whole and decoded first (UTF-16
///   cannot be split at a LF byte).
///
/// # Errors
/// [`ParseError::Io`] (with an empty path: the caller names the file) when reading fails, or
/// whatever `read` returns.
pub(crate) fn with_stream_lines<T>(
    src: &mut dyn BufRead,
    read: impl FnOnce(&mut dyn Iterator<Item = Result<String, ParseError>>) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    let io = |source| ParseError::Io {
        path: Default::default(),
        source,
    };
    let head = src.fill_buf().map_err(io)?;
    if head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        let mut bytes = Vec::new();
        src.read_to_end(&mut bytes).map_err(io)?;
        let decoded = crate::input::decode(&bytes)?;
        let mut lines = decoded.text.split('\n').map(|l| Ok(l.to_string()));
        return read(&mut lines);
    }
    let mut buf = Vec::new();
    let mut first = true;
    let mut ended = false;
    let mut lines = std::iter::from_fn(|| {
        if ended {
            return None;
        }
        buf.clear();
        match src.read_until(b'\n', &mut buf) {
            Ok(n) => {
                let mut line: &[u8] = match buf.strip_suffix(b"\n") {
                    Some(l) => l,
                    None => {
                        // End of input: a last line without LF, or the empty line after one.
                        ended = true;
                        &buf[..n]
                    }
                };
                if std::mem::take(&mut first) {
                    line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
                }
                Some(Ok(match std::str::from_utf8(line) {
                    Ok(s) => s.to_string(),
                    Err(_) => encoding_rs::WINDOWS_1252.decode(line).0.into_owned(),
                }))
            }
            Err(source) => {
                ended = true;
                Some(Err(io(source)))
            }
        }
    });
    read(&mut lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(bytes: &[u8]) -> Vec<String> {
        with_stream_lines(&mut &bytes[..], |lines| lines.collect()).unwrap()
    }

    #[test]
    fn stream_lines_are_the_split_lines_of_the_decoded_text() {
        for bytes in [
            &b"a\r\nb\n"[..],
            b"a\nb",
            b"x\n\n",
            b"\xEF\xBB\xBFa\n\nb\n",
            b"caf\xE9\n",
            b"\xFF\xFEa\x00\n\x00b\x00",
        ] {
            let text = crate::input::decode(bytes).unwrap().text.into_owned();
            let whole: Vec<String> = text_lines(&text).map(|l| l.unwrap().to_string()).collect();
            assert_eq!(streamed(bytes), whole, "{bytes:?}");
        }
        assert_eq!(streamed(b""), vec![String::new()]);
    }

    #[test]
    fn clip_counts_characters_not_bytes() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("µµµµ", 3), "µµµ…");
    }

    #[test]
    fn head_stops_on_a_character_boundary() {
        let s = format!("{}µ", "a".repeat(HEAD_BYTES - 1));
        assert_eq!(head(&s).len(), HEAD_BYTES - 1);
    }

    #[test]
    fn ansi_colour_is_removed() {
        assert_eq!(strip_ansi("\u{1b}[1;32msda\u{1b}[0m 1.0"), "sda 1.0");
    }
}
