//! Re-exports at the paths the report layer and the tests used before the engine was split
//! (see [`crate::pipeline`], [`crate::subject::awr`] and [`crate::subject::database`]).

pub use crate::model::series::SeriesStats;
pub use crate::pipeline::{discover, run, run_inputs, Duplicate, Failure, Input, Run, Skipped};
pub use crate::settings::{Settings, SizeOn};
pub use crate::subject::awr::{
    Analysis, FormulaInfo, Interval, SourceInfo, StatisticValue, STATISTICS_SHOWN,
};
pub use crate::subject::database::{
    series_frame, DatabaseAnalysis, InstanceShare, IntervalRow, LONG_WINDOW_MIN, SERIES_FIELDS,
};
pub use crate::warning::Warning;
