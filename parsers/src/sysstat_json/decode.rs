//! A reader that decodes its input on the fly, as [`crate::input::decode`] decodes a whole text,
//! for the parsers that hand a [`std::io::Read`] to serde_json or scan bytes themselves.
//!
//! Flow: the first bytes choose the decoding: a UTF-16 byte-order mark (either order) selects
//! UTF-16, decoded with [`encoding_rs`]'s streaming decoder (malformed units replaced, as the
//! whole-text decoder does); anything else is read as UTF-8 with the leading byte-order marks
//! dropped, and each byte that is not part of a valid UTF-8 sequence is decoded as windows-1252.
//! UTF-16 without a byte-order mark is recognised as [`crate::input::decode`] recognises it
//! ([`crate::input::utf16_without_bom`]: the first code units are all ASCII).
//! The whole-text decoder decodes the whole file as windows-1252 when any byte is not UTF-8, so
//! the two differ only for a file that mixes valid non-ASCII UTF-8 with windows-1252 bytes. The
//! state held is one input chunk and its decoded copy.
//!
//! (It lives here because the sysstat JSON readers were its first users; the vSAN JSON and SOAP
//! readers use it too.)

use std::io::{BufRead, Read};

/// The decoding chosen from the first bytes.
enum Mode {
    /// Not chosen yet.
    Start,
    /// UTF-8, with windows-1252 for the bytes that are not UTF-8.
    Utf8,
    /// UTF-16 (the byte-order mark consumed).
    Utf16(Box<encoding_rs::Decoder>),
}

/// Decoded UTF-8 bytes of a reader (see the module docs). `R` is a borrowed `&mut dyn BufRead`
/// for the parsers, or an owned reader for [`crate::parse_path_into`].
pub(crate) struct DecodeReader<R> {
    src: R,
    mode: Mode,
    /// Raw bytes not decoded yet (an unfinished UTF-8 sequence, or the first bytes).
    pending: Vec<u8>,
    /// Decoded bytes not served yet, from `pos`.
    out: Vec<u8>,
    pos: usize,
    eof: bool,
}

/// Bytes looked at before choosing the decoding (enough for [`crate::input::utf16_without_bom`]).
const SNIFF: usize = 512;

impl<R: BufRead> DecodeReader<R> {
    /// A decoding reader over `src` (already decompressed).
    pub(crate) fn new(src: R) -> Self {
        DecodeReader {
            src,
            mode: Mode::Start,
            pending: Vec::new(),
            out: Vec::new(),
            pos: 0,
            eof: false,
        }
    }

    /// Decodes more input into `out` (which is served out): returns false at the end of the
    /// input.
    fn refill(&mut self) -> std::io::Result<bool> {
        self.out.clear();
        self.pos = 0;
        while self.out.is_empty() {
            if self.eof {
                return Ok(false);
            }
            let chunk = self.src.fill_buf()?;
            let last = chunk.is_empty();
            self.pending.extend_from_slice(chunk);
            let n = chunk.len();
            self.src.consume(n);
            self.eof = last;
            if matches!(self.mode, Mode::Start) && !self.choose(last) {
                continue;
            }
            self.decode_pending(last);
        }
        Ok(true)
    }

    /// Chooses the decoding once enough bytes are pending (dropping the byte-order marks):
    /// false while more are needed.
    fn choose(&mut self, last: bool) -> bool {
        if self.pending.len() < SNIFF && !last {
            return false;
        }
        if let Some((enc, _)) = crate::input::utf16_without_bom(&self.pending) {
            self.mode = Mode::Utf16(Box::new(enc.new_decoder_without_bom_handling()));
            return true;
        }
        if self.pending.starts_with(b"\xFF\xFE") || self.pending.starts_with(b"\xFE\xFF") {
            let enc = if self.pending[0] == 0xFF {
                encoding_rs::UTF_16LE
            } else {
                encoding_rs::UTF_16BE
            };
            self.pending.drain(..2);
            self.mode = Mode::Utf16(Box::new(enc.new_decoder_without_bom_handling()));
            return true;
        }
        while self.pending.starts_with(b"\xEF\xBB\xBF") {
            self.pending.drain(..3);
            if self.pending.len() < 3 && !last {
                return false;
            }
        }
        self.mode = Mode::Utf8;
        true
    }

    /// Decodes `pending` into `out` (all of it when `last`).
    fn decode_pending(&mut self, last: bool) {
        match &mut self.mode {
            Mode::Start => {}
            Mode::Utf8 => {
                let mut input: &[u8] = &self.pending;
                loop {
                    match std::str::from_utf8(input) {
                        Ok(s) => {
                            self.out.extend_from_slice(s.as_bytes());
                            input = &[];
                            break;
                        }
                        Err(e) => {
                            let v = e.valid_up_to();
                            self.out.extend_from_slice(&input[..v]);
                            let bad = match e.error_len() {
                                Some(n) => n,
                                None if last => input.len() - v,
                                None => {
                                    input = &input[v..];
                                    break;
                                }
                            };
                            for &b in &input[v..v + bad] {
                                let one = [b];
                                let (s, _) =
                                    encoding_rs::WINDOWS_1252.decode_without_bom_handling(&one);
                                self.out.extend_from_slice(s.as_bytes());
                            }
                            input = &input[v + bad..];
                        }
                    }
                }
                let rest = input.len();
                let done = self.pending.len() - rest;
                self.pending.drain(..done);
            }
            Mode::Utf16(dec) => {
                let mut read = 0;
                loop {
                    let need = dec
                        .max_utf8_buffer_length(self.pending.len() - read)
                        .unwrap_or(4 * (self.pending.len() - read) + 8);
                    let at = self.out.len();
                    self.out.resize(at + need, 0);
                    let (res, r, w, _) =
                        dec.decode_to_utf8(&self.pending[read..], &mut self.out[at..], last);
                    self.out.truncate(at + w);
                    read += r;
                    if res == encoding_rs::CoderResult::InputEmpty {
                        break;
                    }
                }
                self.pending.drain(..read);
            }
        }
    }
}

impl<R: BufRead> Read for DecodeReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.out.len() && !self.refill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for DecodeReader<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos == self.out.len() && !self.refill()? {
            return Ok(&[]);
        }
        Ok(&self.out[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands over at most 2 bytes per read.
    struct Dribble<'a>(&'a [u8]);
    impl Read for Dribble<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(2).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn decodes_as_the_whole_text_decoder() {
        let mut le = vec![0xFF, 0xFE];
        for u in "{\"a\": \"µ€\"}\n".encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        let mut be = vec![0xFE, 0xFF];
        for u in "x€y".encode_utf16() {
            be.extend_from_slice(&u.to_be_bytes());
        }
        // Without a byte-order mark: recognised by its ASCII code units.
        let le_no_bom: Vec<u8> = "{\"k\": \"µ€\"}\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be_no_bom: Vec<u8> = "{\"k\": \"µ€\"}\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        for bytes in [
            &b"\xEF\xBB\xBF{\"k\": 1}"[..],
            b"caf\xE9 \x80",
            "plain µ € text".as_bytes(),
            b"ab",
            &le,
            &be,
            &le_no_bom,
            &be_no_bom,
        ] {
            let want = crate::input::decode(bytes).unwrap().text.into_owned();
            let mut inner = std::io::BufReader::with_capacity(3, Dribble(bytes));
            let mut got = String::new();
            DecodeReader::new(&mut inner)
                .read_to_string(&mut got)
                .unwrap();
            assert_eq!(got, want, "{bytes:?}");
        }
    }
}
