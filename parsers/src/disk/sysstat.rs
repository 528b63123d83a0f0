//! The sysstat column names (`iostat`, `sar -d`/`-b`, `sadf`), each with its unit, mapped onto
//! [`Normalised`]; and the text helpers the sysstat text parsers share: one value cell and the
//! Linux banner.
//!
//! Flow: a parser reads each cell with [`sysstat_cell`] (decimal comma, `--human` suffix back
//! into the column's unit via [`sysstat_unit_bytes`]), keeps `(column, value)` verbatim, and
//! calls [`sysstat_normalise`] on the row: the first alias present in each alias table, times its
//! unit in bytes, fills a field. [`sysstat_known`] tells which header names are known.

use super::{Normalised, SystemHeader, GIB, MIB};
// As printed: the `checked` sink makes NaN, inf, negative and huge values unknown, with a warning.
use crate::num::{as_printed as number, Scale};

const READ_BYTES: &[(&str, f64)] = &[
    ("rsec/s", 512.0),
    ("rd_sec/s", 512.0),
    ("Blk_read/s", 512.0),
    ("bread/s", 512.0),
    ("rkB/s", 1024.0),
    ("kB_read/s", 1024.0),
    ("rMB/s", MIB),
    ("MB_read/s", MIB),
    ("rGB/s", GIB),
    ("GB_read/s", GIB),
];
const WRITE_BYTES: &[(&str, f64)] = &[
    ("wsec/s", 512.0),
    ("wr_sec/s", 512.0),
    ("Blk_wrtn/s", 512.0),
    ("bwrtn/s", 512.0),
    ("wkB/s", 1024.0),
    ("kB_wrtn/s", 1024.0),
    ("wMB/s", MIB),
    ("MB_wrtn/s", MIB),
    ("wGB/s", GIB),
    ("GB_wrtn/s", GIB),
];
const DISCARD_BYTES: &[(&str, f64)] = &[
    ("dsec/s", 512.0),
    ("Blk_dscd/s", 512.0),
    ("bdscd/s", 512.0),
    ("dkB/s", 1024.0),
    ("kB_dscd/s", 1024.0),
    ("dMB/s", MIB),
    ("MB_dscd/s", MIB),
    ("dGB/s", GIB),
    ("GB_dscd/s", GIB),
];
const TOTAL_BYTES: &[(&str, f64)] = &[
    ("sec/s", 512.0),
    ("kB/s", 1024.0),
    ("MB/s", MIB),
    ("GB/s", GIB),
];
const REQ_BYTES: &[(&str, f64)] = &[("avgrq-sz", 512.0), ("areq-sz", 1024.0)];
const QUEUE: &[(&str, f64)] = &[("avgqu-sz", 1.0), ("aqu-sz", 1.0)];
const READ_IOPS: &[&str] = &["r/s", "rtps"];
const WRITE_IOPS: &[&str] = &["w/s", "wtps"];
const DISCARD_IOPS: &[&str] = &["d/s", "dtps"];

/// Other names sysstat prints (kept in `values`, no warning).
const OTHER_KNOWN: &[&str] = &[
    "f/s",
    "tps",
    "r_await",
    "w_await",
    "d_await",
    "f_await",
    "await",
    "rareq-sz",
    "wareq-sz",
    "dareq-sz",
    "%util",
    "svctm",
    "rrqm/s",
    "wrqm/s",
    "drqm/s",
    "%rrqm",
    "%wrqm",
    "%drqm",
    "rqm/s",
    "kB_read",
    "kB_wrtn",
    "kB_dscd",
    "MB_read",
    "MB_wrtn",
    "MB_dscd",
    "Blk_read",
    "Blk_wrtn",
    "Blk_dscd",
    "kB_w+d/s",
    "kB_w+d",
    "MB_w+d/s",
    "MB_w+d",
    "Blk_w+d/s",
    "Blk_w+d",
    "GB_read",
    "GB_wrtn",
    "GB_dscd",
    "GB_w+d/s",
    "GB_w+d",
];

