//! Character references: `&amp;`, `&#181;`, `&#xB5;` and the named references the AWR report
//! writer and browsers use.
//!
//! Flow: the builder hands each text run and attribute value to [`decode_into`], which copies it
//! and replaces every reference (named ones by binary search in `ENTITIES`, numeric ones by
//! `numeric_char`, with the WHATWG replacements for C1 and invalid code points).

use std::borrow::Cow;

use memchr::{memchr, memchr2};

/// Named character references: name without `;`, characters, and whether the name is also
/// recognised without `;` (the WHATWG legacy names). Sorted by name (bytes) for binary search.
/// See the module doc for which names are here.
#[rustfmt::skip]
pub(super) const ENTITIES: &[(&str, &str, bool)] = &[
    ("AElig", "\u{c6}", true), ("AMP", "\u{26}", true), ("Aacute", "\u{c1}", true),
    ("Acirc", "\u{c2}", true), ("Agrave", "\u{c0}", true), ("Aring", "\u{c5}", true),
    ("Atilde", "\u{c3}", true), ("Auml", "\u{c4}", true), ("COPY", "\u{a9}", true),
    ("Ccedil", "\u{c7}", true), ("Dagger", "\u{2021}", false), ("ETH", "\u{d0}", true),
    ("Eacute", "\u{c9}", true), ("Ecirc", "\u{ca}", true), ("Egrave", "\u{c8}", true),
    ("Euml", "\u{cb}", true), ("GT", "\u{3e}", true), ("Iacute", "\u{cd}", true),
    ("Icirc", "\u{ce}", true), ("Igrave", "\u{cc}", true), ("Iuml", "\u{cf}", true),
    ("LT", "\u{3c}", true), ("Ntilde", "\u{d1}", true), ("Oacute", "\u{d3}", true),
    ("Ocirc", "\u{d4}", true), ("Ograve", "\u{d2}", true), ("Oslash", "\u{d8}", true),
    ("Otilde", "\u{d5}", true), ("Ouml", "\u{d6}", true), ("Prime", "\u{2033}", false),
    ("QUOT", "\u{22}", true), ("REG", "\u{ae}", true), ("THORN", "\u{de}", true),
    ("Uacute", "\u{da}", true), ("Ucirc", "\u{db}", true), ("Ugrave", "\u{d9}", true),
    ("Uuml", "\u{dc}", true), ("Yacute", "\u{dd}", true), ("aacute", "\u{e1}", true),
    ("acirc", "\u{e2}", true), ("acute", "\u{b4}", true), ("aelig", "\u{e6}", true),
    ("agrave", "\u{e0}", true), ("amp", "\u{26}", true), ("apos", "\u{27}", false),
    ("aring", "\u{e5}", true), ("asymp", "\u{2248}", false), ("atilde", "\u{e3}", true),
    ("auml", "\u{e4}", true), ("bdquo", "\u{201e}", false), ("brvbar", "\u{a6}", true),
    ("bull", "\u{2022}", false), ("ccedil", "\u{e7}", true), ("cedil", "\u{b8}", true),
    ("cent", "\u{a2}", true), ("centerdot", "\u{b7}", false), ("copy", "\u{a9}", true),
    ("copysr", "\u{2117}", false), ("curren", "\u{a4}", true), ("dagger", "\u{2020}", false),
    ("darr", "\u{2193}", false), ("deg", "\u{b0}", true), ("divide", "\u{f7}", true),
    ("divideontimes", "\u{22c7}", false), ("eacute", "\u{e9}", true), ("ecirc", "\u{ea}", true),
    ("egrave", "\u{e8}", true), ("emsp", "\u{2003}", false), ("ensp", "\u{2002}", false),
    ("eth", "\u{f0}", true), ("euml", "\u{eb}", true), ("euro", "\u{20ac}", false),
    ("frac12", "\u{bd}", true), ("frac14", "\u{bc}", true), ("frac34", "\u{be}", true),
    ("ge", "\u{2265}", false), ("gt", "\u{3e}", true), ("gtcc", "\u{2aa7}", false),
    ("gtcir", "\u{2a7a}", false), ("gtdot", "\u{22d7}", false), ("gtlPar", "\u{2995}", false),
    ("gtquest", "\u{2a7c}", false), ("gtrapprox", "\u{2a86}", false),
    ("gtrarr", "\u{2978}", false), ("gtrdot", "\u{22d7}", false), ("gtreqless", "\u{22db}", false),
    ("gtreqqless", "\u{2a8c}", false), ("gtrless", "\u{2277}", false),
    ("gtrsim", "\u{2273}", false), ("harr", "\u{2194}", false), ("hellip", "\u{2026}", false),
    ("iacute", "\u{ed}", true), ("icirc", "\u{ee}", true), ("iexcl", "\u{a1}", true),
    ("igrave", "\u{ec}", true), ("infin", "\u{221e}", false), ("iquest", "\u{bf}", true),
    ("iuml", "\u{ef}", true), ("laquo", "\u{ab}", true), ("larr", "\u{2190}", false),
    ("ldquo", "\u{201c}", false), ("le", "\u{2264}", false), ("lrm", "\u{200e}", false),
    ("lsaquo", "\u{2039}", false), ("lsquo", "\u{2018}", false), ("lt", "\u{3c}", true),
    ("ltcc", "\u{2aa6}", false), ("ltcir", "\u{2a79}", false), ("ltdot", "\u{22d6}", false),
    ("lthree", "\u{22cb}", false), ("ltimes", "\u{22c9}", false), ("ltlarr", "\u{2976}", false),
    ("ltquest", "\u{2a7b}", false), ("ltrPar", "\u{2996}", false), ("ltri", "\u{25c3}", false),
    ("ltrie", "\u{22b4}", false), ("ltrif", "\u{25c2}", false), ("macr", "\u{af}", true),
    ("mdash", "\u{2014}", false), ("micro", "\u{b5}", true), ("middot", "\u{b7}", true),
    ("minus", "\u{2212}", false), ("nbsp", "\u{a0}", true), ("ndash", "\u{2013}", false),
    ("ne", "\u{2260}", false), ("not", "\u{ac}", true), ("notin", "\u{2209}", false),
    ("notinE", "\u{22f9}\u{338}", false), ("notindot", "\u{22f5}\u{338}", false),
    ("notinva", "\u{2209}", false), ("notinvb", "\u{22f7}", false), ("notinvc", "\u{22f6}", false),
    ("notni", "\u{220c}", false), ("notniva", "\u{220c}", false), ("notnivb", "\u{22fe}", false),
    ("notnivc", "\u{22fd}", false), ("ntilde", "\u{f1}", true), ("oacute", "\u{f3}", true),
    ("ocirc", "\u{f4}", true), ("ograve", "\u{f2}", true), ("ordf", "\u{aa}", true),
    ("ordm", "\u{ba}", true), ("oslash", "\u{f8}", true), ("otilde", "\u{f5}", true),
    ("ouml", "\u{f6}", true), ("para", "\u{b6}", true), ("parallel", "\u{2225}", false),
    ("permil", "\u{2030}", false), ("plusmn", "\u{b1}", true), ("pound", "\u{a3}", true),
    ("prime", "\u{2032}", false), ("quot", "\u{22}", true), ("raquo", "\u{bb}", true),
    ("rarr", "\u{2192}", false), ("rdquo", "\u{201d}", false), ("reg", "\u{ae}", true),
    ("rlm", "\u{200f}", false), ("rsaquo", "\u{203a}", false), ("rsquo", "\u{2019}", false),
    ("sbquo", "\u{201a}", false), ("sect", "\u{a7}", true), ("shy", "\u{ad}", true),
    ("sup1", "\u{b9}", true), ("sup2", "\u{b2}", true), ("sup3", "\u{b3}", true),
    ("szlig", "\u{df}", true), ("thinsp", "\u{2009}", false), ("thorn", "\u{fe}", true),
    ("times", "\u{d7}", true), ("timesb", "\u{22a0}", false), ("timesbar", "\u{2a31}", false),
    ("timesd", "\u{2a30}", false), ("trade", "\u{2122}", false), ("uacute", "\u{fa}", true),
    ("uarr", "\u{2191}", false), ("ucirc", "\u{fb}", true), ("ugrave", "\u{f9}", true),
    ("uml", "\u{a8}", true), ("uuml", "\u{fc}", true), ("yacute", "\u{fd}", true),
    ("yen", "\u{a5}", true), ("yuml", "\u{ff}", true), ("zwj", "\u{200d}", false),
    ("zwnj", "\u{200c}", false),
];

