//! Writes a synthetic Linux `iostat -xt 1` log (sysstat 12.3+ layout, with discard and flush
//! columns) for the streaming benchmark (`benches/iostat.sh`).
//!
//! `cargo run --release -p sizer-parsers --example gen_iostat -- OUT DEVICES SECONDS`
//!
//! One report per second: an en_US `-t` time stamp (`11/29/2026 08:00:01 AM`), the `avg-cpu:`
//! block, the device header and one line per device, as sysstat 12.x prints them (`%-13s`
//! device names, `%7.2f`/`%8.2f`/`%9.2f` values after one space, wider values pushing the line
//! out). Devices are SCSI disks (`sda`…`sdz`, `sdaa`…) with partitions, NVMe namespaces
//! (`nvme0n1`…) with partitions and device-mapper volumes (`dm-0`…), some of them idle. Values
//! follow a daily load curve with per-device noise, bursts and occasional discards, from a fixed
//! seed: the same arguments always give the same bytes. The first report is the since-boot one.
//! 64 devices over 86,400 seconds make about 1.1 GB.
use std::io::{BufWriter, Write};

use chrono::{Duration, NaiveDate};

/// xorshift64*: small, fast and deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (self.next() >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
    fn chance(&mut self, p: f64) -> bool {
        self.range(0.0, 1.0) < p
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Scsi,
    Nvme,
    Mapper,
}

struct Device {
    name: String,
    kind: Kind,
    idle: bool,
    read_iops: f64,
    write_iops: f64,
    read_kb: f64,
    write_kb: f64,
    /// Share of the host load this device follows (partitions get a fraction of their disk's).
    weight: f64,
}

fn scsi_name(mut i: usize) -> String {
    // sda … sdz, sdaa … sdzz, as the kernel names them.
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    format!("sd{}", String::from_utf8(s).unwrap())
}

fn devices(n: usize, rng: &mut Rng) -> Vec<Device> {
    let n_dm = n / 4;
    let n_nvme = (n / 8).max(1);
    let n_part = n / 8;
    let n_sd = n.saturating_sub(n_dm + n_nvme + n_part).max(1);
    let mut out = Vec::new();
    let mut parts_left = n_part;
    let mk = |name: String, kind: Kind, weight: f64, rng: &mut Rng| {
        let (iops, kb) = match kind {
            Kind::Scsi => (rng.range(20.0, 400.0), [4.0, 8.0, 16.0, 64.0, 128.0]),
            Kind::Nvme => (rng.range(500.0, 20000.0), [4.0, 8.0, 16.0, 32.0, 128.0]),
            Kind::Mapper => (rng.range(10.0, 600.0), [4.0, 8.0, 16.0, 32.0, 256.0]),
        };
        Device {
            name,
            kind,
            idle: rng.chance(0.15),
            read_iops: iops * rng.range(0.3, 1.2),
            write_iops: iops * rng.range(0.2, 0.9),
            read_kb: kb[(rng.next() % 5) as usize],
            write_kb: kb[(rng.next() % 5) as usize],
            weight,
        }
    };
    for i in 0..n_sd {
        out.push(mk(scsi_name(i), Kind::Scsi, 1.0, rng));
        for p in 1..=2 {
            if parts_left > n_part / 2 && i % 3 == 0 {
                parts_left -= 1;
                out.push(mk(format!("{}{p}", scsi_name(i)), Kind::Scsi, 0.5, rng));
            }
        }
    }
    for i in 0..n_nvme {
        out.push(mk(format!("nvme{i}n1"), Kind::Nvme, 1.0, rng));
        if parts_left > 0 {
            parts_left -= 1;
            out.push(mk(format!("nvme{i}n1p1"), Kind::Nvme, 0.8, rng));
        }
    }
    for i in 0..n_dm + parts_left {
        out.push(mk(format!("dm-{i}"), Kind::Mapper, 1.0, rng));
    }
    out.truncate(n);
    out
}

/// Appends `v` as `printf(" %*.2f", width - 1, v)` does.
fn fixed2(out: &mut Vec<u8>, width: usize, v: f64) {
    let cents = (v.max(0.0) * 100.0).round() as u64;
    let mut tmp = [0u8; 32];
    let mut k = tmp.len();
    let mut x = cents;
    let mut digits = 0;
    while digits < 3 || x > 0 {
        if digits == 2 {
            k -= 1;
            tmp[k] = b'.';
        }
        k -= 1;
        tmp[k] = b'0' + (x % 10) as u8;
        x /= 10;
        digits += 1;
    }
    let s = &tmp[k..];
    out.push(b' ');
    out.extend(std::iter::repeat_n(
        b' ',
        (width - 1).saturating_sub(s.len()),
    ));
    out.extend_from_slice(s);
}

const HEADER: &str = "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util";
const WIDTHS: [usize; 22] = [
    8, 10, 9, 7, 8, 9, 8, 10, 9, 7, 8, 9, 8, 10, 9, 7, 8, 9, 8, 8, 8, 7,
];

