//! The quantities rules test ([`Metric`]) and the comparisons of their conditions ([`Op`]).
//!
//! A rule condition is `metric op value`; the evaluator takes each metric's value from the
//! demand and the headroom, and a message template names metrics by their TOML spelling.

use serde::{Deserialize, Serialize};

/// A quantity rules can test. Names are the TOML spellings (`snake_case`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// [`super::Demand::required_iops`], IOPS.
    RequiredIops,
    /// required IOPS × (1 + headroom), IOPS.
    SizedIops,
    /// [`super::Demand::read_iops`].
    ReadIops,
    /// [`super::Demand::write_iops`].
    WriteIops,
    /// [`super::Demand::read_mb_s`], MB/s (10^6).
    ReadMbS,
    /// [`super::Demand::write_mb_s`], MB/s (10^6).
    WriteMbS,
    /// read + write MB/s (10^6).
    TotalMbS,
    /// (read + write MB/s) × (1 + headroom).
    SizedMbS,
    /// write IOPS / (read + write IOPS), 0..1; unknown when both are 0.
    WriteShare,
    /// [`super::Demand::avg_read_kib`], KiB.
    AvgReadKib,
    /// [`super::Demand::avg_write_kib`], KiB.
    AvgWriteKib,
    /// [`super::Demand::small_read_share`], 0..1.
    SmallReadShare,
    /// [`super::Demand::cache_hit_pct`], 0..100.
    CacheHitPct,
    /// [`super::Demand::direct_read_share`], 0..1.
    DirectReadShare,
    /// [`super::Demand::single_block_read_ms`], ms.
    SingleBlockReadMs,
    /// [`super::Demand::log_write_ms`], ms.
    LogWriteMs,
    /// [`super::Demand::capacity_gib`], GiB.
    CapacityGib,
    /// [`super::Demand::window_minutes`], minutes.
    WindowMinutes,
    /// [`super::Demand::host_cpu_busy_pct`], percent 0..100.
    HostCpuBusyPct,
    /// [`super::Demand::host_cpu_iowait_pct`], percent 0..100.
    HostCpuIowaitPct,
}

impl Metric {
    /// Every metric, in declaration order.
    pub const ALL: [Metric; 20] = [
        Metric::RequiredIops,
        Metric::SizedIops,
        Metric::ReadIops,
        Metric::WriteIops,
        Metric::ReadMbS,
        Metric::WriteMbS,
        Metric::TotalMbS,
        Metric::SizedMbS,
        Metric::WriteShare,
        Metric::AvgReadKib,
        Metric::AvgWriteKib,
        Metric::SmallReadShare,
        Metric::CacheHitPct,
        Metric::DirectReadShare,
        Metric::SingleBlockReadMs,
        Metric::LogWriteMs,
        Metric::CapacityGib,
        Metric::WindowMinutes,
        Metric::HostCpuBusyPct,
        Metric::HostCpuIowaitPct,
    ];

    /// TOML spelling, e.g. `cache_hit_pct`.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::RequiredIops => "required_iops",
            Metric::SizedIops => "sized_iops",
            Metric::ReadIops => "read_iops",
            Metric::WriteIops => "write_iops",
            Metric::ReadMbS => "read_mb_s",
            Metric::WriteMbS => "write_mb_s",
            Metric::TotalMbS => "total_mb_s",
            Metric::SizedMbS => "sized_mb_s",
            Metric::WriteShare => "write_share",
            Metric::AvgReadKib => "avg_read_kib",
            Metric::AvgWriteKib => "avg_write_kib",
            Metric::SmallReadShare => "small_read_share",
            Metric::CacheHitPct => "cache_hit_pct",
            Metric::DirectReadShare => "direct_read_share",
            Metric::SingleBlockReadMs => "single_block_read_ms",
            Metric::LogWriteMs => "log_write_ms",
            Metric::CapacityGib => "capacity_gib",
            Metric::WindowMinutes => "window_minutes",
            Metric::HostCpuBusyPct => "host_cpu_busy_pct",
            Metric::HostCpuIowaitPct => "host_cpu_iowait_pct",
        }
    }

    /// Metric named `s` (TOML spelling).
    pub fn from_name(s: &str) -> Option<Metric> {
        Metric::ALL.iter().copied().find(|m| m.as_str() == s)
    }
}

/// Comparison of a [`Condition`](crate::rules::Condition).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `<`
    #[serde(rename = "<")]
    Lt,
    /// `<=`
    #[serde(rename = "<=")]
    Le,
    /// `>`
    #[serde(rename = ">")]
    Gt,
    /// `>=`
    #[serde(rename = ">=")]
    Ge,
    /// `==` (exact float equality)
    #[serde(rename = "==")]
    Eq,
    /// `!=`
    #[serde(rename = "!=")]
    Ne,
}

impl Op {
    /// The operator as written in TOML.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }

    /// `lhs op rhs`.
    pub fn holds(self, lhs: f64, rhs: f64) -> bool {
        match self {
            Op::Lt => lhs < rhs,
            Op::Le => lhs <= rhs,
            Op::Gt => lhs > rhs,
            Op::Ge => lhs >= rhs,
            Op::Eq => lhs == rhs,
            Op::Ne => lhs != rhs,
        }
    }
}
