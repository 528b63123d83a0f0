//! Times [`sizer_parsers::esxtop::parse`] on the files given (release build): reading and
//! decoding (gunzip included) once, then the parse alone, best of N rounds, in MB/s of decoded
//! text and rows/s (the dropped first row included), with the series kept. Prints `key=value`
//! pairs for `benches/esxtop.sh`.
//!
//! `cargo run --release -p sizer-parsers --example esxtop_speed -- [--rounds N] FILE...`
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 3;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args[i + 1].parse().expect("--rounds N");
        args.drain(i..=i + 1);
    }
    for path in &args {
        let t0 = Instant::now();
        let bytes = std::fs::read(path).expect("readable file");
        let decoded = sizer_parsers::input::decode(&bytes).expect("decodable");
        let t_read = t0.elapsed().as_secs_f64();
        let columns = decoded
            .text
            .split('\n')
            .next()
            .map_or(0, |h| h.matches("\",\"").count() + 1);
        let mut best = f64::INFINITY;
        let mut kept = None;
        for _ in 0..rounds {
            let t0 = Instant::now();
            let log = sizer_parsers::esxtop::parse(&decoded.text).expect("parses");
            best = best.min(t0.elapsed().as_secs_f64());
            kept = Some(log);
        }
        let log = kept.expect("at least one round");
        let rows = log.series.first().map_or(0, |s| s.values.len()) + 1;
        let text_mb = decoded.text.len() as f64 / 1e6;
        println!(
            "{path}: file_mb={:.1} text_mb={text_mb:.1} columns={columns} rows={rows} \
             decode_s={t_read:.3} parse_s={best:.3} mb_per_s={:.0} rows_per_s={:.0} series={}",
            bytes.len() as f64 / 1e6,
            text_mb / best,
            rows as f64 / best,
            log.series.len(),
        );
        if let Some(w) = log.warnings.first() {
            println!("  {w}");
        }
    }
}
