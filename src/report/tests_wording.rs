//! The words of every finding kind, and that the JSON carries the same words.

use crate::rules::findings::*;
use crate::rules::{Metric, Op};
use crate::rules::{NotEvaluatedRule, OptionNote, Unit};

use super::not_evaluated_reason;

fn grade(best: &str, worst: &str) -> crate::rules::findings::Grade {
    crate::rules::findings::Grade {
        best: best.into(),
        worst: worst.into(),
    }
}

#[test]
fn grades_one_letter_or_a_span() {
    assert_eq!(grade("B", "B").to_string(), "B");
    assert_eq!(grade("B", "D").to_string(), "B to D");
    assert_eq!(json(&grade("B", "D")), "B to D");
}

fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_value(v)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn explanation_sized_and_for_platform() {
    let e = Explanation::Sized {
        required_iops: 924.86,
        figure_decimals: 2,
        formula: "read_total + write_total + redo_writes".into(),
        headroom_pct: 30.0,
        sized_iops: 1202.318,
        sized_mb_s: Some(12.3456),
        sized_mib_s: Some(11.77),
    };
    let words = "Sized for 924.86 IOPS (read_total + write_total + redo_writes) × (1 + 30 % headroom) = 1,202.32 IOPS and 12.35 MB/s = 11.77 MiB/s (1 MB = 10^6 B, 1 MiB = 2^20 B).";
    assert_eq!(e.to_string(), words);
    assert_eq!(json(&e), words);
    let p = Explanation::ForPlatform {
        platform: "aws".into(),
        explanation: Box::new(Explanation::Cheapest),
    };
    assert_eq!(p.to_string(), "aws: It is the cheapest feasible tier.");
}

#[test]
fn explanation_choice_and_rules() {
    let rec = Explanation::Recommended {
        tier_id: "aws.gp3".into(),
        name: "EBS gp3".into(),
        count: 1,
        unit: Unit::Volume,
        total_gib: 1024.0,
        monthly_cost_usd: Some(81.92),
    };
    assert_eq!(
        rec.to_string(),
        "aws.gp3 (EBS gp3) recommended: 1 volume, 1,024 GiB, $81.92/month."
    );
    let rec = Explanation::Recommended {
        tier_id: "onprem.efd.raid10".into(),
        name: "EFD".into(),
        count: 4,
        unit: Unit::Drive,
        total_gib: 1788.0,
        monthly_cost_usd: None,
    };
    assert_eq!(
        rec.to_string(),
        "onprem.efd.raid10 (EFD) recommended: 4 drives, 1,788 GiB, no list price."
    );
    assert_eq!(
        Explanation::PreferredByRules {
            rules: vec!["a".into(), "b".into()],
            score: 2
        }
        .to_string(),
        "Preferred by rule a, b (score +2); rule preferences are applied before cost and unit count."
    );
    assert_eq!(
        Explanation::NoRulePreference.to_string(),
        "No rule prefers one feasible tier over another."
    );
    let skipped = RuleNotApplied {
        rule: "flash".into(),
        why: NotAppliedBecause::OverMaxUnits {
            count: 8,
            unit: Unit::Drive,
            max_units: 4,
        },
    };
    assert_eq!(
        skipped.to_string(),
        "rule flash not applied: needs 8 drives, more than its max_units 4"
    );
    assert_eq!(
        Explanation::RulePreferenceNotApplied {
            skipped: vec![(skipped, "onprem.efd.raid10".into())]
        }
        .to_string(),
        "No rule preference applies: rule flash not applied: needs 8 drives, more than its max_units 4 (onprem.efd.raid10)."
    );
    assert_eq!(
        Explanation::HighestRuleScore { score: -1 }.to_string(),
        "It has the highest rule score among feasible tiers (-1)."
    );
    assert_eq!(
        Explanation::PreferredButInfeasible {
            tier_id: "aws.io2".into(),
            rules: vec!["sub-ms".into()],
            reason: None
        }
        .to_string(),
        "aws.io2 is preferred by sub-ms but infeasible: ?."
    );
    assert_eq!(
        Explanation::NoTierFeasible {
            reasons: vec![
                (
                    vec!["a".into(), "b".into()],
                    Some(Infeasible::CapacityOverMax {
                        gib: 20_000.0,
                        max_gib: 16_384.0
                    })
                ),
                (vec!["c".into()], None)
            ]
        }
        .to_string(),
        "no tier is feasible; a, b: needs 20,000 GiB per volume > max 16,384 GiB; c: ?"
    );
}

