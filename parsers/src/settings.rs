//! The settings of a parse that the text cannot tell, given to every format parser (and to the
//! streaming order of calls in `sink`); re-exported as `parser::ParseSettings` and at the crate
//! root.

/// Settings of a parse that the text cannot tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseSettings {
    /// The first report of an OS log holds averages since boot (`true`, the default). `false` for
    /// logs taken with `iostat -y`, which the text does not show: a Linux iostat log read as a
    /// stream then marks no report of any run as since boot; any other OS log has its first
    /// report read as an interval.
    pub first_report_since_boot: bool,
    /// Keep every printed column in [`crate::disk::DeviceSample::values`] (`true`, the default).
    /// With `false` a streaming parser leaves `values` empty and fills only `normalised`, without
    /// an allocation per column (for big logs); formats that do not stream keep them anyway.
    pub keep_values: bool,
}

impl Default for ParseSettings {
    fn default() -> Self {
        ParseSettings {
            first_report_since_boot: true,
            keep_values: true,
        }
    }
}
