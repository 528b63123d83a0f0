//! Prints the size of the columnar model for the reports under the given paths, to compare with
//! the peak memory the batch benchmark measures (`benches/batch.sh`).
//! `cargo run --release --example model_size -- DIR...`
fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let rules = sizer::rules::RuleSet::builtin().expect("built-in rules");
    let (inputs, failures) = sizer::pipeline::discover(&paths);
    let run =
        sizer::pipeline::run_inputs(inputs, failures, &rules, &Default::default()).expect("run");
    let df = &run.model.df;
    println!(
        "{} reports, {} model rows, {:.1} MB estimated model size ({:.0} rows and {:.2} MB per report)",
        run.analyses.len() + run.duplicates.len(),
        df.height(),
        df.estimated_size() as f64 / 1e6,
        df.height() as f64 / (run.analyses.len() + run.duplicates.len()) as f64,
        df.estimated_size() as f64 / 1e6 / (run.analyses.len() + run.duplicates.len()) as f64
    );
}
