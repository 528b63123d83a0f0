//! `rules/vsan.toml`: vSAN storage policies (front-end to back-end IO amplification, hosts,
//! capacity) and the thresholds of the disk-group and policy advice. Data, not code: every number
//! carries its `source` (see the file).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The built-in `rules/vsan.toml`.
pub const BUILTIN_VSAN_TOML: &str = include_str!("../../rules/vsan.toml");

/// One vSAN storage policy.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VsanPolicy {
    /// Stable id (`raid1-ftt1`, `raid5`, …).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Back-end reads per front-end read (1 in normal operation).
    pub backend_reads_per_read: f64,
    /// Back-end reads per front-end write (erasure coding reads data and parity).
    pub backend_reads_per_write: f64,
    /// Back-end writes per front-end write (copies, or data + parity fragments).
    pub backend_writes_per_write: f64,
    /// Raw capacity per usable byte.
    pub capacity_multiplier: f64,
    /// Fewest hosts (fault domains) the policy needs.
    pub min_hosts: u32,
    /// Erasure coding needs all-flash disk groups (vSAN OSA).
    pub all_flash_only: bool,
    /// Where the numbers come from.
    pub source: String,
}

impl VsanPolicy {
    /// Back-end IOs per front-end write (reads + writes).
    pub fn write_amplification(&self) -> f64 {
        self.backend_reads_per_write + self.backend_writes_per_write
    }
}

/// Thresholds of the advice.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VsanChoice {
    /// Lowest read-cache hit rate (%) at which hybrid disk groups serve the reads.
    pub hybrid_min_read_cache_hit_pct: f64,
    /// Its source.
    pub hybrid_source: String,
    /// Highest write share (% of front-end IOPS) at which erasure coding is preferred.
    pub erasure_coding_max_write_share_pct: f64,
    /// Its source.
    pub erasure_coding_source: String,
}

/// SAP HANA-style KPIs (optional checks).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HanaKpis {
    /// Highest acceptable write latency for the log volume, ms.
    pub log_write_latency_max_ms: f64,
    /// Its source.
    pub log_write_latency_source: String,
    /// Log volume throughput, MB/s (10^6 B/s).
    pub log_throughput_min_mb_s: f64,
    /// Data volume read throughput, MB/s.
    pub data_read_throughput_min_mb_s: f64,
    /// Data volume write throughput, MB/s.
    pub data_write_throughput_min_mb_s: f64,
    /// Source of the throughput figures.
    pub throughput_source: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Meta {
    as_of: String,
    #[allow(dead_code)]
    source: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    meta: Meta,
    policy: Vec<VsanPolicy>,
    choice: VsanChoice,
    hana: HanaKpis,
    sources: BTreeMap<String, String>,
}

/// The parsed `vsan.toml`.
#[derive(Debug, Clone)]
pub struct VsanRules {
    /// Policies in file order.
    pub policies: Vec<VsanPolicy>,
    /// Advice thresholds.
    pub choice: VsanChoice,
    /// SAP HANA-style KPIs for the optional checks.
    pub hana: HanaKpis,
    /// Source keys → full citations.
    pub sources: BTreeMap<String, String>,
    /// `as_of` of the file.
    pub as_of: String,
}

impl VsanRules {
    /// Parses a `vsan.toml` text; `file` names it in errors.
    ///
    /// # Errors
    /// A one-line message with the file, the TOML position and the problem; a policy whose
    /// amplification or capacity is not a positive number, or that cites no source.
    pub fn parse(text: &str, file: &str) -> Result<VsanRules, String> {
        let f: File = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        for p in &f.policy {
            let ok = [
                p.backend_reads_per_read,
                p.backend_writes_per_write,
                p.capacity_multiplier,
            ]
            .iter()
            .all(|v| v.is_finite() && *v > 0.0)
                && p.backend_reads_per_write.is_finite()
                && p.backend_reads_per_write >= 0.0;
            if !ok {
                return Err(format!(
                    "{file}: policy '{}': amplification and capacity must be positive numbers",
                    p.id
                ));
            }
            if p.source.trim().is_empty() {
                return Err(format!("{file}: policy '{}': no source", p.id));
            }
        }
        if f.policy.is_empty() {
            return Err(format!("{file}: no [[policy]]"));
        }
        Ok(VsanRules {
            policies: f.policy,
            choice: f.choice,
            hana: f.hana,
            sources: f.sources,
            as_of: f.meta.as_of,
        })
    }

    /// The built-in rules.
    ///
    /// # Panics
    /// Never for the shipped file (a test parses it).
    pub fn builtin() -> VsanRules {
        VsanRules::parse(BUILTIN_VSAN_TOML, "<built-in>/rules/vsan.toml")
            .expect("the built-in rules/vsan.toml parses")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_parses_and_every_number_is_sourced() {
        let r = VsanRules::builtin();
        assert_eq!(r.policies.len(), 5);
        let ftt1 = &r.policies[0];
        assert_eq!(
            (ftt1.id.as_str(), ftt1.write_amplification()),
            ("raid1-ftt1", 2.0)
        );
        let raid5 = r.policies.iter().find(|p| p.id == "raid5").unwrap();
        assert_eq!(raid5.write_amplification(), 4.0);
        let raid6 = r.policies.iter().find(|p| p.id == "raid6").unwrap();
        assert_eq!(raid6.write_amplification(), 6.0);
        // Every source key cited in a policy is defined under [sources].
        for p in &r.policies {
            let cited: Vec<&String> = r
                .sources
                .keys()
                .filter(|k| p.source.contains(k.as_str()))
                .collect();
            assert!(!cited.is_empty(), "{}: cites no known source", p.id);
        }
        for s in [
            &r.choice.hybrid_source,
            &r.choice.erasure_coding_source,
            &r.hana.log_write_latency_source,
            &r.hana.throughput_source,
        ] {
            assert!(r.sources.keys().any(|k| s.contains(k.as_str())), "{s}");
        }
    }

    #[test]
    fn bad_policy_is_refused() {
        let t = BUILTIN_VSAN_TOML.replacen(
            "backend_writes_per_write = 2",
            "backend_writes_per_write = -2",
            1,
        );
        let e = VsanRules::parse(&t, "x.toml").unwrap_err();
        assert!(e.contains("raid1-ftt1"), "{e}");
    }
}