/// One direction: `r/s rkB/s rrqm/s %rrqm r_await rareq-sz` (ops, kB, merges, %, await, size).
fn direction(ops: f64, size_kb: f64, merge: f64, wait: f64) -> [f64; 6] {
    if ops < 0.005 {
        return [0.0; 6];
    }
    let merges = ops * merge;
    [
        ops,
        ops * size_kb,
        merges,
        100.0 * merges / (ops + merges),
        wait,
        size_kb,
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 3 {
        eprintln!("usage: gen_iostat OUT DEVICES SECONDS");
        std::process::exit(2);
    }
    let n: usize = args[1].parse().expect("DEVICES: a number");
    let seconds: usize = args[2].parse().expect("SECONDS: a number");
    let mut rng = Rng(0x5EED_1057_A7A5_0001);
    let devs = devices(n, &mut rng);
    let file = std::fs::File::create(&args[0]).expect("OUT: writable");
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let start = NaiveDate::from_ymd_opt(2026, 11, 29)
        .unwrap()
        .and_hms_opt(8, 0, 0)
        .unwrap();
    writeln!(
        w,
        "Linux 5.14.0-427.13.1.el9_4.x86_64 (db01.example.com) \t{} \t_x86_64_\t(32 CPU)\n",
        start.format("%m/%d/%Y")
    )
    .unwrap();
    let mut line = Vec::with_capacity(512);
    let mut burst = vec![0u32; devs.len()];
    for s in 0..seconds {
        let t = start + Duration::seconds(s as i64);
        // Daily curve: busiest around 14:00, quietest around 02:00; the since-boot report low.
        let hour = (8.0 + s as f64 / 3600.0) % 24.0;
        let day = 0.55 - 0.4 * ((hour - 2.0) / 24.0 * std::f64::consts::TAU).cos();
        let load = if s == 0 { 0.2 } else { day };
        writeln!(w, "{}", t.format("%m/%d/%Y %I:%M:%S %p")).unwrap();
        let user = 20.0 * load + rng.range(0.0, 5.0);
        let sys = 5.0 * load + rng.range(0.0, 2.0);
        let iowait = 3.0 * load * rng.range(0.5, 1.5);
        line.clear();
        line.extend_from_slice(b"avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n       ");
        for v in [user, 0.0, sys, iowait, 0.0, 100.0 - user - sys - iowait] {
            fixed2(&mut line, 8, v);
        }
        line.extend_from_slice(b"\n\n");
        line.extend_from_slice(HEADER.as_bytes());
        line.push(b'\n');
        w.write_all(&line).unwrap();
        for (d, b) in devs.iter().zip(burst.iter_mut()) {
            line.clear();
            line.extend_from_slice(d.name.as_bytes());
            line.resize(line.len().max(13), b' ');
            let mut v = [0.0f64; 22];
            if !d.idle {
                if *b == 0 && rng.chance(0.002) {
                    *b = (rng.next() % 120) as u32 + 10;
                }
                let boost = if *b > 0 {
                    *b -= 1;
                    3.0
                } else {
                    1.0
                };
                let f = load * d.weight * boost;
                let (r_wait, w_wait, merge) = match d.kind {
                    Kind::Nvme => (rng.range(0.05, 0.4), rng.range(0.02, 0.9), 0.0),
                    _ => (rng.range(0.3, 12.0), rng.range(0.2, 25.0), 0.2),
                };
                let r_ops = if rng.chance(0.05) {
                    0.0
                } else {
                    d.read_iops * f * rng.range(0.6, 1.4)
                };
                let w_ops = d.write_iops * f * rng.range(0.6, 1.4);
                let rd = direction(
                    r_ops,
                    d.read_kb * rng.range(0.8, 1.2),
                    merge * rng.range(0.0, 1.0),
                    r_wait,
                );
                let wr = direction(
                    w_ops,
                    d.write_kb * rng.range(0.8, 1.2),
                    merge * rng.range(0.0, 1.5),
                    w_wait,
                );
                let dc = if d.kind != Kind::Scsi && rng.chance(0.02) {
                    direction(rng.range(1.0, 50.0), rng.range(128.0, 4096.0), 0.0, 0.3)
                } else {
                    [0.0; 6]
                };
                let (f_ops, f_wait) = if d.kind != Kind::Nvme && rng.chance(0.3) {
                    (rng.range(0.5, 6.0), rng.range(0.1, 3.0))
                } else {
                    (0.0, 0.0)
                };
                v[..6].copy_from_slice(&rd);
                v[6..12].copy_from_slice(&wr);
                v[12..18].copy_from_slice(&dc);
                v[18] = f_ops;
                v[19] = f_wait;
                v[20] = (rd[0] * rd[4] + wr[0] * wr[4] + dc[0] * dc[4] + f_ops * f_wait) / 1000.0;
                let svc = if d.kind == Kind::Nvme { 0.02 } else { 0.9 };
                v[21] = ((rd[0] + wr[0]) * svc / 10.0).min(100.0);
            }
            for (x, width) in v.iter().zip(WIDTHS) {
                fixed2(&mut line, width, *x);
            }
            line.push(b'\n');
            w.write_all(&line).unwrap();
        }
        w.write_all(b"\n").unwrap();
    }
    w.flush().unwrap();
}
