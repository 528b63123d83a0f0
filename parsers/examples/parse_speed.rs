//! Times decoding, HTML table extraction and AWR parsing of the files given (release build).
//! `cargo run --release -p sizer-parsers --example parse_speed -- FILE...`
use std::time::Instant;

fn main() {
    let files: Vec<Vec<u8>> = std::env::args()
        .skip(1)
        .map(|p| std::fs::read(p).expect("readable"))
        .collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let rounds = 5;
    let (mut t_html, mut t_all) = (0.0, 0.0);
    for _ in 0..rounds {
        for b in &files {
            let text = sizer_parsers::input::decode(b).unwrap().text;
            let t0 = Instant::now();
            let d = sizer_parsers::html::parse(&text);
            t_html += t0.elapsed().as_secs_f64();
            std::hint::black_box(d);
            let t0 = Instant::now();
            let r = sizer_parsers::parse_bytes(b);
            t_all += t0.elapsed().as_secs_f64();
            std::hint::black_box(r.ok());
        }
    }
    let n = (files.len() * rounds) as f64;
    let mb = (bytes * rounds) as f64 / 1e6;
    println!(
        "{} files, {:.1} MB per round: tables only {:.0} MB/s; full parse {:.1} reports/s, {:.0} MB/s",
        files.len(),
        bytes as f64 / 1e6,
        mb / t_html,
        n / t_all,
        mb / t_all
    );
}
