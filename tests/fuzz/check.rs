//! The properties of one case: what must hold (hard: the case fails) and what is reported
//! without failing (soft: counted per kind, with the first example kept).
//!
//! Hard, for every mutant:
//! - no panic, in the parser (`parse_bytes`, the whole-text path) or in the engine
//!   (`pipeline::run` on the mutant as a file, the streaming path, then both renderers);
//! - a parse error has a message; a pipeline failure names the file and its reason;
//! - the JSON is valid JSON.
//!
//! Soft (counted per kind; since issue 14 made NaN, inf, negative and out-of-range cells
//! unknowns and a side whose totals contradict their parts unsized, each fails the case unless
//! `FUZZ_STRICT=0`: `hard_kinds` in `main.rs`):
//! - a figure the JSON renders is NaN or infinite (`serde_json` would print it as `null`, which
//!   reads as unknown: [`crate::finite`] walks the same values);
//! - a recommendation sized on 0, or on a required or sized IOPS that is not a finite number;
//! - a `Section` parse error that names neither a line nor a section.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use proptest::test_runner::TestCaseError;
use sizer::pipeline::{self, Run};
use sizer::rules::RuleSet;
use sizer::settings::Settings;
use sizer_parsers::ParseError;

use crate::finite::non_finite;

/// Soft findings: per kind, how many cases and the first one's detail.
#[derive(Default)]
pub struct Soft {
    /// Kind → (cases, first detail with its case).
    pub kinds: BTreeMap<&'static str, (usize, String)>,
    /// The case being checked (seed and mutations), for the first detail of a kind.
    pub current: String,
}

impl Soft {
    fn add(&mut self, kind: &'static str, detail: impl FnOnce() -> String) {
        let current = &self.current;
        let e = self
            .kinds
            .entry(kind)
            .or_insert_with(|| (0, format!("{} [case: {current}]", detail())));
        e.0 += 1;
    }
}

/// Soft kind: a NaN or infinite figure in what the JSON renders.
pub const NON_FINITE: &str = "non-finite figure in the JSON (issue 14 item 1)";
/// Soft kind: a recommendation sized on 0 or on a figure that is not a finite number.
pub const SIZED_ON_ZERO: &str = "recommendation sized on 0 or a non-number (issue 14 item 1)";
/// Soft kind: a section error that names no line or section.
pub const UNLOCATED: &str = "Section error naming no line or section";

pub fn rules() -> &'static RuleSet {
    static RULES: OnceLock<RuleSet> = OnceLock::new();
    RULES.get_or_init(|| RuleSet::builtin().expect("the built-in rules load"))
}

fn fail(what: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(what.to_string())
}

/// The whole-text parse: no panic (proptest catches it), and an error is typed and said.
fn parse(bytes: &[u8], soft: &mut Soft) -> Result<(), TestCaseError> {
    match sizer_parsers::parse_bytes(bytes) {
        Ok(_) => Ok(()),
        Err(e) => {
            let msg = e.to_string();
            if msg.trim().is_empty() {
                return Err(fail(format!("parse error with an empty message: {e:?}")));
            }
            // A `Truncated` error is about where the input ends, and says what was missing.
            if let ParseError::Section { at, .. } = &e {
                if at.line.is_none() && at.section.is_none() {
                    soft.add(UNLOCATED, || msg.clone());
                }
            }
            Ok(())
        }
    }
}

/// The recommendations in the JSON: each is sized on a finite, positive required and sized
/// IOPS, or the subject has no recommendation (`null`: the answer is "cannot size"). A
/// recommendation for 0 IOPS is right only when the answer says the load is idle (the host
/// warning `idle`: the log shows 0.0 everywhere, a known 0, not an unknown).
fn recommendations(v: &serde_json::Value, path: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            if let Some(serde_json::Value::Object(rec)) = m.get("recommendation") {
                let idle = m
                    .get("warnings")
                    .and_then(|w| w.as_array())
                    .is_some_and(|w| w.iter().any(|x| x["id"] == "idle"));
                for key in ["required_iops", "sized_iops"] {
                    let x = rec.get(key).and_then(|x| x.as_f64());
                    let ok = x.is_some_and(|x| x.is_finite() && (x > 0.0 || (idle && x == 0.0)));
                    if !ok {
                        out.push(format!(
                            "{path}.recommendation.{key} = {}",
                            rec.get(key).map_or("absent".into(), |x| x.to_string())
                        ));
                    }
                }
            }
            for (k, x) in m {
                if k != "recommendation" {
                    recommendations(x, &format!("{path}.{k}"), out);
                }
            }
        }
        serde_json::Value::Array(a) => {
            for (k, x) in a.iter().enumerate() {
                recommendations(x, &format!("{path}[{k}]"), out);
            }
        }
        _ => {}
    }
}

/// Every figure the JSON document renders, walked for NaN and infinity.
fn non_finite_in(run: &Run) -> Vec<String> {
    let mut found = non_finite("databases", &run.databases);
    found.extend(non_finite("hosts", &run.hosts));
    found.extend(non_finite("virtual", &run.virtual_));
    // A one-file run holds its reports in memory (spilled only past `Settings::spill_after`).
    found.extend(non_finite(
        "reports",
        run.analyses.in_memory().unwrap_or_default(),
    ));
    found.extend(non_finite("fleet.databases", &sizer::fleet::databases(run)));
    found.extend(non_finite("fleet.hosts", &sizer::fleet::hosts(run)));
    found
}

/// The engine on the mutant as a file at `path`: no panic; failures named; JSON valid; the
/// soft checks on what it sized.
fn engine(path: &Path, bytes: &[u8], soft: &mut Soft) -> Result<(), TestCaseError> {
    std::fs::write(path, bytes).map_err(|e| fail(format!("write {}: {e}", path.display())))?;
    let settings = Settings::default();
    let run = match pipeline::run(&[path], rules(), &settings) {
        Ok(run) => run,
        // A typed error of the run (polars could not build a frame): said, not a panic.
        Err(e) if !e.to_string().trim().is_empty() => return Ok(()),
        Err(e) => return Err(fail(format!("run error with an empty message: {e:?}"))),
    };
    for f in &run.failures {
        if f.error.trim().is_empty() || f.file.is_empty() {
            return Err(fail(format!("a failure without its file or reason: {f:?}")));
        }
    }
    let mut json = Vec::new();
    sizer::report::json(&run, &mut json).map_err(|e| fail(format!("JSON render: {e}")))?;
    let doc: serde_json::Value =
        serde_json::from_slice(&json).map_err(|e| fail(format!("the JSON is not JSON: {e}")))?;
    let mut md = Vec::new();
    sizer::report::markdown(&run, &mut md).map_err(|e| fail(format!("Markdown render: {e}")))?;
    let bad = non_finite_in(&run);
    if !bad.is_empty() {
        soft.add(NON_FINITE, || bad.join("; "));
    }
    let mut zero = Vec::new();
    recommendations(&doc, "", &mut zero);
    if !zero.is_empty() {
        soft.add(SIZED_ON_ZERO, || zero.join("; "));
    }
    Ok(())
}

/// Every property of one mutant; `path` is where the engine reads it from.
pub fn case(path: &Path, bytes: &[u8], soft: &mut Soft) -> Result<(), TestCaseError> {
    parse(bytes, soft)?;
    engine(path, bytes, soft)
}
