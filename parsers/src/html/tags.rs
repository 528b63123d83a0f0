//! The byte-level lexing of tags for the scanner: which tag a name is ([`classify`]), the rest
//! of a start tag with the one attribute kept ([`tag_rest`]), and where comments, raw-text
//! elements and scripts end. Works on bytes and offsets; allocates nothing.

use memchr::{memchr, memmem};

/// The tags the scanner tells apart; everything else is [`Tag::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    Table,
    Tr,
    Td,
    Th,
    /// `<br>`, `<p>`, `<div>`: a space inside a cell.
    Break,
    /// `<h1>`, `<h2>`, `<h3>`.
    Heading,
    Title,
    Html,
    Body,
    /// `<textarea>`: text with character references up to `</textarea>`, like `<title>`.
    Textarea,
    Script,
    /// `<style>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframe>`, `<noscript>`: raw text.
    RawText,
    /// `<plaintext>`: the rest of the file is text.
    Plaintext,
    Other,
}

pub(super) fn classify(name: &[u8]) -> Tag {
    let mut buf = [0u8; 9];
    let Some(low) = buf.get_mut(..name.len()) else {
        return Tag::Other;
    };
    for (d, s) in low.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    match &*low {
        b"table" => Tag::Table,
        b"tr" => Tag::Tr,
        b"td" => Tag::Td,
        b"th" => Tag::Th,
        b"br" | b"p" | b"div" => Tag::Break,
        b"h1" | b"h2" | b"h3" => Tag::Heading,
        b"title" => Tag::Title,
        b"html" => Tag::Html,
        b"body" => Tag::Body,
        b"textarea" => Tag::Textarea,
        b"script" => Tag::Script,
        // html5gum's `naive_next_state` list ("noframe", not "noframes").
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframe" | b"noscript" => Tag::RawText,
        b"plaintext" => Tag::Plaintext,
        _ => Tag::Other,
    }
}

/// Where `needle` first occurs in `hay`: [`memchr`] with the first bytes looked at one by one.
/// In AWR markup the next `<`, the closing quote of a value or an `&` in a cell is usually a few
/// bytes away, where a plain loop is cheaper than memchr's set-up (this search was about 9 % of
/// a fleet run through memchr alone: `docs/performance.md`, "Fleet CPU").
#[inline]
pub(super) fn find_byte(needle: u8, hay: &[u8]) -> Option<usize> {
    const NEAR: usize = 16;
    let near = &hay[..hay.len().min(NEAR)];
    if let Some(k) = near.iter().position(|&c| c == needle) {
        return Some(k);
    }
    if hay.len() <= NEAR {
        return None;
    }
    memchr(needle, &hay[NEAR..]).map(|k| k + NEAR)
}

/// White space inside tags (CR too: the WHATWG input stream turns it into LF).
#[inline]
fn is_tag_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Ends a tag or attribute name.
#[inline]
pub(super) fn ends_name(c: u8) -> bool {
    is_tag_space(c) || c == b'/' || c == b'>'
}

/// Which attributes of a start tag to keep.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    None,
    Summary,
    Colspan,
}

/// Reads the rest of a tag from `i` (just after its name) to its `>`, keeping the raw value of
/// the first attribute named like `want`. Returns the offset after `>` and that value, or `None`
/// when the file ends inside the tag (the tag is then dropped, as WHATWG does).
pub(super) fn tag_rest(
    b: &[u8],
    mut i: usize,
    want: Want,
) -> Option<(usize, Option<(usize, usize)>)> {
    let n = b.len();
    // Fast path: no attributes (`<tr>`, `</td>`).
    if b.get(i) == Some(&b'>') {
        return Some((i + 1, None));
    }
    let wanted: &[u8] = match want {
        Want::None => b"",
        Want::Summary => b"summary",
        Want::Colspan => b"colspan",
    };
    let mut found: Option<(usize, usize)> = None;
    // Whether the last attribute read is the wanted one and may still get a value.
    let mut current = false;
    // After an attribute name (may be followed by `=`), as opposed to before one.
    let mut after_name = false;
    loop {
        while i < n && is_tag_space(b[i]) {
            i += 1;
        }
        let c = *b.get(i)?;
        match c {
            b'>' => return Some((i + 1, found)),
            b'/' => {
                // Self-closing start tag state: `/>` ends the tag, anything else is reconsumed
                // before an attribute name.
                i += 1;
                if *b.get(i)? == b'>' {
                    return Some((i + 1, found));
                }
                after_name = false;
                current = false;
            }
            b'=' if after_name => {
                i += 1;
                while i < n && is_tag_space(b[i]) {
                    i += 1;
                }
                let (start, end) = match *b.get(i)? {
                    q @ (b'"' | b'\'') => {
                        let end = i + 1 + find_byte(q, &b[i + 1..])?;
                        let v = (i + 1, end);
                        i = end + 1;
                        v
                    }
                    b'>' => (i, i),
                    _ => {
                        let start = i;
                        while i < n && !is_tag_space(b[i]) && b[i] != b'>' {
                            i += 1;
                        }
                        if i == n {
                            return None;
                        }
                        (start, i)
                    }
                };
                if current {
                    found = Some((start, end));
                }
                after_name = false;
                current = false;
            }
            _ => {
                // An attribute name; a leading `=` belongs to it.
                let start = i;
                i += 1;
                while i < n && !ends_name(b[i]) && b[i] != b'=' {
                    i += 1;
                }
                // The first attribute of a name wins, with or without a value.
                current = want != Want::None
                    && found.is_none()
                    && b[start..i].eq_ignore_ascii_case(wanted);
                if current {
                    found = Some((i, i));
                }
                after_name = true;
            }
        }
    }
}

