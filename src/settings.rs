//! User settings that shape a run: the statistic of a series to size on, headroom, capacity,
//! platforms, host type, and for OS disk logs the devices that make a host total. Every stage
//! reads them; this module depends on nothing else of the engine.

use serde::Serialize;
use sizer_parsers::disk::{DateOrder, DeviceRole};

/// A setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// `--devices` named no device.
    #[error("expected 'disks', 'all' or a comma-separated list of device names")]
    NoDeviceNames,
}

/// Which statistic of a database's interval series the sizing uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeOn {
    /// Time-weighted average over all intervals.
    Avg,
    /// Median of the intervals.
    P50,
    /// 95th percentile of the intervals (default).
    #[default]
    P95,
    /// 99th percentile of the intervals.
    P99,
    /// Busiest interval.
    Max,
    /// The highest peak inside an interval, where the source prints one (AWR Miner / DBCSI
    /// `_max` columns); else as [`SizeOn::Max`], with a warning.
    MaxInInterval,
}

impl SizeOn {
    /// Short name (`p95`).
    pub fn name(self) -> &'static str {
        match self {
            SizeOn::Avg => "avg",
            SizeOn::P50 => "p50",
            SizeOn::P95 => "p95",
            SizeOn::P99 => "p99",
            SizeOn::Max => "max",
            SizeOn::MaxInInterval => "max-in-interval",
        }
    }
}

/// User settings that shape the run.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Headroom over the sizing figure, %; `None` = the rules' default.
    pub headroom_pct: Option<f64>,
    /// Data capacity to provision, GiB; `None` = unknown (size for performance only).
    pub capacity_gib: Option<f64>,
    /// `--capacity-file`: a size per database or host ([`crate::capacity`]); it takes
    /// precedence over `capacity_gib`.
    pub capacity_file: Option<std::sync::Arc<crate::capacity::CapacityFile>>,
    /// `--horizon`, years: the capacity file's sizes are grown to it (rows may set their own).
    pub horizon_years: Option<f64>,
    /// Host type whose storage caps apply (`--instance`, an `[[instance]]` id of the catalogue).
    pub instance: Option<String>,
    /// Platforms to recommend for (`onprem`, `aws`); empty = all.
    pub platforms: Vec<String>,
    /// The statistic of the interval series to size on.
    pub size_on: SizeOn,
    /// Show a progress bar on stderr: files read of the total, the rate (files/s) and the time
    /// left. `sizer analyze` sets it when stderr is a terminal and `CI` is not set; indicatif
    /// also draws nothing when stderr is not a terminal.
    pub progress: bool,
    /// OS disk logs: device selection, date order, `iostat -y`.
    pub devices: DeviceSettings,
    /// Run the optional SAP HANA-style checks on vSAN/ESXi exports (`rules/vsan.toml` `[hana]`).
    pub hana_checks: bool,
    /// `--consolidate`: size the fleet's time-aligned sum as one shared array (on-premises) and
    /// one shared layout per cloud (docs/consolidation.md).
    pub consolidate: bool,
    /// Caps on each input's file size and decompressed size (`--max-file-size`,
    /// `--max-decompressed-size`).
    pub limits: sizer_parsers::input::Limits,
    /// A run of more inputs than this holds each report's analysis and kept rows in a
    /// temporary file instead of memory (`held.rs`, `spill.rs`); `None` is
    /// [`SPILL_AFTER`]. The output is the same either way.
    pub spill_after: Option<usize>,
}

/// The default of [`Settings::spill_after`]: a run of up to 1,000 inputs holds its reports in
/// memory (about 15 MB at 15 KB each: `docs/performance.md`); a larger one spills them, so that
/// its memory grows with its databases and intervals, not its reports.
pub const SPILL_AFTER: usize = 1_000;

/// Which devices make up the host total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DeviceSelection {
    /// Whole disks and LUNs only (default): partitions, device-mapper, md, groups and loop/ram
    /// devices are left out because their IO is already counted on their disks.
    #[default]
    Disks,
    /// Every device except groups and loop/ram/optical devices (may double count: the user's
    /// choice).
    All,
    /// Exactly these device names.
    Names(Vec<String>),
}

impl DeviceSelection {
    /// Parses `disks`, `all` or a comma-separated list of names.
    ///
    /// # Errors
    /// [`SettingsError::NoDeviceNames`] for an empty list.
    pub fn parse(s: &str) -> Result<Self, SettingsError> {
        match s.trim() {
            "disks" => Ok(DeviceSelection::Disks),
            "all" => Ok(DeviceSelection::All),
            other => {
                let names: Vec<String> = other
                    .split(',')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty())
                    .collect();
                if names.is_empty() {
                    Err(SettingsError::NoDeviceNames)
                } else {
                    Ok(DeviceSelection::Names(names))
                }
            }
        }
    }

    /// Words for the report.
    pub fn describe(&self) -> String {
        match self {
            DeviceSelection::Disks => {
                "whole disks only (default; partitions, device-mapper/LVM, md and groups are counted on their disks)".into()
            }
            DeviceSelection::All => {
                "every device except groups and loop/ram devices (--devices all: partitions and device-mapper devices may double count)".into()
            }
            DeviceSelection::Names(n) => format!("the devices named with --devices: {}", n.join(", ")),
        }
    }

    pub(crate) fn includes(&self, name: &str, role: DeviceRole) -> bool {
        match self {
            DeviceSelection::Disks => role == DeviceRole::Disk,
            DeviceSelection::All => !matches!(role, DeviceRole::Group | DeviceRole::Virtual),
            DeviceSelection::Names(n) => n.iter().any(|x| x == name),
        }
    }
}

/// Settings for OS disk logs.
#[derive(Debug, Clone, Default)]
pub struct DeviceSettings {
    /// Devices that make the host total.
    pub selection: DeviceSelection,
    /// How to read `01/02/24`; `None` = decide from the log (day first if a first field is > 12,
    /// month first if a second one is; month first and a warning when every date fits both).
    pub date_order: Option<DateOrder>,
    /// The iostat logs were taken with `-y`: their first report is an interval, not averages
    /// since boot.
    pub iostat_y: bool,
    /// `--host NAME`: the host of every log that prints no host name (an iostat log without its
    /// banner line, AIX and Solaris `iostat`); `None` names such a log after its file.
    pub host: Option<String>,
}

impl Settings {
    /// [`Settings::spill_after`], its default applied.
    pub fn spill_threshold(&self) -> usize {
        self.spill_after.unwrap_or(SPILL_AFTER)
    }

    /// What [`crate::capacity::resolve`] looks in.
    pub fn capacity_given(&self) -> crate::capacity::Given<'_> {
        crate::capacity::Given {
            file: self.capacity_file.as_deref(),
            capacity_gib: self.capacity_gib,
            horizon_years: self.horizon_years,
        }
    }
}
