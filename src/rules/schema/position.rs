//! TOML parsing helpers shared by both files: error positions (line, column, key path) and
//! the validation context [`Check`] every error is built from.

use serde::de::DeserializeOwned;

use crate::rules::RulesError;

/// Parse `text` (the contents of `file`) as TOML into `T`; on error, name the
/// file, the 1-based line and column, and the TOML key at the error position.
pub(crate) fn parse_toml<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, RulesError> {
    toml::from_str::<T>(text).map_err(|e| {
        let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((0, 0));
        let key = e.span().and_then(|s| key_path_at(text, s.start));
        RulesError::Toml {
            file: file.to_string(),
            key,
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })
}

/// 1-based line and column (in characters) of byte offset `pos`.
pub(crate) fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let pos = pos.min(text.len());
    let before = text.get(..pos).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Dotted key path (`tier[2].iops.max`) of the smallest TOML node whose span
/// contains byte `pos`, or `None` when the text does not parse.
pub(crate) fn key_path_at(text: &str, pos: usize) -> Option<String> {
    let root = toml::de::DeTable::parse(text).ok()?;
    let mut best: Option<(usize, usize, String)> = None; // (span len, depth, path)
    walk_table(root.get_ref(), pos, "", 0, &mut best);
    best.map(|(_, _, p)| p)
}

pub(crate) fn consider(
    span: std::ops::Range<usize>,
    pos: usize,
    path: &str,
    depth: usize,
    best: &mut Option<(usize, usize, String)>,
) {
    let inside = (span.start <= pos && pos < span.end) || (span.start == pos && span.is_empty());
    if !inside || path.is_empty() {
        return;
    }
    let len = span.end - span.start;
    let better = match best {
        None => true,
        Some((l, d, _)) => len < *l || (len == *l && depth > *d),
    };
    if better {
        *best = Some((len, depth, path.to_string()));
    }
}

pub(crate) fn walk_table(
    t: &toml::de::DeTable<'_>,
    pos: usize,
    prefix: &str,
    depth: usize,
    best: &mut Option<(usize, usize, String)>,
) {
    for (k, v) in t.iter() {
        let path = if prefix.is_empty() {
            k.get_ref().to_string()
        } else {
            format!("{prefix}.{}", k.get_ref())
        };
        consider(k.span(), pos, &path, depth + 1, best);
        consider(v.span(), pos, &path, depth + 1, best);
        walk_value(v.get_ref(), pos, &path, depth + 1, best);
    }
}

pub(crate) fn walk_value(
    v: &toml::de::DeValue<'_>,
    pos: usize,
    path: &str,
    depth: usize,
    best: &mut Option<(usize, usize, String)>,
) {
    match v {
        toml::de::DeValue::Table(t) => walk_table(t, pos, path, depth, best),
        toml::de::DeValue::Array(a) => {
            for (i, item) in a.iter().enumerate() {
                let p = format!("{path}[{i}]");
                consider(item.span(), pos, &p, depth + 1, best);
                walk_value(item.get_ref(), pos, &p, depth + 1, best);
            }
        }
        _ => {}
    }
}

/// Validation context: the file name every error carries.
pub(crate) struct Check<'a> {
    pub(crate) file: &'a str,
}

impl Check<'_> {
    pub(crate) fn err(&self, key: impl Into<String>, message: impl Into<String>) -> RulesError {
        RulesError::Invalid {
            file: self.file.to_string(),
            key: key.into(),
            message: message.into(),
        }
    }

    pub(crate) fn text(&self, key: &str, s: &str) -> Result<(), RulesError> {
        if s.trim().is_empty() {
            Err(self.err(key, "must be a non-empty string"))
        } else {
            Ok(())
        }
    }

    pub(crate) fn need<T: Copy>(
        &self,
        key: &str,
        v: Option<T>,
        why: &str,
    ) -> Result<T, RulesError> {
        v.ok_or_else(|| self.err(key, format!("is required {why}")))
    }

    /// Finite and >= `min` (inclusive) or > `min` (exclusive).
    pub(crate) fn num(
        &self,
        key: &str,
        v: f64,
        min: f64,
        inclusive: bool,
    ) -> Result<f64, RulesError> {
        let ok = v.is_finite() && if inclusive { v >= min } else { v > min };
        if ok {
            Ok(v)
        } else {
            let cmp = if inclusive { ">=" } else { ">" };
            Err(self.err(
                key,
                format!("must be a finite number {cmp} {min}, found {v}"),
            ))
        }
    }

    pub(crate) fn pos(&self, key: &str, v: f64) -> Result<f64, RulesError> {
        self.num(key, v, 0.0, false)
    }

    pub(crate) fn nonneg(&self, key: &str, v: f64) -> Result<f64, RulesError> {
        self.num(key, v, 0.0, true)
    }

    pub(crate) fn pct(&self, key: &str, v: f64) -> Result<f64, RulesError> {
        self.nonneg(key, v)?;
        if v >= 100.0 {
            return Err(self.err(key, format!("must be below 100 (percent), found {v}")));
        }
        Ok(v)
    }
}

pub(crate) fn ensure_absent<T>(
    c: &Check<'_>,
    key: &str,
    v: &Option<T>,
    kind: &str,
) -> Result<(), RulesError> {
    if v.is_some() {
        Err(c.err(key, format!("is not allowed for kind = \"{kind}\"")))
    } else {
        Ok(())
    }
}
