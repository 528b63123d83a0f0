//! Prints the size of the columnar model for the reports under the given paths, to compare with
//! the peak memory the batch benchmark measures (`benches/batch.sh`).
//! `cargo run --release --example model_size -- DIR...`
fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let rules = sizer::rules::RuleSet::builtin().expect("built-in rules");
    let (inputs, failures) = sizer::pipeline::discover(&paths);
    let run =
        sizer::pipeline::run_inputs(inputs, failures, &rules, &Default::default()).expect("run");
    let reports = (run.analyses.len() + run.duplicates.len()) as f64;
    let held: usize = run.model_parts.iter().map(|m| m.df.estimated_size()).sum();
    let df = run.model().expect("model").df;
    println!(
        "{} reports, {} model rows, {:.1} MB estimated model size as held (per-report frames), \
         {:.1} MB stacked for --export ({:.0} rows, {:.2} MB held and {:.2} MB stacked per report)",
        reports,
        df.height(),
        held as f64 / 1e6,
        df.estimated_size() as f64 / 1e6,
        df.height() as f64 / reports,
        held as f64 / 1e6 / reports,
        df.estimated_size() as f64 / 1e6 / reports
    );
}
