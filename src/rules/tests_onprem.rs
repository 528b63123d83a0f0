//! On-premises arrays counted for IOPS, MB/s and capacity (issue 13, item 2), with hand-computed
//! answers from the catalogue's figures (rules/tiers.toml [[drive]], [[link]], [[raid]]).

use super::findings::{Binding, DrivesSetBy, Infeasible, IoKind};
use super::*;

fn builtin() -> RuleSet {
    RuleSet::builtin().expect("built-in rules load")
}

fn onprem(headroom: f64) -> Options {
    Options {
        headroom_pct: Some(headroom),
        platforms: vec!["onprem".to_string()],
        ..Options::default()
    }
}

fn option<'a>(r: &'a Recommendation, tier: &str) -> &'a TierOption {
    r.platforms
        .iter()
        .flat_map(|p| p.recommended.iter().chain(p.alternatives.iter()))
        .find(|o| o.tier_id == tier)
        .unwrap_or_else(|| panic!("no option {tier}"))
}

/// A karlarao-like Exadata load (issue 13: about 23 GB/s of reads): 18,000 reads/s and
/// 2,000 writes/s, 23,000 MB/s read and 100 MB/s written. (The report itself is not in the
/// shared corpus; these are the order of magnitude, not its exact figures.)
fn heavy_scan() -> Demand {
    Demand {
        required_iops: Some(20_000.0),
        read_iops: Some(18_000.0),
        write_iops: Some(2_000.0),
        read_mb_s: Some(23_000.0),
        write_mb_s: Some(100.0),
        avg_read_kib: Some(23_000.0e6 / 18_000.0 / 1024.0),
        avg_write_kib: Some(100.0e6 / 2_000.0 / 1024.0),
        ..Demand::default()
    }
}

#[test]
fn heavy_scan_nvme_raid10_count_is_set_by_mb_s() {
    let r = recommend(&builtin(), &heavy_scan(), &onprem(30.0));
    let o = option(&r, "onprem.nvme.raid10");
    // Sized: read 23,000 × 1.3 = 29,900 MB/s, write 100 × 1.3 = 130 MB/s.
    // Back-end write = 130 × 2 (RAID 10) = 260. Two catalogued sizes:
    // - PM9A3 7.68 TB on PCIe 4.0 x4: read min(6,500, 7,877), write min(3,500, 7,877):
    //   ceil(29,900 / 6,500 + 260 / 3,500) = ceil(4.6 + 0.0743) = 5 → whole pairs → 6;
    // - PM9A3 1.92 TB: read 6,800, write 2,700:
    //   ceil(29,900 / 6,800 + 260 / 2,700) = ceil(4.3971 + 0.0963) = 5 → 6.
    // Same count: the least raw capacity wins, the 1.92 TB (6 × 1,788.14 GiB = 10,728.84 GiB).
    // IOPS: back-end 23,400 + 2,600 × 2 = 28,600 / 850,000 → 1 drive.
    assert!(o.feasible);
    assert_eq!(o.drives_for_mb_s, Some(5));
    assert_eq!(o.drives_for_iops, Some(1));
    assert_eq!(o.count, 6);
    assert_eq!(o.drives_set_by, Some(DrivesSetBy::Throughput));
    assert_close!(o.backend_mb_s.unwrap(), 29_900.0 + 260.0);
    assert_close!(o.total_gib, 6.0 * 1_920e9 / 1_073_741_824.0);
    // The drives carry 6 / ((29,900 / 6,800 + 260 / 2,700) / 30,030) front-end MB/s
    //   = 6 / (4.493355 / 30,030) = 40,099.2 MB/s = 38,241.6 MiB/s.
    let carried_mb = 6.0 / ((29_900.0 / 6_800.0 + 260.0 / 2_700.0) / 30_030.0);
    assert_close!(o.throughput_mib_s.unwrap(), carried_mb * 1e6 / 1_048_576.0);
    assert!(o.throughput_mib_s.unwrap() * 1_048_576.0 / 1e6 >= 30_030.0);
    match &o.binding_limits[..] {
        [Binding::DriveCounts {
            iops,
            mb_s,
            capacity,
            set_by,
        }, Binding::DriveThroughput {
            drives,
            drive_read_mb_s,
            ..
        }, Binding::WholeGroups { from, .. }] => {
            assert_close!(*iops, 1.0);
            assert_eq!(*mb_s, Some(5.0));
            assert_eq!(*capacity, None);
            assert_eq!(*set_by, DrivesSetBy::Throughput);
            assert_close!(*drives, 5.0);
            assert_close!(*drive_read_mb_s, 6_800.0);
            assert_close!(*from, 5.0);
        }
        other => panic!("{other:?}"),
    }
    // Before issue 13 the same load got the RAID 10 minimum of 4 NVMe drives (IOPS alone: 1)
    // with "throughput per drive is not modelled": 4 drives cannot carry 29,900 MB/s of reads
    // at 6,800 each (4 × 6,800 = 27,200 < 29,900): the MB/s count is what adds the fifth.
    assert!(o.count > 4);
}

