//! A tolerated problem or caveat of a subject (database, host, cluster), with a stable id.

use serde::Serialize;

/// A tolerated problem or caveat, with a stable id.
#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    /// Stable id: `rac_instance`, `rac_partial`, `pdb_report`, `io_profile_mismatch`,
    /// `parser`, `required_unknown`, `restart`, `long_window`, or the id of a fired rule with
    /// effect `warn` (`long-window-hides-peaks`, `slow-single-block-reads`, `slow-log-writes`).
    pub id: String,
    /// The message.
    pub message: String,
}

/// Formats `v` with `d` decimals and `,` thousands separators (`1,353.87`) for a warning's text:
/// the same wording as the report's numbers, without the engine calling the report layer.
pub(crate) fn fmt_grouped(v: f64, d: usize) -> String {
    let s = format!("{:.*}", d, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s.as_str(), None),
    };
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        "-"
    } else {
        ""
    };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// Seconds as `10 s`, `25 min`, `3.5 h` or `12.0 days`.
pub(crate) fn fmt_s(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 172_800.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::fmt_grouped;

    #[test]
    fn grouped_numbers() {
        assert_eq!(fmt_grouped(1353.871, 2), "1,353.87");
        assert_eq!(fmt_grouped(1440.0, 2), "1,440.00");
        assert_eq!(fmt_grouped(-0.001, 2), "0.00");
        assert_eq!(fmt_grouped(-1234567.0, 0), "-1,234,567");
    }
}