#[test]
fn explanation_cost() {
    assert_eq!(
        Explanation::CheaperExists {
            tier_id: "aws.gp3".into(),
            cheapest_usd: 265.0,
            more_usd: 2039.0
        }
        .to_string(),
        "The cheapest feasible tier is aws.gp3 at $265.00/month; the recommendation costs $2,039.00/month more."
    );
    assert_eq!(
        Explanation::UnpricedWinner {
            cost_note: Some(CostNote::RowUnpriced { row: "P80".into() }),
            tier_id: "azure.premium-ssd".into(),
            cheapest_usd: 10.5
        }
        .to_string(),
        "It has no list price in the catalogue (no list price for size P80 in the catalogue); the cheapest priced feasible tier is azure.premium-ssd at $10.50/month."
    );
    assert_eq!(
        Explanation::FewestUnitsWins {
            count: 4,
            unit: Unit::Drive,
            total_gib: 2980.4
        }
        .to_string(),
        "No public list prices, so among equally scored tiers the one with the fewest units wins (4 drives), then the least raw capacity (2,980 GiB)."
    );
    assert_eq!(
        Explanation::NoListPrice.to_string(),
        "No public list price for this tier."
    );
}

#[test]
fn explanation_latency_flash_and_hosts() {
    let risk = LatencyRisk {
        tier_ms: 9.0,
        worse: vec![("random_read".into(), "B-".into(), grade("A", "A"))],
    };
    let e = Explanation::LatencyRisk {
        tier_id: "aws.gp3".into(),
        risk: risk.clone(),
        keeps: Some(LatencyKeeper {
            tier_id: "aws.io2".into(),
            latency_ms: 0.5,
            monthly_cost_usd: Some(122.44),
        }),
    };
    // As in the golden output of a corpus AWR report.
    assert_eq!(
        e.to_string(),
        "Latency: `aws.gp3` may be slower than today's storage: at the up to 9 ms its published class allows: random_read could grade B- (A today); `aws.io2` (up to 0.5 ms, $122.44/month) keeps today's grades."
    );
    let e = Explanation::LatencyRisk {
        tier_id: "aws.gp3".into(),
        risk: LatencyRisk {
            tier_ms: 0.5,
            ..risk
        },
        keeps: None,
    };
    assert_eq!(
        e.to_string(),
        "Latency: `aws.gp3` may be slower than today's storage: at the up to 0.50 ms its published class allows: random_read could grade B- (A today); no feasible tier of this platform keeps today's grades."
    );
    assert_eq!(
        Explanation::LatencyKept { latency_ms: 0.5 }.to_string(),
        "Latency: even at the up to 0.5 ms its published class allows, it keeps every measured grade of the IO report card."
    );
    let mut f = FlashVsHdd {
        flash_tier: "onprem.efd.raid10".into(),
        flash_drives: 4,
        flash_for_iops: 1,
        hdd_tier: "onprem.hdd15k.raid10".into(),
        hdd_drives: 4,
        hdd_for_iops: 2,
        flash_iops_in_hdd_drives: 30.0,
        power_saving_per_io_pct: 98.0,
        source: "EMC 2008".into(),
    };
    assert_eq!(
        Explanation::FlashVsHdd(f.clone()).to_string(),
        "Flash vs 15K for the same load: `onprem.efd.raid10` needs 4 drives and `onprem.hdd15k.raid10` 4 drives (1 and 2 for the IOPS alone): the load is too small for the drive count to differ (RAID minimums or capacity set both); the published claim is one flash drive ≈ the IOPS of 30 15K drives at 98 % less power per IO (EMC 2008)."
    );
    f.hdd_drives = 8;
    assert_eq!(
        Explanation::FlashVsHdd(f).to_string(),
        "Flash vs 15K for the same load: `onprem.efd.raid10` needs 4 drives, `onprem.hdd15k.raid10` 8 drives: 4 more drive slots (2.0× the drives) for 15K; the published claim is one flash drive ≈ the IOPS of 30 15K drives at 98 % less power per IO (EMC 2008)."
    );
    assert_eq!(
        Explanation::NoHostTypeFits {
            platform: "aws".into(),
            sized_iops: 30000.0,
            sized_mb_s: 491.52
        }
        .to_string(),
        "No catalogued aws host type drives 30,000 IOPS and 491.52 MB/s; add yours as an [[instance]] in a --rules copy."
    );
    assert_eq!(
        Explanation::HostTypeTooSmall {
            instance: "r5.4xlarge".into(),
            sized_iops: 30000.0,
            sized_mb_s: 491.52,
            fits: vec![("m5.8xlarge".into(), 30000.0, 850.0)]
        }
        .to_string(),
        "r5.4xlarge cannot drive 30,000 IOPS and 491.52 MB/s; the smallest catalogued host types that can (one per family): m5.8xlarge (30,000 IOPS, 850.00 MB/s)."
    );
}