/// Where the end tag `</name` (any case, followed by space, `/` or `>`) of a raw-text element
/// starts at or after `from`, and where its name ends.
pub(super) fn find_end_tag(b: &[u8], mut from: usize, name: &[u8]) -> Option<(usize, usize)> {
    while let Some(k) = memchr(b'<', &b[from..]) {
        let lt = from + k;
        let end = lt + 2 + name.len();
        if b.get(lt + 1) == Some(&b'/')
            && b.get(lt + 2..end)
                .is_some_and(|s| s.eq_ignore_ascii_case(name))
            && b.get(end).is_some_and(|&c| ends_name(c))
        {
            return Some((lt, end));
        }
        from = lt + 1;
    }
    None
}

/// Where `</script` ends the content of a `<script>` that starts at `from`, following the WHATWG
/// script data states (`<!--` escapes, and `<script>` inside them, during which `</script>` does
/// not end the element). Returns the offset of `<` and the end of the name.
pub(super) fn find_script_end(b: &[u8], from: usize) -> Option<(usize, usize)> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum S {
        Data,
        Escaped,
        EscapedDash,
        EscapedDashDash,
        Double,
        DoubleDash,
        DoubleDashDash,
    }
    let n = b.len();
    let alpha_run = |i: usize| {
        let mut j = i;
        while j < n && b[j].is_ascii_alphabetic() {
            j += 1;
        }
        j
    };
    let mut s = S::Data;
    let mut i = from;
    while i < n {
        let c = b[i];
        match s {
            S::Data => {
                let k = memchr(b'<', &b[i..])?;
                let lt = i + k;
                match b.get(lt + 1) {
                    Some(b'/') => {
                        let end = alpha_run(lt + 2);
                        if b[lt + 2..end].eq_ignore_ascii_case(b"script")
                            && b.get(end).is_some_and(|&c| ends_name(c))
                        {
                            return Some((lt, end));
                        }
                        i = lt + 2;
                    }
                    Some(b'!') => {
                        if b.get(lt + 2..lt + 4) == Some(b"--") {
                            // The second `-` leads to the escaped dash dash state.
                            s = S::EscapedDashDash;
                            i = lt + 4;
                        } else {
                            i = lt + 2;
                        }
                    }
                    _ => i = lt + 1,
                }
                continue;
            }
            S::Escaped | S::EscapedDash | S::EscapedDashDash => {
                match c {
                    b'-' => {
                        s = match s {
                            S::Escaped => S::EscapedDash,
                            _ => S::EscapedDashDash,
                        }
                    }
                    b'<' => {
                        match b.get(i + 1) {
                            Some(b'/') => {
                                let end = alpha_run(i + 2);
                                if b[i + 2..end].eq_ignore_ascii_case(b"script")
                                    && b.get(end).is_some_and(|&c| ends_name(c))
                                {
                                    return Some((i, end));
                                }
                                s = S::Escaped;
                                i = end.max(i + 2);
                                continue;
                            }
                            Some(c) if c.is_ascii_alphabetic() => {
                                let end = alpha_run(i + 1);
                                s = if b[i + 1..end].eq_ignore_ascii_case(b"script")
                                    && b.get(end).is_some_and(|&c| ends_name(c))
                                {
                                    S::Double
                                } else {
                                    S::Escaped
                                };
                                // The delimiter after the name is consumed by the switch.
                                i = if s == S::Double { end + 1 } else { end };
                                continue;
                            }
                            _ => s = S::Escaped,
                        }
                    }
                    b'>' if s == S::EscapedDashDash => s = S::Data,
                    _ => s = S::Escaped,
                }
            }
            S::Double | S::DoubleDash | S::DoubleDashDash => match c {
                b'-' => {
                    s = match s {
                        S::Double => S::DoubleDash,
                        _ => S::DoubleDashDash,
                    }
                }
                b'<' => {
                    if b.get(i + 1) == Some(&b'/') {
                        let end = alpha_run(i + 2);
                        if b[i + 2..end].eq_ignore_ascii_case(b"script")
                            && b.get(end).is_some_and(|&c| ends_name(c))
                        {
                            s = S::Escaped;
                            i = end + 1;
                        } else {
                            s = S::Double;
                            i = end;
                        }
                        continue;
                    }
                    s = S::Double;
                }
                b'>' if s == S::DoubleDashDash => s = S::Data,
                _ => s = S::Double,
            },
        }
        i += 1;
    }
    None
}

/// The offset after the `>` that ends a bogus comment (or doctype) whose content starts at `from`.
pub(super) fn bogus_comment_end(b: &[u8], from: usize) -> usize {
    match b.get(from..).and_then(|r| memchr(b'>', r)) {
        Some(k) => from + k + 1,
        None => b.len(),
    }
}

/// The offset after the end of the comment `<!--` at `lt`: the first `-->` (which may share the
/// dashes of `<!--`, as in `<!-->` and `<!--->`) or `--!>`.
pub(super) fn comment_end(b: &[u8], lt: usize) -> usize {
    let arrow = memmem::find(&b[lt + 2..], b"-->").map(|k| lt + 2 + k + 3);
    // `--!>` can only end the comment before the first `-->`: search no further than that.
    let limit = arrow.unwrap_or(b.len());
    let bang = b
        .get(lt + 4..limit)
        .and_then(|r| memmem::find(r, b"--!>"))
        .map(|k| lt + 4 + k + 4);
    match (arrow, bang) {
        (_, Some(e)) => e,
        (Some(e), None) => e,
        (None, None) => b.len(),
    }
}
