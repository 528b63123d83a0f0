//! Figures finer than printed: where a report prints a cell coarser than its totals give it
//! (a whole-ms average wait beside a total of seconds over many waits; a text report's
//! `per Second` with 1 decimal beside a Total and the Elapsed minutes), the finer value and the
//! bounds the printed precision of its inputs leaves ([`wait_average`], [`activity_rate`]).
//! The model rows keep the printed cells beside them (`printed`, `per_second`) and carry the
//! bounds in `lo` / `hi`, which the figures of an interval turn into their `derived`.

/// Half a unit of the last digit of a cell printed with `d` decimals (`d` < 0: tens, …): how far
/// the printed number can be from the value it rounds.
pub fn half_unit(d: i32) -> f64 {
    0.5 * 10f64.powi(-d)
}

/// Decimals of a duration printed as `152.25us` / `3.23ms` / `52.86 s` / `2` once in ms, so the
/// value keeps exactly the printed precision.
pub fn decimals_in_ms(printed: &str) -> u32 {
    let p = printed.trim();
    let num: String = p
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .collect();
    let d = num.split('.').nth(1).map_or(0, |f| f.len() as i32);
    let unit = p[num.len()..].trim();
    let shift = match unit {
        "ns" => 6,
        "us" | "\u{b5}s" => 3,
        "s" => -3,
        _ => 0,
    };
    (d + shift).max(0) as u32
}

/// A duration cell as printed (`152.25us`, `3.23ms`, `52.86 s`, a bare `2` = ms), in ms.
pub fn printed_ms(printed: &str) -> Option<f64> {
    let p = printed.trim();
    let num: String = p
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .collect();
    let v: f64 = num.replace(',', "").parse().ok()?;
    let scale = match p[num.len()..].trim() {
        "ns" => 1e-6,
        "us" | "\u{b5}s" => 1e-3,
        "s" => 1e3,
        "ms" | "" => 1.0,
        _ => return None,
    };
    Some(v * scale)
}

/// The average wait (ms) of one event: `(value, bounds)`. Total Wait Time (s) × 1000 / Waits
/// where its precision (half a unit of the printed total, × 1000 / Waits) is finer than the
/// printed average's, with the bounds `(lo, hi)` of the true average; else the printed average
/// and `None`. A total printed as 0 bounds the average only from above: `value` = `hi`; so
/// does a printed average of 0 where the total is not finer (`printed_zero`).
///
/// The two cells round the same wait time, so they must agree within their roundings; where
/// they do not (a report's own inconsistency), the printed average is kept.
pub fn wait_average(w: &sizer_parsers::awr::WaitEvent) -> (Option<f64>, Option<(f64, f64)>) {
    let printed = w.avg_wait_ms;
    let (Some(t), Some(n), Some(dt), Some(p)) =
        (w.total_wait_s, w.waits, w.total_wait_decimals, printed)
    else {
        return printed_zero(w);
    };
    if !(n >= 1.0 && t >= 0.0 && t.is_finite() && n.is_finite()) {
        return printed_zero(w);
    }
    let hp = half_unit(decimals_in_ms(&w.avg_wait_printed) as i32);
    let ht = half_unit(dt as i32);
    if ht * 1000.0 / n >= hp {
        return printed_zero(w);
    }
    let lo = (t - ht).max(0.0) * 1000.0 / n;
    let hi = (t + ht) * 1000.0 / n;
    if p + hp < lo || p - hp > hi {
        return printed_zero(w);
    }
    let value = if t - ht <= 0.0 { hi } else { t * 1000.0 / n };
    (Some(value), Some((lo, hi)))
}

/// A printed average of 0 (`0`, `.00`) is not a measured 0 ms but a bound: the average rounds
/// to it, so it is below half a unit of its last digit (`0` ms: under 0.5 ms). Read as
/// `value` = that bound, bounds `(0, bound)`; any other printed average is kept as it is.
fn printed_zero(w: &sizer_parsers::awr::WaitEvent) -> (Option<f64>, Option<(f64, f64)>) {
    match w.avg_wait_ms {
        Some(p) if p == 0.0 && !w.avg_wait_printed.trim().is_empty() => {
            let hp = half_unit(decimals_in_ms(&w.avg_wait_printed) as i32);
            (Some(hp), Some((0.0, hp)))
        }
        other => (other, None),
    }
}

/// Decimals AWR HTML reports print `per Second` rates with: a rate recomputed from a text
/// report's Total is given to at most these, so the text and HTML forms of one report agree.
pub const HTML_RATE_DECIMALS: u32 = 2;

