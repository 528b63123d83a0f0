//! Prints the size of the columnar model for the reports under the given paths (what
//! `--export` writes, one report's frame at a time), to compare with the peak memory the batch
//! benchmark measures (`benches/batch.sh`). The run itself keeps none of these rows: each
//! report's frame is handed to the sink below and dropped.
//! `cargo run --release --example model_size -- DIR...`
use sizer::model::Model;
use sizer::pipeline::ModelSink;

/// Counts the rows and the estimated size of each report's frame, keeping nothing.
#[derive(Default)]
struct Measure {
    rows: usize,
    bytes: usize,
}

impl ModelSink for Measure {
    fn report(&mut self, part: Model) {
        self.rows += part.df.height();
        self.bytes += part.df.estimated_size();
    }
}

fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let rules = sizer::rules::RuleSet::builtin().expect("built-in rules");
    let (inputs, failures) = sizer::pipeline::discover(&paths);
    let mut m = Measure::default();
    let run = sizer::pipeline::run_inputs_into(
        inputs,
        failures,
        &rules,
        &Default::default(),
        Some(&mut m),
    )
    .expect("run");
    let reports = (run.analyses.len() + run.duplicates.len()) as f64;
    println!(
        "{} reports, {} model rows, {:.1} MB estimated model size streamed to --export \
         ({:.0} rows and {:.2} MB per report; none of it held by the run)",
        reports,
        m.rows,
        m.bytes as f64 / 1e6,
        m.rows as f64 / reports,
        m.bytes as f64 / 1e6 / reports
    );
}
