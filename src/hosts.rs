//! Re-exports at the paths the report layer and the tests used before the engine was split
//! (see [`crate::ingest`], [`crate::subject::host`] and [`crate::subject::side_by_side`]).

pub use crate::figures::{HostFigures, FIGURES};
pub use crate::ingest::{HostSource, Ingest};
pub use crate::settings::{DeviceSelection, DeviceSettings};
pub use crate::subject::host::AwrSideBySide;
pub use crate::subject::host::{
    hosts, series_frame, DeviceFigure, DeviceStats, HostAnalysis, HostSourceInfo, SeriesRow,
};
pub use crate::subject::side_by_side::side_by_side;
