//! Splitting an iostat data line and reading its numbers in one pass.
//!
//! Flow: the line is cut into tokens (device name and values); a plain decimal is read exactly as
//! `str::parse::<f64>` reads it (one division by an exact power of ten), anything else (`--human`
//! suffixes, decimal commas) goes through the general sysstat cell reader.

use super::*;

pub(super) fn cell_error(line: usize, column: &str, header_line: usize, why: String) -> ParseError {
    ParseError::section(
        SECTION,
        Some(line),
        format!("a number in column '{column}' of the header of line {header_line}"),
        why,
    )
}

/// `char::is_whitespace` for an ASCII byte (`\t \n \x0B \x0C \r` and space).
#[inline]
pub(super) fn is_ws(b: u8) -> bool {
    b == b' ' || b.wrapping_sub(b'\t') < 5
}

/// The first index from `i` on that is not white space: runs of spaces (sysstat's column
/// padding) are skipped eight bytes at a time.
#[inline]
pub(super) fn skip_white(s: &[u8], mut i: usize) -> usize {
    pub(super) const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    while let Some(chunk) = s.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes")) ^ SPACES;
        if w != 0 {
            // Little-endian: the lowest non-zero byte is the first byte that is not a space.
            i += (w.trailing_zeros() / 8) as usize;
            break;
        }
        i += 8;
    }
    while i < s.len() && is_ws(s[i]) {
        i += 1;
    }
    i
}

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

/// Eight bytes from `at`, first byte lowest.
#[inline]
pub(super) fn load8(s: &[u8], at: usize) -> Option<u64> {
    s.get(at..at + 8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
}

/// Flags (high bit) the bytes of `x` that are at most 0x20 (white space and controls); the lowest
/// flagged byte is exact (later ones may be false positives).
#[inline]
pub(super) fn low_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES * 0x21) & !x & (ONES * 0x80)
}

/// All eight bytes are ASCII digits.
#[inline]
pub(super) fn eight_digits(x: u64) -> bool {
    pub(super) const HIGH: u64 = ONES * 0xF0;
    (x & HIGH) | ((x.wrapping_add(ONES * 6) & HIGH) >> 4) == ONES * 0x33
}

/// The number written by eight ASCII digits, first byte lowest (as in `fast_float`).
#[inline]
pub(super) fn parse_eight(x: u64) -> u64 {
    pub(super) const MASK: u64 = 0x0000_00FF_0000_00FF;
    pub(super) const MUL1: u64 = 100 + (1_000_000 << 32);
    pub(super) const MUL2: u64 = 1 + (10_000 << 32);
    let v = x.wrapping_sub(ONES * 0x30);
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    ((v & MASK)
        .wrapping_mul(MUL1)
        .wrapping_add(((v >> 16) & MASK).wrapping_mul(MUL2)))
        >> 32
}

/// The token at `start` when it is sysstat's usual `-?[0-9]{1,8}\.[0-9][0-9]` followed by white
/// space, read without a loop per digit: its end and [`Decimal::pack`]. `None` sends the token
/// to the general scan (which reads these tokens the same way).
#[inline]
pub(super) fn two_decimals(s: &[u8], start: usize) -> Option<(usize, u64)> {
    let m = low_bytes(load8(s, start)?);
    let len = if m != 0 {
        (m.trailing_zeros() / 8) as usize
    } else {
        let m = low_bytes(load8(s, start + 8)?);
        if m == 0 {
            return None;
        }
        8 + (m.trailing_zeros() / 8) as usize
    };
    let end = start + len;
    let negative = s[start] == b'-';
    let int_start = start + usize::from(negative);
    if !is_ws(s[end]) || end < int_start + 4 || s[end - 3] != b'.' {
        return None;
    }
    let int_len = end - 3 - int_start;
    let (f1, f2) = (s[end - 2].wrapping_sub(b'0'), s[end - 1].wrapping_sub(b'0'));
    if int_len > 8 || f1 >= 10 || f2 >= 10 {
        return None;
    }
    // The integer digits are the last `int_len` bytes of the eight before the point; the bytes
    // before them become '0'.
    let w = load8(s, (end - 3).checked_sub(8)?)?;
    let w = if int_len == 8 {
        w
    } else {
        let low = (1u64 << (64 - 8 * int_len)) - 1;
        (w & !low) | ((ONES * u64::from(b'0')) & low)
    };
    if !eight_digits(w) {
        return None;
    }
    let mantissa = parse_eight(w) * 100 + u64::from(f1) * 10 + u64::from(f2);
    Some((
        end,
        Decimal {
            mantissa,
            frac_digits: 2,
            negative,
        }
        .pack(),
    ))
}

/// A token of the current report: its span in the arena and its value read as a plain decimal
/// with a `.` separator ([`Decimal::pack`]), or [`NOT_PLAIN`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) num: u64,
}

impl Tok {
    pub(super) fn span(self) -> (usize, usize) {
        (self.start, self.end)
    }
}

/// [`Tok::num`] of a token that is not a plain decimal.
pub(super) const NOT_PLAIN: u64 = u64::MAX;