/// True for a column name sysstat (`iostat`, `sar -d`, `sar -b`, `sadf`) prints.
pub fn sysstat_known(column: &str) -> bool {
    OTHER_KNOWN.contains(&column)
        || READ_IOPS.contains(&column)
        || WRITE_IOPS.contains(&column)
        || DISCARD_IOPS.contains(&column)
        || [
            READ_BYTES,
            WRITE_BYTES,
            DISCARD_BYTES,
            TOTAL_BYTES,
            REQ_BYTES,
            QUEUE,
        ]
        .iter()
        .any(|t| t.iter().any(|(n, _)| *n == column))
}

/// Bytes in one unit of a sysstat column (for `--human` values): `kB` 1024, `MB` 2^20, `GB`
/// 2^30, sectors/blocks 512 (`rsec/s`, `rd_sec/s`, `Blk_…`, `bread/s`, `avgrq-sz`), `areq-sz`
/// 1024; `None` for a column that is not a size.
pub fn sysstat_unit_bytes(column: &str) -> Option<f64> {
    if column.contains("kB") {
        Some(1024.0)
    } else if column.contains("MB") {
        Some(MIB)
    } else if column.contains("GB") {
        Some(GIB)
    } else if column.contains("sec")
        || column.contains("Blk")
        || column == "avgrq-sz"
        || column.starts_with("bread")
        || column.starts_with("bwrtn")
        || column.starts_with("bdscd")
    {
        Some(512.0)
    } else if column.ends_with("areq-sz") {
        Some(1024.0)
    } else {
        None
    }
}

fn lookup(values: &[(String, Option<f64>)], name: &str) -> Option<Option<f64>> {
    values.iter().find(|(c, _)| c == name).map(|(_, v)| *v)
}

fn scaled(values: &[(String, Option<f64>)], table: &[(&str, f64)]) -> Option<f64> {
    table
        .iter()
        .find_map(|(n, f)| lookup(values, n).map(|v| v.map(|v| v * f)))
        .flatten()
}

fn first(values: &[(String, Option<f64>)], names: &[&str]) -> Option<f64> {
    names.iter().find_map(|n| lookup(values, n)).flatten()
}

/// Normalises sysstat columns (`iostat`, `sar -d`, `sar -b`, `sadf`) through the alias table.
///
/// Units are from the sysstat `iostat(1)`/`sar(1)` man pages and
/// `../shared/reference/iostat-sar-formats.md` §1.4 (read in sysstat's `iostat.c`): a "kB" is
/// 1024 bytes, a sector or block is 512 bytes.
///
/// | field | header names (unit → factor) |
/// |---|---|
/// | `read_iops` / `write_iops` / `discard_iops` | `r/s`, `rtps` / `w/s`, `wtps` / `d/s`, `dtps` |
/// | `total_iops` | `tps`; else `r/s + w/s (+ d/s when printed)`: flushes (`f/s`) carry no data and sysstat's `tps` leaves them out |
/// | `read_bytes_per_s` | `rsec/s`, `rd_sec/s`, `Blk_read/s`, `bread/s` (×512); `rkB/s`, `kB_read/s` (×1024); `rMB/s`, `MB_read/s` (×2^20); `rGB/s`, `GB_read/s` (×2^30) |
/// | `write_bytes_per_s` | `wsec/s`, `wr_sec/s`, `Blk_wrtn/s`, `bwrtn/s` (×512); `wkB/s`, `kB_wrtn/s` (×1024); `wMB/s`, `MB_wrtn/s`; `wGB/s`, `GB_wrtn/s` |
/// | `discard_bytes_per_s` | `dsec/s`, `Blk_dscd/s`, `bdscd/s` (×512); `dkB/s`, `kB_dscd/s` (×1024); `dMB/s`, `MB_dscd/s`; `dGB/s`, `GB_dscd/s` |
/// | `total_bytes_per_s` | `-x -s`: `sec/s` (×512), `kB/s` (×1024), `MB/s`, `GB/s` |
/// | `read_await_ms` / `write_await_ms` / `await_ms` | `r_await` / `w_await` / `await` (ms) |
/// | `queue_depth` | `avgqu-sz`, `aqu-sz` |
/// | `avg_request_bytes` | `avgrq-sz` (×512), `areq-sz` (×1024); else `rareq-sz`/`wareq-sz` weighted by `r/s`/`w/s` when their sum is > 0 |
/// | `read_request_bytes` / `write_request_bytes` | `rareq-sz` / `wareq-sz` (×1024) |
/// | `util_pct` / `service_ms` | `%util` / `svctm` (shown only) |
pub fn sysstat_normalise(values: &[(String, Option<f64>)]) -> Normalised {
    let r = first(values, READ_IOPS);
    let w = first(values, WRITE_IOPS);
    let dd = first(values, DISCARD_IOPS);
    // sysstat's own `tps` counts reads, writes and discards, not flushes (iostat.c: `rd_ios +
    // wr_ios + dc_ios`); a flush carries no data.
    let total_iops = lookup(values, "tps").flatten().or(match (r, w) {
        (Some(r), Some(w)) => Some(r + w + dd.unwrap_or(0.0)),
        _ => None,
    });
    let read_request_bytes = lookup(values, "rareq-sz").flatten().map(|v| v * 1024.0);
    let write_request_bytes = lookup(values, "wareq-sz").flatten().map(|v| v * 1024.0);
    let avg_request_bytes =
        scaled(values, REQ_BYTES).or(match (r, w, read_request_bytes, write_request_bytes) {
            (Some(r), Some(w), Some(rb), Some(wb)) if r + w > 0.0 => {
                Some((r * rb + w * wb) / (r + w))
            }
            _ => None,
        });
    Normalised {
        read_iops: r,
        write_iops: w,
        discard_iops: dd,
        total_iops,
        read_bytes_per_s: scaled(values, READ_BYTES),
        write_bytes_per_s: scaled(values, WRITE_BYTES),
        discard_bytes_per_s: scaled(values, DISCARD_BYTES),
        total_bytes_per_s: scaled(values, TOTAL_BYTES),
        read_await_ms: lookup(values, "r_await").flatten(),
        write_await_ms: lookup(values, "w_await").flatten(),
        await_ms: lookup(values, "await").flatten(),
        queue_depth: scaled(values, QUEUE),
        avg_request_bytes,
        read_request_bytes,
        write_request_bytes,
        util_pct: lookup(values, "%util").flatten(),
        service_ms: lookup(values, "svctm").flatten(),
    }
}

