//! Sizing.

/// Average read size up to which a host's r_await is graded as a small random read on the IO
/// report card (the Delphix random-read test uses small blocks; tier-catalog §4.4), KiB.
pub(crate) const SMALL_READ_KIB: f64 = 32.0;

/// Minutes of the longest run of consecutive intervals whose value is at least `target` (each
/// `(value, minutes)` in time order; a missing value breaks a run): how long a load at the sizing
/// figure lasted. `None` when no interval reaches it or lengths are unknown.
pub(crate) fn sustained_minutes(
    values: impl Iterator<Item = (Option<f64>, Option<f64>)>,
    target: f64,
) -> Option<f64> {
    let (mut best, mut run) = (0.0_f64, 0.0_f64);
    for (v, len) in values {
        match (v, len) {
            (Some(v), Some(l)) if v >= target * (1.0 - 1e-9) => {
                run += l;
                best = best.max(run);
            }
            _ => run = 0.0,
        }
    }
    (best > 0.0).then_some(best)
}
