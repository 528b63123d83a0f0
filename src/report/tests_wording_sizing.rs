//! The words of every sizing finding kind (infeasible reasons, binding limits, sizing notes),
//! and that the JSON carries the same words.

use crate::rules::findings::*;
use crate::rules::OptionNote;

use super::q;

fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_value(v)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

const MIB: ThroughputUnit = ThroughputUnit::MibS;
const MB: ThroughputUnit = ThroughputUnit::MbS;

fn covers() -> BurstCovers {
    BurstCovers {
        baseline: 300.0,
        iops: 2_500.0,
        credits: 5_400_000.0,
        lasts_min: 40.909_090_9,
        peak_min: 35.0,
        mean: 120.5,
    }
}

fn p30() -> SizeRowFigures {
    SizeRowFigures {
        name: "P30".into(),
        gib: 1024.0,
        iops: 5000.0,
        throughput: 200.0,
        unit: MB,
    }
}

#[test]
fn quantities_are_whole_or_two_decimals() {
    assert_eq!(q(16_000.0), "16,000");
    assert_eq!(q(100.19), "100.19");
    assert_eq!(q(99.999_999_9), "100");
}

#[test]
fn infeasible_per_volume_limits() {
    let cases = [
        (
            Infeasible::IopsOverFixed {
                needed: 1250.0,
                per_volume: 100.0,
            },
            "needs 1,250 IOPS per volume > 100 per volume",
        ),
        (
            Infeasible::IopsOverMax {
                needed: 20_000.5,
                max: 16_000.0,
            },
            "needs 20,000.50 IOPS per volume > max 16,000 per volume",
        ),
        (
            Infeasible::ThroughputOverFixed {
                needed: 300.0,
                per_volume: 250.0,
                unit: MB,
            },
            "needs 300 MB/s per volume > 250 per volume",
        ),
        (
            Infeasible::ThroughputOverMax {
                needed: 1200.25,
                max: 1000.0,
                unit: MIB,
            },
            "needs 1,200.25 MiB/s per volume > max 1,000 per volume",
        ),
        (
            Infeasible::ThroughputOverCapAtMaxIops {
                needed: 5000.0,
                cap: 4000.0,
                unit: MIB,
            },
            "needs 5,000 MiB/s per volume > 4,000 at max IOPS",
        ),
        (
            Infeasible::ThroughputOverCapAtIops {
                needed: 300.0,
                cap: 250.0,
                iops: 3000.0,
                unit: MIB,
            },
            "needs 300 MiB/s per volume > 250 at 3,000 IOPS",
        ),
        (
            Infeasible::ThroughputNeedsIops {
                throughput: 2000.0,
                iops: 8000.0,
                per_iops: 0.25,
                unit: MIB,
            },
            "2,000 MiB/s per volume needs 8,000 IOPS at 0.25 MiB/s per IOPS, more than the volume allows",
        ),
        (
            Infeasible::CapacityOverMax {
                gib: 70_000.0,
                max_gib: 65_536.0,
            },
            "needs 70,000 GiB per volume > max 65,536 GiB",
        ),
    ];
    for (finding, words) in cases {
        assert_eq!(finding.to_string(), words);
        assert_eq!(json(&finding), words);
    }
}

