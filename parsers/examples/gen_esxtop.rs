//! Writes a realistic, made-up `esxtop -b` batch CSV for benchmarks: one host with 64 logical
//! CPUs, a few hundred CPU and memory groups, network ports and interrupt vectors (the columns
//! the parser must skip), and 4 adapters, 24 paths and devices, 60 per-world device entries and
//! 30 VMs with 2 virtual disks each (the storage columns it keeps). About 8,700 columns; with
//! `--all` the `-a` counter set, about 17,500.
//!
//! `cargo run --release -p sizer-parsers --example gen_esxtop -- OUT.csv ROWS [--all]`
//!
//! Values are pseudo-random (a fixed seed, so files are reproducible); the first row is all
//! zeros, as esxtop writes it; times are 5 s apart from 2026-11-30 08:00:00 UTC.
use std::fmt::Write as _;
use std::io::{BufWriter, Write};

const HOST: &str = "esx-bench01.example.com";

/// A column of the header: object (with instance) and counter, and the range of its values.
struct Col {
    path: String,
    max: f64,
}

fn cols(all: bool) -> Vec<Col> {
    let mut c = Vec::new();
    let mut add = |obj: &str, counters: &[&str], max: f64| {
        for k in counters {
            c.push(Col {
                path: format!("\\\\{HOST}\\{obj}\\{k}"),
                max,
            });
        }
    };
    let memory: Vec<String> = [
        "Memory Overcommit (1 Minute Avg)",
        "Memory Overcommit (5 Minute Avg)",
        "Memory Overcommit (15 Minute Avg)",
        "Machine MBytes",
        "Kernel MBytes",
        "NonKernel MBytes",
        "Free MBytes",
        "Kernel Managed MBytes",
        "Kernel MinFree MBytes",
        "Kernel Reserved MBytes",
        "Kernel Unreserved MBytes",
        "Kernel State",
        "PShare Shared MBytes",
        "PShare Common MBytes",
        "PShare Savings MBytes",
        "Swap Used MBytes",
        "Swap Target MBytes",
        "Swap MBytes Read/sec",
        "Swap MBytes Write/sec",
        "Total Compressed MBytes",
        "Total Saved By Compression MBytes",
        "Memory Compressed MBytes/sec",
        "Memory Decompressed MBytes/sec",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain((0..37).map(|i| format!("NUMA Node {} MBytes", i)))
    .collect();
    let memory: Vec<&str> = memory.iter().map(String::as_str).collect();
    add("Memory", &memory, 100_000.0);
    add(
        "Physical Cpu Load",
        &[
            "Cpu Load (1 Minute Avg)",
            "Cpu Load (5 Minute Avg)",
            "Cpu Load (15 Minute Avg)",
        ],
        1.0,
    );
    let pcpu: &[&str] = if all {
        &[
            "% Processor Time",
            "% Util Time",
            "% Core Util Time",
            "% Idle Time",
            "% C0 Time",
        ]
    } else {
        &["% Processor Time", "% Util Time", "% Core Util Time"]
    };
    for i in 0..64 {
        add(&format!("Physical Cpu({i})"), pcpu, 100.0);
    }
    add("Physical Cpu(_Total)", pcpu, 100.0);
    let gcpu = [
        "Members",
        "% Used",
        "% Run",
        "% System",
        "% Wait",
        "% VmWait",
        "% Ready",
        "% Idle",
        "% Overlap",
        "% CoStop",
        "% Max Limited",
        "% Swap Wait",
        "Run Time",
        "Wait Time",
        "Ready Time",
        "Idle Time",
    ];
    let groups = if all { 400 } else { 200 };
    for g in 0..groups {
        add(
            &format!("Group Cpu({}:vm-{g:03})", 2_100_000 + g * 7),
            &gcpu,
            100.0,
        );
    }
    if all {
        for g in 0..60 {
            for v in 0..4 {
                add(
                    &format!("Vcpu({}:vm-{g:03}:vmx-vcpu-{v})", 2_100_000 + g * 7 + v + 1),
                    &gcpu[1..],
                    100.0,
                );
            }
        }
    }
    let gmem: Vec<String> = (0..40)
        .map(|i| format!("Memory Counter {i} MBytes"))
        .collect();
    let gmem: Vec<&str> = gmem.iter().map(String::as_str).collect();
    for g in 0..60 {
        add(
            &format!("Group Memory({}:vm-{g:03})", 2_100_000 + g * 7),
            &gmem,
            16_384.0,
        );
    }
    let net = [
        "Packets Transmitted/sec",
        "MBits Transmitted/sec",
        "Average Packet Size Transmitted",
        "Packets Received/sec",
        "MBits Received/sec",
        "Average Packet Size Received",
        "% Outbound Packets Dropped",
        "% Received Packets Dropped",
        "Multicast Packets Transmitted/sec",
        "Multicast Packets Received/sec",
        "Broadcast Packets Transmitted/sec",
        "Broadcast Packets Received/sec",
    ];
    for p in 0..80 {
        add(
            &format!(
                "Network Port(DvsPortset-0:{}:vm-{:03}.eth0)",
                67_108_864 + p,
                p
            ),
            &net,
            1000.0,
        );
    }
    for v in 0..50 {
        add(
            &format!("Interrupt Vector(0x{:x})", 0x20 + v),
            &["Interrupts/sec", "Average Duration uSec", "Affinity Mask"],
            500.0,
        );
    }
    add("VSAN", &["Enabled?"], 1.0);

    // Storage.
    let base = [
        "Commands/sec",
        "Reads/sec",
        "Writes/sec",
        "MBytes Read/sec",
        "MBytes Written/sec",
        "Average Driver MilliSec/Command",
        "Average Kernel MilliSec/Command",
        "Average Guest MilliSec/Command",
        "Average Queue MilliSec/Command",
    ];
    let extra_a = [
        "Average Driver MilliSec/Read",
        "Average Kernel MilliSec/Read",
        "Average Guest MilliSec/Read",
        "Average Queue MilliSec/Read",
        "Average Driver MilliSec/Write",
        "Average Kernel MilliSec/Write",
        "Average Guest MilliSec/Write",
        "Average Queue MilliSec/Write",
        "Failed Commands/sec",
        "Failed Reads/sec",
        "Failed Writes/sec",
        "Failed Bytes Read/sec",
        "Failed Bytes Written/sec",
        "Failed Reserves/sec",
        "Aborts/sec",
        "Resets/sec",
    ];
    let disk: Vec<&str> = if all {
        base.iter().chain(extra_a.iter()).copied().collect()
    } else {
        base.to_vec()
    };
    for a in 0..4 {
        add(
            &format!("Physical Disk Adapter(vmhba{})", 64 + a),
            &disk,
            500.0,
        );
    }
    for d in 0..24 {
        add(
            &format!(
                "Physical Disk(vmhba{0}:vmhba{0}:C0:T{1}:L{2})",
                64 + d % 4,
                d / 8,
                d % 8
            ),
            &disk,
            500.0,
        );
    }
    let mut scsi = vec![
        "Device Q Depth",
        "World Q Depth",
        "Active Commands",
        "Queued Commands",
        "% Used",
        "Load",
    ];
    scsi.extend(disk.iter().copied());
    for d in 0..24 {
        add(
            &format!(
                "Physical Disk SCSI Device(naa.624a9370d4d78052a9e1426b{:08x})",
                0x11a2b + d
            ),
            &scsi,
            500.0,
        );
    }
    for w in 0..60 {
        add(
            &format!(
                "Physical Disk Per-Device-Per-World(naa.624a9370d4d78052a9e1426b{:08x}:{})",
                0x11a2b + w % 24,
                2_100_000 + w * 7
            ),
            &disk,
            500.0,
        );
    }
    let vd = [
        "Commands/sec",
        "Reads/sec",
        "Writes/sec",
        "MBytes Read/sec",
        "MBytes Written/sec",
        "Average MilliSec/Read",
        "Average MilliSec/Write",
    ];
    for v in 0..30 {
        let vm = format!("vm-{v:03} (5e3c{v:04x}-7a1b-4c2d-9e8f-0a1b2c3d4e5f)");
        add(&format!("Virtual Disk({vm})"), &vd, 300.0);
        for d in 0..2 {
            add(&format!("Virtual Disk({vm}:scsi0:{d})"), &vd, 300.0);
        }
    }
    c
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(out), Some(rows)) = (
        args.first(),
        args.get(1).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: gen_esxtop OUT.csv ROWS [--all]");
        std::process::exit(2);
    };
    let all = args.iter().any(|a| a == "--all");
    let cols = cols(all);
    let f = std::fs::File::create(out).expect("writable output");
    let mut w = BufWriter::with_capacity(1 << 20, f);
    let mut line = String::with_capacity(cols.len() * 12);
    line.push_str("\"(PDH-CSV 4.0) (UTC)(0)\"");
    for c in &cols {
        write!(line, ",\"{}\"", c.path).unwrap();
    }
    writeln!(w, "{line}").unwrap();
    let start = chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
        .unwrap()
        .and_hms_opt(8, 0, 0)
        .unwrap();
    let mut seed: u64 = 0x5eed_e5a7_0b00_0001;
    for r in 0..rows {
        line.clear();
        let t = start + chrono::Duration::seconds(5 * r as i64);
        write!(line, "\"{}\"", t.format("%m/%d/%Y %H:%M:%S")).unwrap();
        for c in &cols {
            // xorshift64*
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            let x = (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
            let v = if r == 0 { 0.0 } else { x * c.max };
            write!(line, ",\"{v:.2}\"").unwrap();
        }
        writeln!(w, "{line}").unwrap();
    }
    w.flush().unwrap();
    eprintln!("{out}: {} columns, {rows} rows", cols.len() + 1);
}