pub(super) fn entity(name: &[u8]) -> Option<&'static (&'static str, &'static str, bool)> {
    ENTITIES
        .binary_search_by(|e| e.0.as_bytes().cmp(name))
        .ok()
        .map(|k| &ENTITIES[k])
}

/// The character of a numeric reference, with the WHATWG replacements.
pub(super) fn numeric_char(code: u32) -> char {
    pub(super) const C1: [u32; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
        0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    let code = match code {
        0x80..=0x9F => C1[(code - 0x80) as usize],
        c => c,
    };
    // 0, surrogates and values above U+10FFFF all give U+FFFD.
    match code {
        0 => '\u{FFFD}',
        c => char::from_u32(c).unwrap_or('\u{FFFD}'),
    }
}

/// Decodes the character references of `s` into `out` (and NUL into U+FFFD when `nul`).
/// `attr`: the rules for attribute values (a legacy name without `;` followed by a letter, digit
/// or `=` stays as written).
pub(super) fn decode_into(s: &str, attr: bool, nul: bool, out: &mut String) {
    let b = s.as_bytes();
    let mut last = 0; // start of the text not yet copied to out
    let mut i = 0;
    loop {
        let k = if nul {
            memchr2(b'&', 0, &b[i..])
        } else {
            memchr(b'&', &b[i..])
        };
        let Some(k) = k else { break };
        let amp = i + k;
        if b[amp] == 0 {
            out.push_str(&s[last..amp]);
            out.push('\u{FFFD}');
            i = amp + 1;
            last = i;
            continue;
        }
        let rest = &b[amp + 1..];
        match rest.first() {
            Some(c) if c.is_ascii_alphanumeric() => {
                let run = rest
                    .iter()
                    .position(|c| !c.is_ascii_alphanumeric())
                    .unwrap_or(rest.len());
                // Longest match: the whole name with `;`, else the longest legacy prefix.
                let mut m = None;
                if rest.get(run) == Some(&b';') {
                    m = entity(&rest[..run]).map(|e| (run + 1, e.1, true));
                }
                if m.is_none() {
                    m = (2..=run.min(6))
                        .rev()
                        .find_map(|l| entity(&rest[..l]).filter(|e| e.2).map(|e| (l, e.1, false)));
                }
                match m {
                    Some((len, chars, semi))
                        if !(attr
                            && !semi
                            && rest
                                .get(len)
                                .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric())) =>
                    {
                        out.push_str(&s[last..amp]);
                        out.push_str(chars);
                        i = amp + 1 + len;
                        last = i;
                    }
                    Some((len, ..)) => i = amp + 1 + len,
                    None => i = amp + 1 + run,
                }
            }
            Some(b'#') => {
                let hex = matches!(rest.get(1), Some(b'x' | b'X'));
                let start = amp + 2 + usize::from(hex);
                let mut j = start;
                let mut code: u32 = 0;
                while let Some(d) = b
                    .get(j)
                    .and_then(|&c| (c as char).to_digit(if hex { 16 } else { 10 }))
                {
                    code = (code * if hex { 16 } else { 10 } + d).min(0x11_0000);
                    j += 1;
                }
                if j == start {
                    // `&#` or `&#x` without digits stays as written.
                    i = start;
                    continue;
                }
                if b.get(j) == Some(&b';') {
                    j += 1;
                }
                out.push_str(&s[last..amp]);
                out.push(numeric_char(code));
                i = j;
                last = j;
            }
            _ => i = amp + 1,
        }
    }
    out.push_str(&s[last..]);
}

/// An attribute value with its character references decoded.
pub(super) fn attr_value(s: &str) -> Cow<'_, str> {
    if !s.as_bytes().iter().any(|&c| c == b'&' || c == 0) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    decode_into(s, true, true, &mut out);
    Cow::Owned(out)
}
