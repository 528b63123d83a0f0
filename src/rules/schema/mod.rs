//! Typed form of `rules/tiers.toml` and `rules/sizing.toml`, parsing and validation.
//!
//! Parsing happens in two steps: serde reads the file into "raw" structs that
//! mirror the TOML (unknown keys are errors), then validation checks every
//! value (finite, in range, `source` present, model-specific keys present) and
//! builds the typed structs the engine uses ([`Catalog`], [`SizingPolicy`]).
//! Every error names the file and the TOML key (`tier[3].iops.max`, array
//! indexes 0-based); see [`RulesError`](crate::rules::RulesError).
//!
//! Modules: `catalog` (typed tiers.toml), `catalog_check` (its raw form and validation),
//! `drive` (validation of drives, RAID layouts and links), `instance_check` (the `[[instance]]` checks),
//! `policy` (typed sizing.toml, its raw form and validation), `position` (TOML error positions
//! and the validation context).

mod catalog;
mod catalog_check;
mod drive;
mod instance_check;
mod policy;
mod position;

pub use crate::rules::metric::{Metric, Op};
pub use catalog::*;
pub(crate) use catalog_check::parse_catalog;
pub use policy::*;
pub(crate) use policy::{check_targets, parse_sizing};
pub(crate) use position::parse_toml;