#[test]
fn infeasible_size_rows_drives_and_hosts() {
    let no_row = Infeasible::NoSizeRow {
        iops: 30_000.0,
        throughput: 900.0,
        gib: 100.0,
        largest: p30(),
        burst: Some(Box::new(SizingNote::RowBurstNotCounted {
            row: "P30".into(),
            why: BurstRefused::PeakLengthUnknown,
        })),
    };
    assert_eq!(
        no_row.to_string(),
        "needs 30,000 IOPS, 900 MB/s and 100 GiB per volume; the largest size P30 gives 5,000 IOPS, 200 MB/s, 1,024 GiB (credit bursting of P30 not counted: the length of the peak is unknown)"
    );
    assert_eq!(
        Infeasible::DrivesOverMax {
            drives: 168.0,
            max_drives: 120
        }
        .to_string(),
        "needs 168 drives > max_drives 120 ([onprem] in sizing.toml)"
    );
    assert_eq!(
        Infeasible::NotAttachable {
            instance: "m5.large".into(),
            source: "AWS docs".into()
        }
        .to_string(),
        "m5.large cannot attach this tier (AWS docs)"
    );
    assert_eq!(
        Infeasible::InstanceIops {
            needed: 20_000.0,
            max: 18_750.0,
            instance: "m5.large".into()
        }
        .to_string(),
        "needs 20,000 IOPS > 18,750 IOPS, the most one m5.large can drive (instance cap)"
    );
    assert_eq!(
        Infeasible::InstanceMbS {
            needed: 700.5,
            max: 593.75,
            instance: "m5.large".into()
        }
        .to_string(),
        "needs 700.50 MB/s > 593.75 MB/s, the most one m5.large can drive (instance cap)"
    );
    assert_eq!(
        Infeasible::PlatformIops {
            needed: 500_000.0,
            max: 400_000.0,
            platform: "aws".into()
        }
        .to_string(),
        "needs 500,000 IOPS > 400,000 IOPS, the most one aws host can drive (platform cap)"
    );
    assert_eq!(
        Infeasible::PlatformMbS {
            needed: 12_000.0,
            max: 10_000.0,
            platform: "aws".into()
        }
        .to_string(),
        "needs 12,000 MB/s > 10,000 MB/s, the most one aws host can drive (platform cap)"
    );
    let last = Infeasible::IopsOverFixed {
        needed: 1250.0,
        per_volume: 100.0,
    };
    assert_eq!(
        Infeasible::EvenStriped {
            max_volumes: 16,
            last: Box::new(last.clone())
        }
        .to_string(),
        "even striped across 16 volumes (cloud.max_volumes): needs 1,250 IOPS per volume > 100 per volume"
    );
    assert_eq!(
        Infeasible::PerVm(Box::new(last)).to_string(),
        "needs 1,250 IOPS per volume > 100 per volume (performance is per VM: striping does not add to it)"
    );
}

#[test]
fn burst_arithmetic_and_refusals() {
    assert_eq!(
        covers().to_string(),
        "bursts: baseline 300 IOPS; at 2,500 IOPS the 5,400,000 I/O-credit bucket lasts 5,400,000 / (2,500 − 300) s = 40.9 min ≥ the 35.0 min the load at this level lasted, and the average 120.50 IOPS ≤ the baseline refills it"
    );
    let cases = [
        (
            BurstRefused::AboveCeiling {
                iops: 4000.0,
                ceiling: 3500.0,
            },
            "the peak of 4,000 IOPS is above the burst ceiling of 3,500",
        ),
        (
            BurstRefused::PeakLengthUnknown,
            "the length of the peak is unknown",
        ),
        (
            BurstRefused::MeanUnknown,
            "the average IOPS (to refill the bucket) is unknown",
        ),
        (
            BurstRefused::MeanAboveBaseline {
                mean: 400.0,
                baseline: 300.0,
            },
            "the average of 400 IOPS is above the baseline of 300, so spent credits would not come back",
        ),
        (
            BurstRefused::TooShort {
                iops: 3000.0,
                lasts_min: 33.333,
                peak_min: 60.0,
            },
            "at 3,000 IOPS the bucket lasts 33.3 min, less than the 60.0 min the load at this level lasted",
        ),
    ];
    for (why, words) in cases {
        assert_eq!(why.to_string(), words);
    }
}