#[test]
fn heavy_scan_on_premises_answer_is_flash_that_carries_its_mb_s() {
    let r = recommend(&builtin(), &heavy_scan(), &onprem(30.0));
    let p = &r.platforms[0];
    let rec = p.recommended.as_ref().expect("a feasible array");
    assert_eq!(rec.media, "ssd");
    // NVMe RAID 5 (4+1): back-end write 130 × 4 = 520 MB/s; ceil(29,900 / 6,500 + 520 / 3,500)
    //   = ceil(4.6 + 0.1486) = 5 = one 4+1 group; IOPS (23,400 + 2,600 × 4) / 900,000 → 1.
    // Five drives beat NVMe RAID 10's six (no prices, no latency measured: fewest units).
    assert_eq!(rec.tier_id, "onprem.nvme.raid5");
    assert_eq!(rec.count, 5);
    assert_eq!(rec.drives_for_mb_s, Some(5));
    assert_eq!(rec.drives_set_by, Some(DrivesSetBy::Throughput));
    let carried = rec.throughput_mib_s.unwrap() * 1_048_576.0 / 1e6;
    assert!(
        carried >= r.sized_mb_s.unwrap(),
        "{carried} < {}",
        r.sized_mb_s.unwrap()
    );
    // 7,200 rpm RAID 10: IOPS back-end 28,600 / 80 = 357.5 → 358 drives > 120: infeasible
    // (its MB/s alone would need ceil((29,900 + 260) / 285) = 106).
    let h = option(&r, "onprem.hdd7k.raid10");
    assert!(!h.feasible);
    assert_eq!(h.drives_for_mb_s, Some(106));
    assert_eq!(h.drives_for_iops, Some(358));
}

#[test]
fn sized_mb_s_above_the_front_end_ceiling_is_infeasible() {
    // 40,000 MB/s (policy ceiling) < 31,000 × 1.3 = 40,300 MB/s sized.
    let mut d = heavy_scan();
    d.read_mb_s = Some(31_000.0);
    d.write_mb_s = Some(0.0);
    let r = recommend(&builtin(), &d, &onprem(30.0));
    let o = option(&r, "onprem.nvme.raid10");
    assert!(!o.feasible);
    match &o.infeasible_reason {
        Some(Infeasible::ArrayFrontEndOverMax { mb_s, max_mb_s }) => {
            assert_close!(*mb_s, 40_300.0);
            assert_close!(*max_mb_s, 40_000.0);
        }
        other => panic!("{other:?}"),
    }
    assert!(r.platforms[0].recommended.is_none());
}