/// An Instance Activity rate recomputed as Total / elapsed seconds: `(rate, lo, hi)`, or `None`
/// when that is not finer than the printed `per Second` (`rate_decimals` decimals) or not
/// possible. `elapsed` = (`Elapsed:` minutes, its printed decimals). Totals of the Instance
/// Activity tables are counts (requests, bytes, blocks), printed in full: an integer total is
/// taken as exact, any other is not used. Bounds: Total / (elapsed ± half a unit of its last
/// printed digit). Finer means the bounds' half-width is below half a unit of the printed
/// rate's last digit, and a text report (fewer than [`HTML_RATE_DECIMALS`]).
pub fn activity_rate(
    total: Option<f64>,
    printed_per_second: Option<f64>,
    elapsed: Option<(f64, u32)>,
    rate_decimals: u32,
) -> Option<(f64, f64, f64)> {
    let (t, p, (min, d)) = (total?, printed_per_second?, elapsed?);
    if rate_decimals >= HTML_RATE_DECIMALS || !t.is_finite() || t < 0.0 || t.fract() != 0.0 {
        return None;
    }
    let e = min * 60.0;
    let he = half_unit(d as i32) * 60.0;
    if e - he <= 0.0 {
        return None;
    }
    let (v, lo, hi) = (t / e, t / (e + he), t / (e - he));
    let hp = half_unit(rate_decimals as i32);
    if (hi - lo) / 2.0 >= hp || (v - p).abs() > hp + (hi - lo) / 2.0 + 1e-9 {
        return None;
    }
    Some((v, lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sizer_parsers::awr::{WaitEvent, WaitScope};

    #[test]
    fn printed_precision_survives_the_conversion_to_ms() {
        assert_eq!(decimals_in_ms("152.25us"), 5); // 0.15225 ms
        assert_eq!(decimals_in_ms("3.23ms"), 2);
        assert_eq!(decimals_in_ms("52.86 s"), 0); // 52860 ms
        assert_eq!(decimals_in_ms("2"), 0); // 11g integer ms
        assert_eq!(decimals_in_ms("433.09ns"), 8);
        assert_eq!(printed_ms("152.25us"), Some(0.15225));
        assert_eq!(printed_ms("2"), Some(2.0));
    }

    fn wait(waits: f64, total_s: f64, total_decimals: u32, printed: &str) -> WaitEvent {
        WaitEvent {
            scope: WaitScope::Foreground,
            event: "db file sequential read".into(),
            wait_class: None,
            waits: Some(waits),
            total_wait_s: Some(total_s),
            total_wait_decimals: Some(total_decimals),
            avg_wait_ms: printed_ms(printed),
            avg_wait_printed: printed.into(),
        }
    }

    #[test]
    fn a_whole_second_total_over_many_waits_is_finer_than_a_whole_ms_average() {
        // 6 s / 27,042 waits = 0.22188 ms, between 5.5 and 6.5 s: 0.20339 to 0.24037 ms
        // (± 0.0185 ms < the printed `0`'s ± 0.5 ms).
        let (v, b) = wait_average(&wait(27_042.0, 6.0, 0, "0"));
        assert!((v.unwrap() - 0.221_877).abs() < 1e-6);
        let (lo, hi) = b.unwrap();
        assert!((lo - 0.203_387).abs() < 1e-6 && (hi - 0.240_367).abs() < 1e-6);
        // A total printed 0 over 8,143 waits: under 0.5 s, at most 0.0614 ms (value = bound).
        let (v, b) = wait_average(&wait(8_143.0, 0.0, 0, "0"));
        assert_eq!(b.map(|b| b.0), Some(0.0));
        assert!((v.unwrap() - 0.061_402).abs() < 1e-6);
        // 0 s over 40 waits (≤ 12.5 ms) is coarser than the printed 0 (< 0.5 ms): the printed
        // average is the bound, at most 0.5 ms.
        assert_eq!(
            wait_average(&wait(40.0, 0.0, 0, "0")),
            (Some(0.5), Some((0.0, 0.5)))
        );
        // 40 s over 360,121 waits (± 0.0014 ms) is coarser than 109.72us (± 0.000005 ms).
        assert_eq!(
            wait_average(&wait(360_121.0, 40.0, 0, "109.72us")),
            (Some(0.10972), None)
        );
        // Inconsistent cells (10 s / 1,000 = 10 ms beside a printed 2): the printed one is kept.
        assert_eq!(
            wait_average(&wait(1_000.0, 10.0, 1, "2")),
            (Some(2.0), None)
        );
    }

    #[test]
    fn text_rates_are_recomputed_only_where_finer() {
        // 576 / 3,600 s = 0.16 /s beside a printed 0.2 (1 decimal); bounds ± 0.3 s.
        let (v, lo, hi) = activity_rate(Some(576.0), Some(0.2), Some((60.0, 2)), 1).unwrap();
        assert_eq!(v, 0.16);
        assert!((lo - 576.0 / 3_600.3).abs() < 1e-12 && (hi - 576.0 / 3_599.7).abs() < 1e-12);
        // 12,345,678 / 3,600 = 3,429.355 ± 0.29: not finer than ± 0.05.
        assert_eq!(
            activity_rate(Some(12_345_678.0), Some(3_429.4), Some((60.0, 2)), 1),
            None
        );
        // HTML reports (2 decimals) keep their printed rates.
        assert_eq!(
            activity_rate(Some(576.0), Some(0.16), Some((60.0, 2)), 2),
            None
        );
        // A total that is not a whole count is not used.
        assert_eq!(
            activity_rate(Some(57.6), Some(0.0), Some((60.0, 2)), 1),
            None
        );
    }
}