#[test]
fn binding_drive_arrays() {
    let iops = Binding::DriveIops {
        reads: 800.0,
        read_hit: 0.2,
        writes: 200.0,
        coalesce: 0.0,
        write_penalty: 4.0,
        backend: 1440.0,
        drive_iops: 180.0,
        drives: 8.0,
    };
    assert_eq!(
        iops.to_string(),
        "IOPS: back-end 800.00 reads × (1 − 0.2 array read hit) + 200.00 writes × 4 = 1,440.00 IOPS / 180 IOPS per drive = 8 drives"
    );
    assert_eq!(json(&iops), iops.to_string());
    assert_eq!(
        Binding::DriveIops {
            reads: 800.0,
            read_hit: 0.0,
            writes: 200.0,
            coalesce: 0.5,
            write_penalty: 2.0,
            backend: 1000.0,
            drive_iops: 180.0,
            drives: 6.0,
        }
        .to_string(),
        "IOPS: back-end 800.00 reads + 200.00 writes × (1 − 0.5 coalescing) × 2 = 1,000.00 IOPS / 180 IOPS per drive = 6 drives"
    );
    assert_eq!(
        Binding::DriveCapacity {
            gib: 10_000.0,
            usable_per_group: 558.794,
            group_width: 2,
            drives: 36.0
        }
        .to_string(),
        "capacity: 10,000 GiB / 558.8 GiB usable per 2-drive group = 36 drives"
    );
    assert_eq!(
        Binding::MinDrives {
            min: 5,
            level: "raid5".into(),
            for_iops: 1.0
        }
        .to_string(),
        "minimum 5 drives for raid5 (IOPS alone need 1)"
    );
    assert_eq!(
        Binding::WholeGroups {
            from: 13.0,
            group_width: 5,
            level: "raid5".into()
        }
        .to_string(),
        "rounded up from 13 to whole 5-drive raid5 groups"
    );
}