#[test]
fn link_caps_the_24g_sas_ssd_and_unsourced_rates_make_a_tier_infeasible() {
    let rs = builtin();
    let drive =
        |rs: &RuleSet, tier: &str| match &rs.tiers().iter().find(|t| t.id == tier).unwrap().spec {
            TierSpec::DriveArray { drive, .. } => drive.clone(),
            TierSpec::CloudVolume(_) => panic!("not an array"),
        };
    // Samsung PM1653: 3,800 MB/s read and write on one SAS-4 lane of 2,400 MB/s → 2,400 each.
    let sas = drive(&rs, "onprem.efd.raid10");
    assert_close!(sas.read_mb_s().unwrap(), 2_400.0);
    assert_close!(sas.write_mb_s().unwrap(), 2_400.0);
    // Kingston DC600M: 560 / 530 MB/s, below SATA's 600.
    let sata = drive(&rs, "onprem.sata-ssd.raid10");
    assert_close!(sata.read_mb_s().unwrap(), 560.0);
    assert_close!(sata.write_mb_s().unwrap(), 530.0);
    // A read-only load: the SAS SSD is sized (2,300 × 1.3 = 2,990 / 2,400 = 1.25 → 2 drives).
    let mut d = heavy_scan();
    d.read_mb_s = Some(2_300.0);
    d.write_mb_s = Some(0.0);
    let r = recommend(&rs, &d, &onprem(30.0));
    assert_eq!(option(&r, "onprem.efd.raid10").drives_for_mb_s, Some(2));
    // Every built-in drive class has a sourced rate (no 10K class is built in for want of one),
    // so no built-in tier is infeasible for an unsourced rate.
    assert!(r
        .platforms
        .iter()
        .flat_map(|p| p.recommended.iter().chain(p.alternatives.iter()))
        .all(|o| !matches!(
            o.infeasible_reason,
            Some(Infeasible::DriveRateUnsourced { .. })
        )));
    // A copy of the catalogue whose 7.2K drive lacks its read rate: that tier is infeasible for
    // the read MB/s, with the direction and the back-end MB/s (2,300 × 1.3 = 2,990, no cache).
    let no_read = BUILTIN_TIERS_TOML.replacen("seq_read_mb_s = 285\n", "", 1);
    assert_ne!(no_read, BUILTIN_TIERS_TOML);
    let rs3 = RuleSet::from_toml_strs(&no_read, "t.toml", BUILTIN_SIZING_TOML, "s.toml")
        .expect("rules load");
    match &option(&recommend(&rs3, &d, &onprem(30.0)), "onprem.hdd7k.raid10").infeasible_reason {
        Some(Infeasible::DriveRateUnsourced { op, mb_s }) => {
            assert_eq!(*op, IoKind::Read);
            assert_close!(*mb_s, 2_990.0);
        }
        other => panic!("{other:?}"),
    }
    // With writes the SAS SSD stays feasible now that its write rate is sourced:
    // 10 × 1.3 × 2 (RAID 10) = 26 MB/s back end; ceil(2,990 / 2,400 + 26 / 2,400)
    //   = ceil(1.2458 + 0.0108) = 2 drives.
    d.write_mb_s = Some(10.0);
    let r = recommend(&rs, &d, &onprem(30.0));
    let o = option(&r, "onprem.efd.raid10");
    assert!(o.feasible, "{:?}", o.infeasible_reason);
    assert_eq!(o.drives_for_mb_s, Some(2));
    // A write rate missing from a copy of the catalogue (here the SAS SSD's, removed) still
    // makes the tier infeasible for that demand, naming the direction and its back-end MB/s.
    let no_write = BUILTIN_TIERS_TOML.replacen("seq_write_mb_s = 3800\n", "", 1);
    assert_ne!(no_write, BUILTIN_TIERS_TOML);
    let rs2 = RuleSet::from_toml_strs(&no_write, "t.toml", BUILTIN_SIZING_TOML, "s.toml")
        .expect("rules load");
    assert_eq!(drive(&rs2, "onprem.efd.raid10").write_mb_s(), None);
    let r = recommend(&rs2, &d, &onprem(30.0));
    match &option(&r, "onprem.efd.raid10").infeasible_reason {
        // 10 × 1.3 × 2 (RAID 10) = 26 MB/s of back-end writes.
        Some(Infeasible::DriveRateUnsourced { op, mb_s }) => {
            assert_eq!(*op, IoKind::Write);
            assert_close!(*mb_s, 26.0);
        }
        other => panic!("{other:?}"),
    }
}

/// A scan-heavy demand on the 24G SAS SSD (PM1653 7.68 TB: 800,000 random-read IOPS, 3,800 MB/s
/// each way capped at one 2,400 MB/s SAS-4 lane), no headroom: 40,000 reads/s and 10,000
/// writes/s, 12,000 MB/s read and 1,000 MB/s written. Each layout's count is the largest of its
/// IOPS, MB/s and capacity counts, at least the RAID minimum, in whole groups
/// (src/rules/sizing/onprem.rs).
fn sas_scan() -> Demand {
    Demand {
        required_iops: Some(50_000.0),
        read_iops: Some(40_000.0),
        write_iops: Some(10_000.0),
        read_mb_s: Some(12_000.0),
        write_mb_s: Some(1_000.0),
        ..Demand::default()
    }
}