/// Pushes the tokens of `s` (spans offset by `base`), split as `str::split_whitespace` splits
/// them, each with its value as [`plain_decimal`] reads it with a `.` separator.
pub(super) fn tokenize(s: &str, base: usize, toks: &mut Vec<Tok>) {
    let t0 = toks.len();
    if !scan_ascii(s.as_bytes(), base, toks) {
        // Non-ASCII text: Unicode white space splits tokens too.
        toks.truncate(t0);
        let p0 = s.as_ptr() as usize;
        for t in s.split_whitespace() {
            let start = base + (t.as_ptr() as usize - p0);
            toks.push(Tok {
                start,
                end: start + t.len(),
                num: plain_decimal(t.as_bytes(), false).map_or(NOT_PLAIN, Decimal::pack),
            });
        }
    }
}

/// [`tokenize`] in one pass over ASCII text; `false` (with partial output) at a non-ASCII byte.
#[inline]
pub(super) fn scan_ascii(s: &[u8], base: usize, toks: &mut Vec<Tok>) -> bool {
    let n = s.len();
    let mut i = 0;
    loop {
        i = skip_white(s, i);
        if i == n {
            break;
        }
        let start = i;
        if let Some((end, num)) = two_decimals(s, start) {
            toks.push(Tok {
                start: base + start,
                end: base + end,
                num,
            });
            i = end;
            continue;
        }
        let negative = s[i] == b'-';
        if negative {
            i += 1;
        }
        let mut mantissa: u64 = 0;
        let int_start = i;
        while i < n {
            let d = s[i].wrapping_sub(b'0');
            if d >= 10 {
                break;
            }
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
        let int_digits = i - int_start;
        let mut frac_digits = 0;
        let mut plain = int_digits > 0;
        if i < n && s[i] == b'.' {
            i += 1;
            let frac_start = i;
            while i < n {
                let d = s[i].wrapping_sub(b'0');
                if d >= 10 {
                    break;
                }
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
                i += 1;
            }
            frac_digits = i - frac_start;
            plain &= frac_digits > 0;
        }
        if i < n && s[i] == b'%' {
            i += 1;
        }
        if i < n && !is_ws(s[i]) {
            plain = false;
            while i < n && !is_ws(s[i]) {
                if s[i] >= 0x80 {
                    return false;
                }
                i += 1;
            }
        }
        plain &= int_digits + frac_digits <= 15;
        toks.push(Tok {
            start: base + start,
            end: base + i,
            num: if plain {
                Decimal {
                    mantissa,
                    frac_digits,
                    negative,
                }
                .pack()
            } else {
                NOT_PLAIN
            },
        });
    }
    true
}

/// A plain decimal as sysstat prints it: `-?[0-9]+([.,][0-9]+)?%?`, at most 15 digits.
#[derive(Debug, Clone, Copy)]
pub(super) struct Decimal {
    pub(super) mantissa: u64,
    pub(super) frac_digits: usize,
    pub(super) negative: bool,
}

pub(super) const POW10: [f64; 16] = [
    1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

impl Decimal {
    /// Frac digits in bits 56–63, the sign in bit 55, the mantissa (below 10^15 < 2^50) below.
    #[inline]
    pub(super) fn pack(self) -> u64 {
        (self.frac_digits as u64) << 56 | u64::from(self.negative) << 55 | self.mantissa
    }

    #[inline]
    pub(super) fn unpack(p: u64) -> Decimal {
        Decimal {
            mantissa: p & ((1 << 55) - 1),
            frac_digits: (p >> 56) as usize,
            negative: p & (1 << 55) != 0,
        }
    }

    /// The value, exactly as `str::parse::<f64>` reads the printed text: the mantissa (below
    /// 2^53) and the power of ten (at most 10^15) are both exact in an `f64`, so one division is
    /// correctly rounded (Clinger's fast path).
    #[inline]
    pub(super) fn value(self) -> f64 {
        let v = self.mantissa as f64 / POW10[self.frac_digits];
        if self.negative {
            -v
        } else {
            v
        }
    }
}

/// Reads a plain decimal whose separator is `,` (decimal-comma report) or `.`; `None` for anything
/// else (suffixes, exponents, blanks, more than 15 digits, …), which [`cell`] then reads.
#[inline]
pub(super) fn plain_decimal(tok: &[u8], comma: bool) -> Option<Decimal> {
    let sep = if comma { b',' } else { b'.' };
    let mut s = tok;
    if let Some(x) = s.strip_suffix(b"%") {
        s = x;
    }
    let negative = s.first() == Some(&b'-');
    if negative {
        s = &s[1..];
    }
    let mut mantissa: u64 = 0;
    let mut digits = 0usize;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        mantissa = mantissa
            .wrapping_mul(10)
            .wrapping_add(u64::from(s[i] - b'0'));
        i += 1;
    }
    digits += i;
    if i == 0 {
        return None;
    }
    let mut frac_digits = 0;
    if i < s.len() {
        if s[i] != sep {
            return None;
        }
        i += 1;
        let start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            mantissa = mantissa
                .wrapping_mul(10)
                .wrapping_add(u64::from(s[i] - b'0'));
            i += 1;
        }
        frac_digits = i - start;
        if frac_digits == 0 || i != s.len() {
            return None;
        }
        digits += frac_digits;
    }
    if digits > 15 {
        return None;
    }
    Some(Decimal {
        mantissa,
        frac_digits,
        negative,
    })
}
