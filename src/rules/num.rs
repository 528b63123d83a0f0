//! Number formatting of the rule texts: grouped thousands (`1,202.32`) and shortest exact
//! form (`0.0455`).

/// `x` with `decimals` decimals and `,` thousands separators: 1202.318 → "1,202.32".
pub(crate) fn fmt_num(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let s = format!("{:.*}", decimals, x.abs());
    let negative = x < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
    group(&s, negative)
}

/// Shortest exact form with thousands separators: 16000 → "16,000", 0.0455 → "0.0455".
pub(crate) fn fmt_trim(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    group(&format!("{}", x.abs()), x < 0.0)
}

fn group(s: &str, negative: bool) -> String {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    let n = int.len();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (n - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}