/// One value cell. `--human` suffixes (`k`, `M`, `G`, `T`, `P`: 1024-based bytes, as sysstat's
/// `cprintf_u64`/`cprintf_f` print them) are converted back into the column's unit.
pub(crate) fn sysstat_cell(tok: &str, column: &str, comma: bool) -> Result<Option<f64>, String> {
    let owned;
    let mut s = tok;
    if comma {
        owned = tok.replace(',', ".");
        s = &owned;
    }
    let s = s.strip_suffix('%').unwrap_or(s);
    let suffixed = s.chars().last().is_some_and(|c| c.is_ascii_alphabetic());
    if !suffixed {
        return number(s, Scale::Decimal);
    }
    match sysstat_unit_bytes(column) {
        Some(ub) => {
            let bytes = match s.strip_suffix('B') {
                Some(b) => number(b, Scale::Binary)?,
                None => number(s, Scale::Binary)?,
            };
            Ok(bytes.map(|b| b / ub))
        }
        None => number(s, Scale::Decimal),
    }
}

/// `Linux <release> (<host>) <date…> [_<arch>_] [(<N> CPU)]`.
pub(crate) fn linux_banner(toks: &[&str]) -> Option<SystemHeader> {
    if toks.len() < 3 || toks[0] != "Linux" {
        return None;
    }
    let host = toks[2].strip_prefix('(')?.strip_suffix(')')?;
    let mut arch = None;
    let mut cpus = None;
    let mut date = Vec::new();
    let mut k = 3;
    while k < toks.len() {
        let t = toks[k];
        if t.len() > 2 && t.starts_with('_') && t.ends_with('_') {
            arch = Some(t.trim_matches('_').to_string());
        } else if let Some(n) = t.strip_prefix('(') {
            if toks.get(k + 1).is_some_and(|c| c.starts_with("CPU")) {
                cpus = n.parse().ok();
                k += 1;
            }
        } else if arch.is_none() && cpus.is_none() {
            date.push(t);
        }
        k += 1;
    }
    Some(SystemHeader {
        sysname: toks[0].to_string(),
        kernel: toks[1].to_string(),
        host: host.to_string(),
        date: (!date.is_empty()).then(|| date.join(" ")),
        arch,
        cpus,
    })
}
