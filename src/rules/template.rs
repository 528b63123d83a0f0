//! Message templates of rules: literal text with `{metric}`, `{when.I}` and `{max_units}`
//! placeholders, parsed once at load (to validate) and again when a fired rule is worded.

use crate::rules::metric::Metric;

/// Number format of a placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fmt {
    /// Decimals; `None` = default (2 for metrics, shortest for thresholds).
    pub(crate) decimals: Option<usize>,
    /// Multiply by 100 first.
    pub(crate) percent: bool,
}

/// A piece of a parsed message template.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece<'a> {
    Lit(&'a str),
    Metric(Metric, Fmt),
    When(usize, Fmt),
    MaxUnits,
}

/// Parse a message template: literal text with `{metric}`, `{metric:N}`,
/// `{metric:%N}`, `{when.I}`, `{when.I:N}`, `{when.I:%N}` and `{max_units}`.
pub(crate) fn parse_template(s: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            None => {
                out.push(Piece::Lit(rest));
                break;
            }
            Some(i) if rest[i..].starts_with('}') => {
                return Err(format!(
                    "unmatched '}}' in message template at \"{}\"",
                    &rest[i..]
                ));
            }
            Some(i) => {
                if i > 0 {
                    out.push(Piece::Lit(&rest[..i]));
                }
                let after = &rest[i + 1..];
                let end = after.find('}').ok_or_else(|| {
                    format!("unclosed '{{' in message template at \"{}\"", &rest[i..])
                })?;
                let inner = &after[..end];
                out.push(parse_placeholder(inner)?);
                rest = &after[end + 1..];
            }
        }
    }
    Ok(out)
}

fn parse_placeholder(inner: &str) -> Result<Piece<'static>, String> {
    let (name, spec) = match inner.split_once(':') {
        Some((n, s)) => (n.trim(), Some(s.trim())),
        None => (inner.trim(), None),
    };
    let fmt = match spec {
        None => Fmt {
            decimals: None,
            percent: false,
        },
        Some(s) => {
            let (percent, digits) = match s.strip_prefix('%') {
                Some(d) => (true, d),
                None => (false, s),
            };
            let decimals = if digits.is_empty() {
                None
            } else {
                Some(
                    digits
                        .parse::<usize>()
                        .ok()
                        .filter(|d| *d <= 6)
                        .ok_or_else(|| {
                            format!("bad format \"{s}\" in {{{inner}}}: use N or %N, N = 0..6")
                        })?,
                )
            };
            Fmt { decimals, percent }
        }
    };
    if name == "max_units" {
        return Ok(Piece::MaxUnits);
    }
    if let Some(idx) = name.strip_prefix("when.") {
        let i = idx
            .parse::<usize>()
            .map_err(|_| format!("bad placeholder {{{inner}}}: expected when.N"))?;
        return Ok(Piece::When(i, fmt));
    }
    Metric::from_name(name)
        .map(|m| Piece::Metric(m, fmt))
        .ok_or_else(|| {
            let names: Vec<&str> = Metric::ALL.iter().map(|m| m.as_str()).collect();
            format!(
                "unknown placeholder {{{inner}}}: expected a metric ({}), when.N or max_units",
                names.join(", ")
            )
        })
}