#[test]
fn lost_because_each_reason() {
    let l = |parts: Vec<Lost>| LostBecause::Ranked(parts).to_string();
    assert_eq!(
        LostBecause::Infeasible(None).to_string(),
        "not feasible: limits exceeded"
    );
    assert_eq!(
        LostBecause::Infeasible(Some(Infeasible::DrivesOverMax {
            drives: 300.0,
            max_drives: 256
        }))
        .to_string(),
        "not feasible: needs 300 drives > max_drives 256 ([onprem] in sizing.toml)"
    );
    assert_eq!(
        l(vec![Lost::UnpricedAgainstPriced {
            higher_score: Some((2, vec!["sub-ms".into()]))
        }]),
        "no list price in the catalogue, so it cannot be costed against priced tiers (its rule score +2 is higher: sub-ms)"
    );
    assert_eq!(
        l(vec![
            Lost::RuleScore {
                score: 0,
                winner_score: 1,
                winner_preferred: Some(("onprem.efd.raid10".into(), vec!["flash".into()])),
                avoided_by: vec!["hdd".into()],
            },
            Lost::MoreUnits {
                count: 8,
                winner_count: 4
            }
        ]),
        "rule score +0 < +1 (`onprem.efd.raid10` preferred by flash) (avoided by hdd); needs more units (8 vs 4)"
    );
    assert_eq!(
        l(vec![Lost::CostsMore {
            usd: 40.1,
            winner_usd: 30.0
        }]),
        "costs $10.10/month more ($40.10/month vs $30.00/month)"
    );
    assert_eq!(
        l(vec![Lost::CheaperButRanked {
            usd: 30.0,
            winner_usd: 40.1
        }]),
        "$10.10/month cheaper ($30.00/month vs $40.10/month), but ranked lower by rule"
    );
    assert_eq!(
        l(vec![Lost::SameCostMoreUnits {
            count: 2,
            winner_count: 1
        }]),
        "same cost, more units (2 vs 1)"
    );
    assert_eq!(
        l(vec![Lost::SameCostCatalogueOrder]),
        "same cost; catalogue order"
    );
    assert_eq!(
        l(vec![Lost::UnpricedRanksAfter]),
        "no list price in the catalogue, so it ranks after every priced tier"
    );
    assert_eq!(
        l(vec![Lost::MoreRawCapacity {
            gib: 14305.0,
            winner_gib: 2980.0
        }]),
        "no list prices: same unit count, more raw capacity (14,305 vs 2,980 GiB)"
    );
    assert_eq!(
        l(vec![Lost::UnpricedCatalogueOrder]),
        "no list price to compare; catalogue order"
    );
    let risk = LatencyRisk {
        tier_ms: 9.0,
        worse: vec![("log_write_small".into(), "D".into(), grade("A-", "A-"))],
    };
    assert_eq!(
        l(vec![Lost::Latency(risk)]),
        "at the up to 9 ms its published class allows: log_write_small could grade D (A- today)"
    );
}