#[test]
fn sas_ssd_counts_meet_iops_mb_s_and_capacity_with_the_raid_factor() {
    let r = recommend(&builtin(), &sas_scan(), &onprem(0.0));

    // RAID 10 (penalty 2, pairs, min 4):
    //   IOPS: (40,000 + 10,000 × 2) / 800,000 = 0.075 → 1;
    //   MB/s: back-end read 12,000, write 1,000 × 2 = 2,000:
    //         ceil(12,000 / 2,400 + 2,000 / 2,400) = ceil(5.8333) = 6;
    //   capacity: not given; max(1, 6, min 4) = 6, already whole pairs → 6.
    let o = option(&r, "onprem.efd.raid10");
    assert!(o.feasible, "{:?}", o.infeasible_reason);
    assert_eq!(o.drives_for_iops, Some(1));
    assert_eq!(o.drives_for_mb_s, Some(6));
    assert_eq!(o.drives_for_capacity, None);
    assert_eq!(o.count, 6);
    assert_eq!(o.drives_set_by, Some(DrivesSetBy::Throughput));
    assert_close!(o.backend_iops.unwrap(), 60_000.0);
    assert_close!(o.backend_mb_s.unwrap(), 14_000.0);
    // Carried: 6 drives / ((12,000 / 2,400 + 2,000 / 2,400) / 13,000 front-end MB/s)
    //   = 6 × 13,000 / 5.8333 = 13,371.43 MB/s ≥ 13,000 sized.
    let carried_mb = 6.0 * 13_000.0 / (14_000.0 / 2_400.0);
    assert_close!(carried_mb, 93_600.0 / 7.0); // = 78,000 × 2,400 / 14,000
    assert_close!(o.throughput_mib_s.unwrap(), carried_mb * 1e6 / 1_048_576.0);
    match &o.binding_limits[1] {
        Binding::DriveThroughput {
            drive_read_mb_s,
            drive_write_mb_s,
            backend_write_mb_s,
            drives,
            ..
        } => {
            // The lane's 2,400, not the drive's 3,800, in both directions.
            assert_close!(*drive_read_mb_s, 2_400.0);
            assert_close!(*drive_write_mb_s, 2_400.0);
            assert_close!(*backend_write_mb_s, 2_000.0);
            assert_close!(*drives, 6.0);
        }
        other => panic!("{other:?}"),
    }
    // The link note says the lane caps the drive.
    assert!(o.notes.iter().any(|n| {
        let t = n.to_string();
        t.contains("3,800") && t.contains("2,400")
    }));

    // RAID 5 (4+1, penalty 4, min 5):
    //   IOPS: (40,000 + 10,000 × 4) / 800,000 = 0.1 → 1;
    //   MB/s: (12,000 + 1,000 × 4) / 2,400 = 16,000 / 2,400 = 6.667 → 7;
    //   max(1, 7, min 5) = 7 → whole 4+1 groups: ceil(7 / 5) × 5 = 10.
    let o = option(&r, "onprem.efd.raid5");
    assert_eq!(o.drives_for_iops, Some(1));
    assert_eq!(o.drives_for_mb_s, Some(7));
    assert_eq!(o.count, 10);
    assert_eq!(o.drives_set_by, Some(DrivesSetBy::Throughput));
    assert!(o
        .binding_limits
        .iter()
        .any(|b| matches!(b, Binding::WholeGroups { from, .. } if (*from - 7.0).abs() < 1e-9)));

    // RAID 6 (6+2, penalty 6, min 8):
    //   MB/s: (12,000 + 1,000 × 6) / 2,400 = 7.5 → 8; max(1, 8, min 8) = 8 = one group.
    //   (8 = the minimum, but the minimum does not exceed the MB/s count: set by MB/s.)
    let o = option(&r, "onprem.efd.raid6");
    assert_eq!(o.drives_for_mb_s, Some(8));
    assert_eq!(o.count, 8);
    assert_eq!(o.drives_set_by, Some(DrivesSetBy::Throughput));

    // With 100,000 GiB the capacity count sets RAID 5: one 4+1 group holds
    //   4 × 7,680e9 / 2^30 = 4 × 7,152.557 = 28,610.23 GiB;
    //   ceil(100,000 / 28,610.23) = ceil(3.4953) = 4 groups = 20 drives > 7 for MB/s.
    let mut big = sas_scan();
    big.capacity_gib = Some(100_000.0);
    let r = recommend(&builtin(), &big, &onprem(0.0));
    let o = option(&r, "onprem.efd.raid5");
    assert_eq!(o.drives_for_capacity, Some(20));
    assert_eq!(o.drives_for_mb_s, Some(7));
    assert_eq!(o.count, 20);
    assert_eq!(o.drives_set_by, Some(DrivesSetBy::Capacity));
    assert_close!(o.usable_gib, 4.0 * 4.0 * 7_680e9 / 1_073_741_824.0);
}

