//! The mutations: what a case does to its seed, as proptest values that shrink towards fewer
//! and earlier changes.
//!
//! Byte and line edits come first, in the order drawn; a CRLF conversion and a UTF-16
//! re-encoding, when drawn, are applied last, to the whole mutated text.

use proptest::prelude::*;

/// A position in a collection of any size, as a fraction of it (`n / 2^32`), so one value
/// means the same place in a file of any length and shrinks towards its start.
#[derive(Debug, Clone, Copy)]
pub struct At(pub u32);

impl At {
    /// The index in a collection of `size` (> 0) items.
    pub fn index(self, size: usize) -> usize {
        ((size as u64 * self.0 as u64) >> 32) as usize
    }
}

fn at() -> impl Strategy<Value = At> {
    any::<u32>().prop_map(At)
}

/// What replaces a number cell.
#[derive(Debug, Clone, Copy)]
pub enum Cell {
    /// `NaN`.
    Nan,
    /// `inf`.
    Inf,
    /// `-inf`.
    NegInf,
    /// `1e308` (sums of a few overflow to infinity).
    Huge,
    /// `-1`.
    MinusOne,
    /// 40 digits.
    Digits,
    /// The number with its decimal point as a comma (`1.5` → `1,5`; `15` → `15,5`).
    DecimalComma,
    /// Nothing: the cell is empty.
    Empty,
}

impl Cell {
    fn text(self, old: &[u8]) -> Vec<u8> {
        match self {
            Cell::Nan => b"NaN".to_vec(),
            Cell::Inf => b"inf".to_vec(),
            Cell::NegInf => b"-inf".to_vec(),
            Cell::Huge => b"1e308".to_vec(),
            Cell::MinusOne => b"-1".to_vec(),
            Cell::Digits => b"9999999999999999999999999999999999999999".to_vec(),
            Cell::DecimalComma => {
                if old.contains(&b'.') {
                    old.iter()
                        .map(|&b| if b == b'.' { b',' } else { b })
                        .collect()
                } else {
                    [old, b",5"].concat()
                }
            }
            Cell::Empty => Vec::new(),
        }
    }
}

/// One edit of a case.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// XOR one byte with a non-zero mask.
    FlipByte(At, u8),
    /// Keep only the bytes before a point.
    Truncate(At),
    /// Repeat one line.
    DuplicateLine(At),
    /// Remove one line.
    DeleteLine(At),
    /// Replace one number cell (a run of digits, `.` and `,` starting with a digit).
    Number(At, Cell),
    /// Insert a cell after a line's first cell (`true`) or remove its second cell (`false`),
    /// shifting the rest of the line by one column.
    ShiftColumns(At, bool),
    /// Line feeds become CRLF.
    Crlf,
    /// Re-encode the whole text as UTF-16 (big-endian when `true`), with a byte-order mark when
    /// the second is `true`.
    Utf16(bool, bool),
}

fn cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        Just(Cell::Nan),
        Just(Cell::Inf),
        Just(Cell::NegInf),
        Just(Cell::Huge),
        Just(Cell::MinusOne),
        Just(Cell::Digits),
        Just(Cell::DecimalComma),
        Just(Cell::Empty),
    ]
}

/// One mutation; number cells are drawn most often, since they are where silent errors hide.
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => (at(), 1u8..=255).prop_map(|(i, m)| Mutation::FlipByte(i, m)),
        1 => at().prop_map(Mutation::Truncate),
        2 => at().prop_map(Mutation::DuplicateLine),
        2 => at().prop_map(Mutation::DeleteLine),
        5 => (at(), cell()).prop_map(|(i, c)| Mutation::Number(i, c)),
        2 => (at(), any::<bool>()).prop_map(|(i, b)| Mutation::ShiftColumns(i, b)),
        1 => Just(Mutation::Crlf),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(be, bom)| Mutation::Utf16(be, bom)),
    ]
}

/// A case: which seed, and one to four mutations.
pub fn case() -> impl Strategy<Value = (At, Vec<Mutation>)> {
    (at(), proptest::collection::vec(mutation(), 1..=4))
}

/// The byte range of each line, its line feed included.
fn lines(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in memchr_iter(b) {
        out.push((start, i + 1));
        start = i + 1;
    }
    if start < b.len() {
        out.push((start, b.len()));
    }
    out
}

fn memchr_iter(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    b.iter()
        .enumerate()
        .filter(|(_, &c)| c == b'\n')
        .map(|(i, _)| i)
}

