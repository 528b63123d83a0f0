//! Re-exports at the paths the report layer and the tests used before the engine was split
//! (see [`crate::subject::cluster`]).

pub use crate::subject::cluster::{
    analyse, Advice, EntityStats, PolicyRow, VirtAnalysis, VirtSource,
};
pub use crate::subject::entity_totals::Side;
pub use crate::subject::hana::{hana_checks, HanaCheck};