/// The on-premises choice rule of issue 13: "when a flash tier fits, the choice never lands on a
/// tier that the IO report card grades worse than today's measured latency", checked with the
/// SAS SSD tiers now feasible for a load that moves MB/s.
#[test]
fn with_sas_ssd_feasible_the_choice_keeps_measured_latency() {
    // Exadata-like: 0.32 ms single-block reads, 0.5 ms log writes, 800 MB/s of scans.
    let d = Demand {
        single_block_read_ms: Some(0.32),
        log_write_ms: Some(0.5),
        avg_log_write_kib: Some(8.0),
        ..sas_scan()
    };
    let r = recommend(&builtin(), &d, &onprem(30.0));
    let rec = r.platforms[0]
        .recommended
        .as_ref()
        .expect("a feasible array");
    assert_eq!(rec.media, "ssd");
    // The SAS SSD tiers are feasible and not avoided by the latency rule (0.15 ms class).
    for t in ["onprem.efd.raid10", "onprem.efd.raid5", "onprem.efd.raid6"] {
        let o = option(&r, t);
        assert!(o.feasible, "{t}: {:?}", o.infeasible_reason);
        assert!(
            !o.avoided_by
                .iter()
                .any(|a| a == "keep-measured-latency-on-premises"),
            "{t}: {:?}",
            o.avoided_by
        );
    }
    // The 15K tier would grade 0.32 ms reads worse (6 ms class): avoided by the rule.
    assert!(option(&r, "onprem.hdd15k.raid10")
        .avoided_by
        .iter()
        .any(|a| a == "keep-measured-latency-on-premises"));
    // Every on-premises option the latency rule avoids is spinning, and none is chosen.
    let p = &r.platforms[0];
    for o in p.recommended.iter().chain(p.alternatives.iter()) {
        if o.avoided_by
            .iter()
            .any(|a| a == "keep-measured-latency-on-premises")
        {
            assert_eq!(o.media, "hdd", "{}", o.tier_id);
            assert_ne!(o.tier_id, rec.tier_id);
        }
    }
    assert!(!rec
        .avoided_by
        .iter()
        .any(|a| a == "keep-measured-latency-on-premises"));
}

#[test]
fn latency_rule_keeps_flash_when_15k_would_lower_a_grade() {
    // DBV-like: 275 sized IOPS, reads 0.51 ms (A+), log writes 0.37 ms (A-). 15K at 6 ms would
    // grade random reads B and 1 KiB log writes D: avoided by weight 10, plus 1 for end of life.
    let d = Demand {
        required_iops: Some(211.81),
        read_iops: Some(54.30),
        write_iops: Some(83.23),
        read_mb_s: Some(18.71),
        write_mb_s: Some(1.09),
        single_block_read_ms: Some(0.51),
        log_write_ms: Some(0.37),
        avg_log_write_kib: Some(3.0),
        ..Demand::default()
    };
    let r = recommend(&builtin(), &d, &onprem(30.0));
    let rec = r.platforms[0].recommended.as_ref().unwrap();
    assert_eq!(rec.tier_id, "onprem.sata-ssd.raid10");
    let hdd = option(&r, "onprem.hdd15k.raid10");
    assert_eq!(hdd.rule_score, -11);
    assert_eq!(
        hdd.avoided_by,
        [
            "keep-measured-latency-on-premises",
            "avoid-end-of-life-15k-drives"
        ]
    );
    // Flash that keeps every grade is not avoided by the latency rule.
    assert!(!option(&r, "onprem.nvme.raid10")
        .avoided_by
        .iter()
        .any(|a| a == "keep-measured-latency-on-premises"));
}