#[test]
fn binding_cloud_volumes() {
    let cases = [
        (
            Binding::FullIoUnit {
                unit_kib: 1024.0,
                iops: 500.0,
                used: 500.0,
                measured: 20.5,
                unit: MIB,
            },
            "each IO of up to 1,024 KiB counts as a full 1,024 KiB unit: 500 IOPS use 500 MiB/s of the volume's throughput (measured 20.50 MiB/s; merging of sequential IOs not assumed)",
        ),
        (
            Binding::WithinInstanceCap {
                instance: "m5.large".into(),
                max_iops: 18_750.0,
                max_mb_s: 593.75,
            },
            "within the m5.large cap of 18,750 IOPS and 593.75 MB/s",
        ),
        (
            Binding::RequestsBilled {
                requests_s: 100.0,
                hours: 730.0,
            },
            "requests billed: 100 measured requests/s in IO units × 3,600 × 730 h",
        ),
        (
            Binding::StripedCheaper {
                volumes: 2,
                saving_pct: 26.4,
                fewest: 1,
                usd: 41.52,
                fewest_usd: 56.48,
                cheapest: Some((4, 40.0)),
                min_saving_pct: 10.0,
            },
            "striped across 2 volumes: 26.4 % cheaper than the fewest that fit (2 volumes: $41.52/month; 1 volume: $56.48/month); the fewest within 10 % of the cheapest count (4 volumes, $40.00/month) (cloud.min_saving_pct)",
        ),
        (
            Binding::StripedCheaper {
                volumes: 3,
                saving_pct: 10.0,
                fewest: 2,
                usd: 90.0,
                fewest_usd: 100.0,
                cheapest: None,
                min_saving_pct: 10.0,
            },
            "striped across 3 volumes: 10.0 % cheaper than the fewest that fit (3 volumes: $90.00/month; 2 volumes: $100.00/month); the cheapest count (cloud.min_saving_pct)",
        ),
        (
            Binding::CapacitySetsSize,
            "capacity: volume size set by the data size",
        ),
        (
            Binding::SizeRow {
                row: p30(),
                smaller_lacks: Some(RowShort::Iops(4000.0)),
            },
            "size P30 (1,024 GiB, 5,000 IOPS, 200 MB/s): the smallest size with 4,000 IOPS",
        ),
        (
            Binding::SizeRow {
                row: p30(),
                smaller_lacks: Some(RowShort::Throughput(180.5, MB)),
            },
            "size P30 (1,024 GiB, 5,000 IOPS, 200 MB/s): the smallest size with 180.50 MB/s",
        ),
        (
            Binding::SizeRow {
                row: p30(),
                smaller_lacks: Some(RowShort::Gib(1000.0)),
            },
            "size P30 (1,024 GiB, 5,000 IOPS, 200 MB/s): the smallest size with 1,000 GiB",
        ),
        (
            Binding::SizeRow {
                row: p30(),
                smaller_lacks: None,
            },
            "size P30 (1,024 GiB, 5,000 IOPS, 200 MB/s): the smallest size",
        ),
        (
            Binding::SizeForIops {
                gib: 667.0,
                per_gib: 3.0,
                base: 0.0,
                iops: 2000.0,
            },
            "size raised to 667 GiB: 3 IOPS per GiB for 2,000 IOPS",
        ),
        (
            Binding::SizeForIops {
                gib: 100.0,
                per_gib: 1.0,
                base: 3000.0,
                iops: 3100.0,
            },
            "size raised to 100 GiB: 1 IOPS per GiB above a baseline of 3,000 for 3,100 IOPS",
        ),
        (
            Binding::SizeForThroughputStep {
                gib: 1000.0,
                needed: 150.0,
                unit: MIB,
            },
            "size raised to 1,000 GiB: 150 MiB/s needs at least 1,000 GiB",
        ),
        (
            Binding::SizeForThroughputLinear {
                gib: 2048.0,
                per_tib: 40.0,
                base: 0.0,
                needed: 80.0,
                unit: MIB,
            },
            "size raised to 2,048 GiB: 40.00 MiB/s per TiB for 80 MiB/s",
        ),
        (
            Binding::SizeForThroughputLinear {
                gib: 10.0,
                per_tib: 0.5,
                base: 125.0,
                needed: 130.0,
                unit: MB,
            },
            "size raised to 10 GiB: 0.50 MB/s per TiB above a baseline of 125 for 130 MB/s",
        ),
        (
            Binding::IopsForThroughput {
                from: 3000.0,
                to: 4000.0,
                needed: 1000.0,
                unit: MIB,
            },
            "provisioned IOPS raised from 3,000 to 4,000 for 1,000 MiB/s (throughput per IOPS)",
        ),
        (
            Binding::IopsForThroughputRatio {
                iops: 4000.0,
                throughput: 1000.0,
                per_iops: 0.25,
                unit: MIB,
            },
            "provisioned IOPS raised to 4,000 for 1,000 MiB/s (0.25 MiB/s per IOPS)",
        ),
        (
            Binding::SizeForIopsRatio {
                gib: 40.0,
                max_per_gib: 500.0,
                iops: 20_000.0,
            },
            "size raised to 40 GiB: at most 500 IOPS per GiB for 20,000 IOPS",
        ),
        (
            Binding::RowBurst {
                row: "P10".into(),
                minutes: 30.0,
                burst_iops: 3500.0,
                covers: covers(),
            },
            "P10 (30 min at 3,500 IOPS from a full bucket) bursts: baseline 300 IOPS; at 2,500 IOPS the 5,400,000 I/O-credit bucket lasts 5,400,000 / (2,500 − 300) s = 40.9 min ≥ the 35.0 min the load at this level lasted, and the average 120.50 IOPS ≤ the baseline refills it",
        ),
        (
            Binding::BurstSize {
                gib: 100.0,
                covers: covers(),
                sustained_iops: 2500.0,
                sustained_gib: 834.0,
            },
            "size 100 GiB bursts: baseline 300 IOPS; at 2,500 IOPS the 5,400,000 I/O-credit bucket lasts 5,400,000 / (2,500 − 300) s = 40.9 min ≥ the 35.0 min the load at this level lasted, and the average 120.50 IOPS ≤ the baseline refills it (sustained 2,500 IOPS would need 834 GiB)",
        ),
    ];
    for (binding, words) in cases {
        assert_eq!(binding.to_string(), words);
        assert_eq!(json(&binding), words);
    }
}