/// The byte ranges of the number cells: a digit not preceded by a letter, digit, `.` or `,`,
/// and the digits, `.` and `,` after it.
fn numbers(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.' || b[i - 1] == b','));
        if starts {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.' || b[j] == b',') {
                j += 1;
            }
            // A trailing `.` or `,` is punctuation, not part of the number.
            while j > i + 1 && matches!(b[j - 1], b'.' | b',') {
                j -= 1;
            }
            out.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn splice(b: &mut Vec<u8>, range: (usize, usize), with: &[u8]) {
    b.splice(range.0..range.1, with.iter().copied());
}

/// The cell separator of a line: `;`, else `,`, else white space.
fn shift(line: &[u8], insert: bool) -> Vec<u8> {
    let sep = [b';', b',', b'\t']
        .into_iter()
        .find(|s| line.contains(s))
        .unwrap_or(b' ');
    let is_sep = |c: u8| if sep == b' ' { c == b' ' } else { c == sep };
    // The end of the first cell: the first separator after some content.
    let lead = line.iter().take_while(|&&c| is_sep(c)).count();
    let Some(first_end) = line[lead..]
        .iter()
        .position(|&c| is_sep(c))
        .map(|p| p + lead)
    else {
        return line.to_vec();
    };
    if insert {
        let mut out = line[..first_end].to_vec();
        out.push(sep);
        out.extend_from_slice(b"0");
        out.extend_from_slice(&line[first_end..]);
        out
    } else {
        // Drop the separator run and the second cell.
        let mut k = first_end;
        while k < line.len() && is_sep(line[k]) {
            k += 1;
        }
        let mut end = k;
        while end < line.len() && !is_sep(line[end]) && line[end] != b'\n' && line[end] != b'\r' {
            end += 1;
        }
        let mut out = line[..first_end].to_vec();
        out.extend_from_slice(&line[end..]);
        out
    }
}

/// Applies `mutations` to `seed`.
pub fn apply(seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut b = seed.to_vec();
    let mut crlf = false;
    let mut utf16 = None;
    for m in mutations {
        match m {
            Mutation::FlipByte(i, mask) if !b.is_empty() => {
                let k = i.index(b.len());
                b[k] ^= mask;
            }
            Mutation::Truncate(i) if !b.is_empty() => {
                let k = i.index(b.len());
                b.truncate(k);
            }
            Mutation::DuplicateLine(i) => {
                let l = lines(&b);
                if !l.is_empty() {
                    let (s, e) = l[i.index(l.len())];
                    let mut copy = b[s..e].to_vec();
                    if copy.last() != Some(&b'\n') {
                        copy.insert(0, b'\n');
                    }
                    splice(&mut b, (e, e), &copy);
                }
            }
            Mutation::DeleteLine(i) => {
                let l = lines(&b);
                if !l.is_empty() {
                    splice(&mut b, l[i.index(l.len())], b"");
                }
            }
            Mutation::Number(i, c) => {
                let n = numbers(&b);
                if !n.is_empty() {
                    let r = n[i.index(n.len())];
                    let with = c.text(&b[r.0..r.1]);
                    splice(&mut b, r, &with);
                }
            }
            Mutation::ShiftColumns(i, insert) => {
                let l = lines(&b);
                if !l.is_empty() {
                    let r = l[i.index(l.len())];
                    let new = shift(&b[r.0..r.1], *insert);
                    splice(&mut b, r, &new);
                }
            }
            Mutation::Crlf => crlf = true,
            Mutation::Utf16(be, bom) => utf16 = Some((*be, *bom)),
            _ => {}
        }
    }
    if crlf {
        let mut out = Vec::with_capacity(b.len() + b.len() / 32);
        for (k, &c) in b.iter().enumerate() {
            if c == b'\n' && (k == 0 || b[k - 1] != b'\r') {
                out.push(b'\r');
            }
            out.push(c);
        }
        b = out;
    }
    if let Some((be, bom)) = utf16 {
        let text = String::from_utf8_lossy(&b);
        let mut out = Vec::with_capacity(b.len() * 2 + 2);
        let units = bom
            .then_some(0xFEFFu16)
            .into_iter()
            .chain(text.encode_utf16());
        for u in units {
            out.extend_from_slice(&if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        b = out;
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mutations do what they say, on a three-line text.
    #[test]
    fn mutations_edit_what_they_name() {
        let seed = b"dev r/s w/s\nsda 1.5 20\nsdb 3 4\n";
        // Numbers, in order: 1.5, 20, 3, 4 ("r/s" holds no digit).
        assert_eq!(
            apply(seed, &[Mutation::Number(At(0), Cell::Nan)]),
            b"dev r/s w/s\nsda NaN 20\nsdb 3 4\n"
        );
        assert_eq!(
            apply(seed, &[Mutation::Number(At(0), Cell::DecimalComma)]),
            b"dev r/s w/s\nsda 1,5 20\nsdb 3 4\n"
        );
        assert_eq!(
            apply(seed, &[Mutation::DeleteLine(At(0))]),
            b"sda 1.5 20\nsdb 3 4\n"
        );
        assert_eq!(
            apply(seed, &[Mutation::ShiftColumns(At(0), false)]),
            b"dev w/s\nsda 1.5 20\nsdb 3 4\n"
        );
        assert_eq!(
            apply(seed, &[Mutation::ShiftColumns(At(0), true)]),
            b"dev 0 r/s w/s\nsda 1.5 20\nsdb 3 4\n"
        );
        assert_eq!(apply(b"a\nb\n", &[Mutation::Crlf]), b"a\r\nb\r\n");
        assert_eq!(
            apply(b"ab", &[Mutation::Utf16(false, true)]),
            [0xFF, 0xFE, b'a', 0, b'b', 0]
        );
    }
}