#[test]
fn cost_notes_and_option_notes() {
    assert_eq!(
        CostNote::OnpremArray.to_string(),
        "no public list price for on-premises arrays"
    );
    assert_eq!(
        CostNote::Catalogue("priced per quote".into()).to_string(),
        "priced per quote"
    );
    assert_eq!(
        CostNote::NotInCatalogue.to_string(),
        "no list price in the catalogue"
    );
    assert_eq!(
        json(&CostNote::RowUnpriced { row: "P30".into() }),
        "no list price for size P30 in the catalogue"
    );
    assert_eq!(
        OptionNote::Catalogue("drive size is an assumption".into()).to_string(),
        "drive size is an assumption"
    );
    let n = OptionNote::RuleNotApplied(RuleNotApplied {
        rule: "r".into(),
        why: NotAppliedBecause::OverMaxUnits {
            count: 1,
            unit: Unit::Volume,
            max_units: 0,
        },
    });
    assert_eq!(
        json(&n),
        "rule r not applied: needs 1 volume, more than its max_units 0"
    );
    // An infeasible option: the limit that applied, with its numbers.
    let n = OptionNote::RuleNotApplied(RuleNotApplied {
        rule: "r".into(),
        why: NotAppliedBecause::Infeasible(Some(Infeasible::DrivesOverMax {
            drives: 168.0,
            max_drives: 120,
        })),
    });
    assert_eq!(
        json(&n),
        "rule r not applied: the tier does not meet the demand (needs 168 drives > max_drives 120 ([onprem] in sizing.toml))"
    );
}

#[test]
fn rule_outcomes() {
    let m = RuleMessage(vec![
        MessagePart::Text("cache read-hit ".into()),
        MessagePart::Number {
            value: 80.0,
            decimals: Some(2),
        },
        MessagePart::Text(" % < ".into()),
        MessagePart::Number {
            value: 95.0,
            decimals: None,
        },
        MessagePart::Text(" %, at most ".into()),
        MessagePart::Count(4),
        MessagePart::Text(" drives; latency ".into()),
        MessagePart::Unknown,
        MessagePart::Text(" ".into()),
        MessagePart::Missing,
    ]);
    assert_eq!(
        m.to_string(),
        "cache read-hit 80.00 % < 95 %, at most 4 drives; latency unknown ?"
    );
    let c = FalseCondition {
        metric: Metric::CacheHitPct,
        value: 96.5,
        op: Op::Lt,
        threshold: 95.0,
    };
    assert_eq!(c.to_string(), "cache_hit_pct = 96.50 is not < 95");
    assert_eq!(json(&c), "cache_hit_pct = 96.50 is not < 95");
    let ne = NotEvaluatedRule {
        id: "x".into(),
        unknown_metrics: vec!["cache_hit_pct".into(), "log_write_ms".into()],
    };
    assert_eq!(
        not_evaluated_reason(&ne.unknown_metrics),
        "cache_hit_pct unknown, log_write_ms unknown"
    );
    assert_eq!(
        serde_json::to_string(&ne).unwrap(),
        r#"{"id":"x","reason":"cache_hit_pct unknown, log_write_ms unknown","unknown_metrics":["cache_hit_pct","log_write_ms"]}"#
    );
}

#[test]
fn recommendation_notes() {
    let cases: Vec<(Note, &str)> = vec![
        (
            Note::HeadroomIgnored {
                given: -5.0,
                default_pct: 30.0,
            },
            "headroom -5 % ignored (must be a finite number >= 0); default 30 % used",
        ),
        (
            Note::NotFiniteNonNegative {
                name: "read_iops".into(),
                value: f64::NAN,
            },
            "read_iops = NaN is not a finite non-negative number: taken as unknown",
        ),
        (
            Note::SplitUnknownAllWrites,
            "read/write split unknown (read_iops + write_iops unknown or 0): all required IOPS treated as writes (worst case for RAID)",
        ),
        (
            Note::ThroughputUnknown {
                read_known: false,
                write_known: false,
            },
            "throughput unknown: tiers checked on IOPS only",
        ),
        (
            Note::ThroughputUnknown {
                read_known: true,
                write_known: false,
            },
            "write throughput unknown: tiers checked on IOPS and read throughput only (a lower bound of the throughput needed)",
        ),
        (
            Note::RequiredAboveReadWrite {
                required: 1100.0,
                read_write: 1000.0,
                decimals: 2,
            },
            "required IOPS 1,100.00 exceed read + write 1,000.00 by 100.00: the difference (a formula term such as redo writes) is counted as writes",
        ),
        (
            Note::RequiredBelowReadWrite {
                required: 900.0,
                read_write: 1000.0,
                decimals: 0,
                factor: 0.9,
            },
            "required IOPS 900 are below read + write 1,000: reads and writes scaled by 0.9000 for the RAID back-end",
        ),
        (
            Note::CapacityIgnored { given: -1.0 },
            "capacity_gib = -1 ignored (not a positive number)",
        ),
        (
            Note::CapacityNotGiven,
            "capacity not given: sizes are the minimum for IOPS and throughput",
        ),
        (
            Note::UnknownPlatform {
                given: "ibm".into(),
                known: vec!["onprem".into(), "aws".into()],
            },
            "unknown platform \"ibm\" ignored (known: onprem, aws)",
        ),
        (
            Note::InstanceOtherPlatform {
                instance: "r5.4xlarge".into(),
                platform: "aws".into(),
            },
            "instance r5.4xlarge caps aws volumes, and aws is not among the targets: it changes nothing here",
        ),
        (
            Note::UnknownInstance {
                given: "x1".into(),
                known: vec!["m5.8xlarge".into()],
            },
            "instance \"x1\" is not in the catalogue ([[instance]]); no instance cap applied (known: m5.8xlarge)",
        ),
    ];
    for (n, words) in cases {
        assert_eq!(n.to_string(), words);
        assert_eq!(json(&n), words);
    }
}

