//! Streams a Linux `iostat` text log through [`sizer_parsers::iostat::Reader`] and prints the
//! parse rate and the peak memory of the process (for `benches/iostat.sh`).
//!
//! `cargo run --release -p sizer-parsers --example iostat_speed -- [--keep-values] [--whole] FILE`
//!
//! Reports are dropped as they come (memory stays bounded whatever the file size). By default
//! `ReaderOptions::keep_values` is `false`, as for big logs; `--keep-values` keeps every column too.
//! `--whole` reads the whole file into memory and calls `iostat::parse_bytes` instead (every
//! report kept, values included: memory grows with the file).
//! Prints one line: bytes, reports, samples, seconds, MB/s (10^6 bytes per second, wall time
//! of the parse, file read included) and peak RSS (`VmHWM` of `/proc/self/status`).
use std::io::BufReader;
use std::time::Instant;

use sizer_parsers::iostat::{Reader, ReaderOptions};

/// Peak resident set size in kB (`VmHWM`), when the system reports it.
fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mut keep_values = false;
    let mut whole = false;
    let mut path = None;
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--keep-values" => keep_values = true,
            "--whole" => whole = true,
            _ => path = Some(a),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: iostat_speed [--keep-values] [--whole] FILE");
        std::process::exit(2);
    };
    let t0 = Instant::now();
    if whole {
        let bytes = std::fs::read(&path).expect("readable file");
        let log = sizer_parsers::iostat::parse_bytes(&bytes).expect("an iostat log");
        let secs = t0.elapsed().as_secs_f64();
        let samples: usize = log.reports.iter().map(|r| r.devices.len()).sum();
        let rss = vm_hwm_kb().map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0));
        println!(
            "bytes {} reports {} samples {samples} seconds {secs:.3} MB/s {:.1} peak_rss_MiB {rss} \
             whole parse_bytes",
            bytes.len(),
            log.reports.len(),
            bytes.len() as f64 / 1e6 / secs,
        );
        return;
    }
    let file = std::fs::File::open(&path).expect("readable file");
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let opts = ReaderOptions {
        keep_values,
        ..ReaderOptions::default()
    };
    let mut reader = Reader::new(BufReader::with_capacity(1 << 18, file), opts);
    let (mut reports, mut samples, mut errors) = (0usize, 0usize, 0usize);
    let mut check = 0.0f64;
    for r in reader.by_ref() {
        match r {
            Ok(r) => {
                reports += 1;
                samples += r.devices.len();
                if let Some(d) = r.devices.last() {
                    check += d.normalised.read_bytes_per_s.unwrap_or(0.0);
                }
            }
            Err(e) => {
                errors += 1;
                eprintln!("{path}: {e}");
            }
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    std::hint::black_box(check);
    let rss = vm_hwm_kb().map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0));
    println!(
        "bytes {bytes} reports {reports} samples {samples} errors {errors} lines {} seconds {secs:.3} \
         MB/s {:.1} peak_rss_MiB {rss} keep_values {keep_values}",
        reader.lines_read(),
        bytes as f64 / 1e6 / secs,
    );
}