#[test]
fn an_unknown_interface_is_refused_with_its_key() {
    let bad = BUILTIN_TIERS_TOML.replacen("interface = \"pcie4x4\"", "interface = \"pcie9x4\"", 1);
    let e = match RuleSet::from_toml_strs(&bad, "t.toml", BUILTIN_SIZING_TOML, "s.toml") {
        Ok(_) => panic!("an unknown interface must be refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("interface") && e.contains("pcie9x4"), "{e}");
}

#[test]
fn latency_rule_outweighs_every_other_on_premises_preference() {
    // "Never lands on a slower tier": the avoid weight must exceed the sum of all prefer weights
    // that can reach an on-premises tier (today 1 + 1 + 1 = 3 < 10).
    let rs = builtin();
    let onprem: Vec<&Tier> = rs
        .tiers()
        .iter()
        .filter(|t| t.platform == "onprem")
        .collect();
    let keep = rs
        .rules()
        .iter()
        .find(|r| r.id == "keep-measured-latency-on-premises")
        .expect("rule");
    assert!(keep.slower_than_measured && keep.effect == Effect::Avoid);
    let prefer: u32 = rs
        .rules()
        .iter()
        .filter(|r| r.effect == Effect::Prefer)
        .filter(|r| {
            r.targets
                .iter()
                .any(|t| onprem.iter().any(|x| x.matches(t)))
        })
        .map(|r| r.weight)
        .sum();
    assert_eq!(prefer, 3);
    assert!(keep.weight > prefer);
}

/// A small database (issue 13 trial: about 17 IOPS sized) got 4 × 7.68 TB NVMe without
/// --capacity, the class's only size. Each catalogued size is tried: the fewest drives that
/// meet IOPS, MB/s, capacity and the RAID minimum win, then the least raw capacity.
#[test]
fn drive_size_is_the_smallest_that_needs_the_fewest_drives() {
    let small = Demand {
        required_iops: Some(13.23),
        read_iops: Some(7.42),
        write_iops: Some(5.10),
        read_mb_s: Some(0.30),
        write_mb_s: Some(0.12),
        ..Demand::default()
    };
    let r = recommend(&builtin(), &small, &onprem(30.0));
    let o = option(&r, "onprem.nvme.raid10");
    // 13.23 × 1.3 = 17.2 IOPS: 1 drive for IOPS, 1 for MB/s on either size; the RAID 10
    // minimum of 4 sets the count on both; least raw: 4 × 1,920e9 / 2^30 = 7,152.56 GiB
    // (the 7.68 TB size: 28,610.23 GiB).
    assert_eq!(o.count, 4);
    assert_eq!(o.drives_set_by, Some(DrivesSetBy::RaidMinimum));
    assert_close!(o.total_gib, 4.0 * 1_920e9 / 1_073_741_824.0);
    let note = o
        .notes
        .iter()
        .map(ToString::to_string)
        .find(|n| n.starts_with("drive size"))
        .expect("size note");
    assert_eq!(
        note,
        "drive size 1,920 GB of the catalogued 1,920 / 7,680 GB: capacity not given, so the smallest size that needs the fewest drives for IOPS and MB/s"
    );
    assert!(o
        .notes
        .iter()
        .any(|n| n.to_string() == "capacity not given: drives counted for IOPS and MB/s only"));

    // With 10,000 GiB: 1.92 TB = 1,788.14 GiB per mirror pair: ceil(10,000 / 1,788.14) = 6
    // pairs = 12 drives; 7.68 TB = 7,152.56 GiB: ceil(10,000 / 7,152.56) = 2 pairs = 4 drives.
    // The fewest drives win: 4 × 7.68 TB.
    let mut big = small.clone();
    big.capacity_gib = Some(10_000.0);
    let r = recommend(&builtin(), &big, &onprem(30.0));
    let o = option(&r, "onprem.nvme.raid10");
    assert_eq!(o.count, 4);
    assert_eq!(o.drives_for_capacity, Some(4));
    assert_close!(o.size_per_unit_gib, 7_680e9 / 1_073_741_824.0);
    assert!(o.notes.iter().any(|n| n.to_string()
        == "drive size 7,680 GB of the catalogued 1,920 / 7,680 GB: the fewest drives for IOPS, MB/s and capacity, then the least raw capacity"));

    // Writes set it: 10,000 MB/s written × 1.0 × 2 (RAID 10) = 20,000 MB/s back end:
    // 1.92 TB: ceil(20,000 / 2,700) = 8 drives; 7.68 TB: ceil(20,000 / 3,500) = 6 drives.
    let writes = Demand {
        required_iops: Some(10_000.0),
        read_iops: Some(0.0),
        write_iops: Some(10_000.0),
        read_mb_s: Some(0.0),
        write_mb_s: Some(10_000.0),
        ..Demand::default()
    };
    let r = recommend(&builtin(), &writes, &onprem(0.0));
    let o = option(&r, "onprem.nvme.raid10");
    assert_eq!(o.drives_for_mb_s, Some(6));
    assert_eq!(o.count, 6);
    assert_close!(o.size_per_unit_gib, 7_680e9 / 1_073_741_824.0);
}
