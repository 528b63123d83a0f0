//! Renderers: Markdown and HTML for people, JSON for machines. Both take a writer and finished results.
//!
//! Flow: the engine hands a finished [`Run`](crate::pipeline::Run) (or the rule set, for
//! `sizer tiers`) to one renderer, which writes it to an [`std::io::Write`]. The renderers compute
//! nothing: `fmt` formats numbers and table cells, `markdown` has one module per subject
//! (database, host, virtual cluster, fleet, files not read), `json` serializes the run and
//! `tiers` words the catalogue.
//!
//! The JSON document is specified in `docs/json-schema.md`.

pub mod chart_files;
pub(crate) mod fmt;
mod html;
mod json;
mod markdown;
pub mod svg;
mod tiers;
pub mod wording;

pub use fmt::{escape_controls, fmt_num};
pub use html::{html, write_page as html_page};
pub use json::{json, JSON_SCHEMA};
pub use markdown::{markdown, markdown_with_charts};
pub use tiers::{tiers_json, tiers_markdown};