#[test]
fn binding_striped() {
    let fewer = Some(Infeasible::IopsOverMax {
        needed: 20_000.0,
        max: 16_000.0,
    });
    let s = |cheapest_policy, fewer: &Option<Infeasible>| {
        Binding::Striped {
            volumes: 2,
            cheapest_policy,
            fewer: fewer.clone(),
        }
        .to_string()
    };
    assert_eq!(
        s(false, &fewer),
        "striped across 2 volumes: with 1 volume(s): needs 20,000 IOPS per volume > max 16,000 per volume"
    );
    assert_eq!(
        s(false, &None),
        "striped across 2 volumes: fewer volumes fit only by provisioning IOPS for throughput, at a higher cost"
    );
    assert_eq!(
        s(true, &fewer),
        "striped across 2 volumes, the fewest that fit: with 1 volume(s): needs 20,000 IOPS per volume > max 16,000 per volume"
    );
    assert_eq!(s(true, &None), "striped across 2 volumes (cheapest count)");
}

#[test]
fn sizing_notes() {
    let cases = [
        (
            SizingNote::RowBurstNotCounted {
                row: "P10".into(),
                why: BurstRefused::MeanUnknown,
            },
            "credit bursting of P10 not counted: the average IOPS (to refill the bucket) is unknown",
        ),
        (
            SizingNote::BurstNoSmaller { burst_iops: 3000.0 },
            "burst to 3,000 IOPS not counted: the average load needs a baseline as large as the peak's, so the sustained size is no larger",
        ),
        (
            SizingNote::BurstNotCounted {
                burst_iops: 3000.0,
                why: BurstRefused::PeakLengthUnknown,
            },
            "burst to 3,000 IOPS not counted: the length of the peak is unknown; sized on the baseline",
        ),
        (
            SizingNote::DriveSizeAssumed { gb: 1200.0 },
            "drive size 1,200 GB is an assumption (set [tier.drive].size_gb in a --rules copy)",
        ),
        (
            SizingNote::DrivesForIopsOnly,
            "capacity not given: drives counted for IOPS and MB/s only",
        ),
        (
            SizingNote::DriveThroughputNotModelled,
            "throughput (MB/s) per drive is not modelled (no sourced figure)",
        ),
        (
            SizingNote::IoUnitSplit {
                op: IoKind::Read,
                avg_kib: 512.0,
                unit_kib: 256.0,
                parts: 2.0,
            },
            "average read 512.0 KiB > 256 KiB IO unit: each read counts as 2 requests (from the average size: a mix of small and large requests counts differently, by about ±20 %)",
        ),
        (
            SizingNote::IoUnitSplit {
                op: IoKind::Write,
                avg_kib: 300.3,
                unit_kib: 256.0,
                parts: 2.0,
            },
            "average write 300.3 KiB > 256 KiB IO unit: each write counts as 2 requests (from the average size: a mix of small and large requests counts differently, by about ±20 %)",
        ),
        (
            SizingNote::LargeRequestsCountedOnce,
            "large requests are counted one each: the catalogue's sources give no IO unit for this tier",
        ),
        (
            SizingNote::VolumeCapacityNotGiven,
            "capacity not given: volume size is the minimum that reaches the IOPS and throughput - add your data size",
        ),
        (
            SizingNote::PerVmPool,
            "performance is per VM (baseline + per-GiB rate of all volumes of this type, up to the VM's cap): one volume of the total size is shown; splitting it changes nothing",
        ),
        (
            SizingNote::PerVmBestCase,
            "its IOPS and MiB/s maximums are the best case per VM (the largest machine types); smaller VMs cap lower: give --instance",
        ),
    ];
    for (note, words) in cases {
        assert_eq!(note.to_string(), words);
        assert_eq!(json(&note), words);
        let option_note = OptionNote::Sizing(note);
        assert_eq!(option_note.to_string(), words);
        assert_eq!(json(&option_note), words);
    }
}