#[test]
fn report_card_basis_and_note() {
    use crate::rules::grade::{BasisFigure, CardNote, GradeBasis, LogWriteSize};
    let wait = |by: &str| BasisFigure::WaitEvent {
        measured_by: by.into(),
        event: None,
        waits: None,
        bounds: None,
    };
    // As printed in the golden report card of a corpus AWR report.
    let b = GradeBasis {
        figure: wait("log_write_ms"),
        p95_ms: Some((0.0, 1.0)),
        log_write: Some(LogWriteSize::Kib(15.7)),
        from_cache_below_ms: None,
    };
    let words = "p95 between 0 and 1 ms from the Wait Event Histogram (graded); average 'log file parallel write' wait, average log write 15.7 KiB";
    assert_eq!(b.to_string(), words);
    assert_eq!(json(&b), words);
    let b = GradeBasis {
        figure: wait("single_block_read_ms"),
        p95_ms: Some((16.0, f64::INFINITY)),
        log_write: None,
        from_cache_below_ms: None,
    };
    assert_eq!(
        b.to_string(),
        "p95 above 16 ms from the Wait Event Histogram (graded); average 'db file sequential read' wait"
    );
    let b = GradeBasis {
        figure: wait("log_write_ms"),
        p95_ms: None,
        log_write: Some(LogWriteSize::Unknown),
        from_cache_below_ms: None,
    };
    assert_eq!(
        b.to_string(),
        "average 'log file parallel write' wait; log write size unknown: graded on both scales"
    );
    // Exadata (azure-lab1-dbu, Foreground Wait Events (Global)): the cell event and its waits.
    let b = GradeBasis {
        figure: BasisFigure::WaitEvent {
            measured_by: "single_block_read_ms".into(),
            event: Some("cell single block physical read".into()),
            waits: Some(276_639_951.0),
            bounds: None,
        },
        p95_ms: Some((0.512, 1.0)),
        log_write: None,
        from_cache_below_ms: None,
    };
    assert_eq!(
        b.to_string(),
        "p95 between 0.512 and 1 ms from the Wait Event Histogram (graded); average 'cell single block physical read' wait over 276,639,951 waits"
    );
    let b = GradeBasis {
        figure: BasisFigure::NotThisScale {
            avg_log_write_kib: 0.94,
        },
        p95_ms: None,
        log_write: None,
        from_cache_below_ms: None,
    };
    assert_eq!(
        b.to_string(),
        "not this scale: the average log write is 0.9 KiB"
    );
    let b = GradeBasis {
        figure: BasisFigure::NotMeasured,
        p95_ms: None,
        log_write: None,
        from_cache_below_ms: None,
    };
    assert_eq!(b.to_string(), "not measured");
    let b = GradeBasis {
        figure: BasisFigure::Given("r_await of the host total".into()),
        p95_ms: None,
        log_write: None,
        from_cache_below_ms: None,
    };
    assert_eq!(b.to_string(), "r_await of the host total");
    assert!(CardNote::P95Grades
        .to_string()
        .starts_with("grades are for 95th-percentile latency: "));
}
