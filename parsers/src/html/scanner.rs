//! The single pass over the document: jumps from `<` to `<`, reads each tag with the helpers of
//! [`super::tags`], skips comments and the content of raw-text elements, decodes character
//! references in collected text, and hands tags and text to the [`Builder`].

use memchr::memchr2;

use super::builder::Builder;
use super::entities::decode_into;
use super::tags::{
    bogus_comment_end, classify, comment_end, ends_name, find_byte, find_end_tag, find_script_end,
    tag_rest, Tag, Want,
};
use super::Document;

/// The single pass over the document.
pub(super) struct Scanner<'a> {
    src: &'a str,
    out: Builder<'a>,
    /// Reused buffer for text with character references.
    scratch: String,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`, with an empty document; the rows of a table whose
    /// summary `skip` holds for are not read.
    pub(super) fn new(text: &'a str, skip: &'a dyn Fn(&str) -> bool) -> Self {
        Scanner {
            src: text,
            out: Builder::new(text, skip),
            scratch: String::new(),
        }
    }

    /// Scans the whole text and returns the document built.
    pub(super) fn run(mut self) -> Document {
        self.scan();
        self.out.finish()
    }

    /// Text in the data state (or RCDATA with `nul`): character references decoded.
    fn text(&mut self, from: usize, to: usize, nul: bool) {
        if from >= to || !self.out.collecting() {
            return;
        }
        let s = &self.src[from..to];
        let b = s.as_bytes();
        let special = if nul {
            memchr2(b'&', 0, b).is_some()
        } else {
            find_byte(b'&', b).is_some()
        };
        if special {
            let mut buf = std::mem::take(&mut self.scratch);
            buf.clear();
            decode_into(s, false, nul, &mut buf);
            self.out.text(&buf);
            self.scratch = buf;
        } else {
            self.out.text(s);
        }
    }

    /// Raw text (script, style, …): only NUL is replaced.
    fn raw_text(&mut self, from: usize, to: usize) {
        if from >= to || !self.out.collecting() {
            return;
        }
        let s = &self.src[from..to];
        if s.contains('\0') {
            self.out.text(&s.replace('\0', "\u{FFFD}"));
        } else {
            self.out.text(s);
        }
    }

    fn scan(&mut self) {
        let src: &'a str = self.src;
        let b = src.as_bytes();
        let n = b.len();
        let mut pos = 0;
        while pos < n {
            let Some(k) = find_byte(b'<', &b[pos..]) else {
                self.text(pos, n, false);
                return;
            };
            let lt = pos + k;
            self.text(pos, lt, false);
            let Some(&c) = b.get(lt + 1) else {
                self.out.text("<");
                return;
            };
            if c.is_ascii_alphabetic() {
                let mut i = lt + 2;
                while i < n && !ends_name(b[i]) {
                    i += 1;
                }
                let name = &b[lt + 1..i];
                let tag = classify(name);
                let want = match tag {
                    Tag::Table => Want::Summary,
                    Tag::Td | Tag::Th => Want::Colspan,
                    _ => Want::None,
                };
                let Some((end, attr)) = tag_rest(b, i, want) else {
                    return;
                };
                self.out.start_tag(tag, attr.map(|(s, e)| &src[s..e]), lt);
                pos = match tag {
                    Tag::Title | Tag::Textarea => self.until_end_tag(end, name, tag, true),
                    Tag::RawText => self.until_end_tag(end, name, tag, false),
                    Tag::Script => match find_script_end(b, end) {
                        Some((lt2, name_end)) => {
                            self.raw_text(end, lt2);
                            self.end_tag_at(lt2, name_end, tag)
                        }
                        None => {
                            self.raw_text(end, n);
                            n
                        }
                    },
                    Tag::Plaintext => {
                        self.raw_text(end, n);
                        n
                    }
                    _ => end,
                };
            } else if c == b'/' {
                match b.get(lt + 2) {
                    None => {
                        self.out.text("</");
                        return;
                    }
                    Some(b'>') => pos = lt + 3,
                    Some(x) if x.is_ascii_alphabetic() => {
                        let mut i = lt + 3;
                        while i < n && !ends_name(b[i]) {
                            i += 1;
                        }
                        let tag = classify(&b[lt + 2..i]);
                        pos = self.end_tag_at(lt, i, tag);
                    }
                    Some(_) => pos = bogus_comment_end(b, lt + 2),
                }
            } else if c == b'!' {
                pos = if b.get(lt + 2..lt + 4) == Some(b"--") {
                    comment_end(b, lt)
                } else {
                    // <!DOCTYPE …>, <![CDATA[ (a bogus comment in HTML), <!anything>.
                    bogus_comment_end(b, lt + 2)
                };
            } else if c == b'?' {
                pos = bogus_comment_end(b, lt + 2);
            } else {
                // `<` not starting a tag is text; the next character is read normally.
                self.out.text("<");
                pos = lt + 1;
            }
        }
    }

    /// The content of `<title>`/`<textarea>` (`rcdata`) or a raw-text element, then its end tag.
    fn until_end_tag(&mut self, from: usize, name: &[u8], tag: Tag, rcdata: bool) -> usize {
        let b = self.src.as_bytes();
        match find_end_tag(b, from, name) {
            Some((lt, name_end)) => {
                if rcdata {
                    self.text(from, lt, true);
                } else {
                    self.raw_text(from, lt);
                }
                self.end_tag_at(lt, name_end, tag)
            }
            None => {
                if rcdata {
                    self.text(from, b.len(), true);
                } else {
                    self.raw_text(from, b.len());
                }
                b.len()
            }
        }
    }

    /// An end tag whose `<` is at `lt` and whose name ends at `name_end`: reads to its `>` and
    /// returns the offset after it (the end of the file when the tag is cut).
    fn end_tag_at(&mut self, lt: usize, name_end: usize, tag: Tag) -> usize {
        let b = self.src.as_bytes();
        match tag_rest(b, name_end, Want::None) {
            Some((end, _)) => {
                self.out.end_tag(tag, lt);
                end
            }
            None => b.len(),
        }
    }
}