#[test]
fn host_choices_are_worded_per_family() {
    use crate::report::wording::HostLine;
    use crate::rules::schema::HostFamily;
    use crate::rules::{HostChoice, HostFit};
    let fit = |id: &str, vcpus: Option<u32>, mem: Option<f64>, iops: f64, mb: f64| HostFit {
        id: id.into(),
        vcpus,
        memory_gib: mem,
        max_iops: iops,
        max_mb_s: mb,
    };
    let hosts = vec![
        HostChoice {
            family: HostFamily::General,
            catalogued: 1,
            host: None,
            largest: Some(fit("Standard_D16s_v5", None, None, 25600.0, 600.0)),
            cap_unknown: vec![],
        },
        HostChoice {
            family: HostFamily::Memory,
            catalogued: 9,
            host: Some(fit(
                "Standard_E16bds_v5",
                Some(16),
                Some(128.0),
                88400.0,
                2300.0,
            )),
            largest: None,
            cap_unknown: vec![],
        },
        HostChoice {
            family: HostFamily::Storage,
            catalogued: 0,
            host: None,
            largest: None,
            cap_unknown: vec![],
        },
    ];
    let line = HostLine {
        tier: "Azure Premium SSD v2",
        hosts: &hosts,
        iops: 1900.0,
        counted: false,
        mb_s: Some(788.43),
    };
    assert_eq!(
        line.to_string(),
        "Host: the smallest catalogued VM per family that drives 1,900 IOPS and 788.43 MB/s to Azure Premium SSD v2 — general purpose: the only one catalogued, `Standard_D16s_v5` (25,600 IOPS, 600 MB/s), cannot; memory optimised: `Standard_E16bds_v5` (16 vCPU, 128 GiB; 88,400 IOPS, 2,300 MB/s); storage optimised: none catalogued for this tier."
    );
    let many = HostChoice {
        family: HostFamily::Memory,
        catalogued: 5,
        host: None,
        largest: Some(fit(
            "m3-ultramem-128",
            Some(128),
            Some(3904.0),
            80000.0,
            1258.29,
        )),
        cap_unknown: vec![],
    };
    assert_eq!(
        many.to_string(),
        "memory optimised: none of the 5 catalogued can; the largest: `m3-ultramem-128` (128 vCPU, 3,904 GiB; 80,000 IOPS, 1,258.29 MB/s)"
    );
    let r = Infeasible::NoHostCanDrive {
        needed_iops: 150000.0,
        needed_mb_s: 1228.8,
        platform: "gcp".into(),
        most_iops: Some(("n2-standard-64".into(), 100000.0)),
        most_mb_s: Some(("n2-standard-16".into(), 1258.29)),
        cap_unknown: Box::new([]),
    };
    assert_eq!(
        json(&r),
        "needs 150,000 IOPS and 1,228.80 MB/s: no catalogued gcp VM can drive that to this tier (the most: n2-standard-64, 100,000 IOPS; n2-standard-16, 1,258.29 MB/s)"
    );
    // Hosts whose cap for the tier is unknown (`tier_caps_unknown`) are named, never counted.
    let unknown = HostChoice {
        family: HostFamily::Memory,
        catalogued: 0,
        host: None,
        largest: None,
        cap_unknown: vec!["m3-megamem-64".into(), "m3-ultramem-64".into()],
    };
    assert_eq!(
        unknown.to_string(),
        "memory optimised: none catalogued with a known cap for this tier (per-VM cap for this tier not found, not counted: `m3-megamem-64`, `m3-ultramem-64`)"
    );
    let r = Infeasible::NoHostCanDrive {
        needed_iops: 400000.0,
        needed_mb_s: 1228.8,
        platform: "gcp".into(),
        most_iops: Some(("c4-standard-192".into(), 320000.0)),
        most_mb_s: Some(("c4-standard-288".into(), 13107.2)),
        cap_unknown: Box::new(["z3-highmem-88-standardlssd".into()]),
    };
    assert_eq!(
        json(&r),
        "needs 400,000 IOPS and 1,228.80 MB/s: no catalogued gcp VM with a known cap can drive that to this tier (the most: c4-standard-192, 320,000 IOPS; c4-standard-288, 13,107.2 MB/s); per-VM cap for this tier not found, not counted: `z3-highmem-88-standardlssd`"
    );
}
