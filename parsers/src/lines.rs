//! Line plumbing every text parser shares: the head of a file that detection looks at, clipping a
//! line quoted in a message, and removing terminal colour escapes.
//!
//! Detection reads only [`head`] (the first 64 KiB), so telling a format costs the same for a
//! 10 KiB report and a 2 GiB log. A line quoted in an error, warning or skipped-line reason is
//! [`clip`]ped so one garbage line cannot make a message megabytes long.

use std::borrow::Cow;

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

#[cfg(test)]
mod tests {
    use super::*;

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
