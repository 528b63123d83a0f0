//! Validating the `[[instance]]` tables of `rules/tiers.toml`: ids, platform, caps (positive, per
//! tier on the instance's platform, never above the platform cap), tiers with an unknown cap
//! (known tiers, not also capped or unavailable), vCPUs, memory and source.

use std::collections::HashSet;

use super::catalog::{Instance, Platform};
use super::position::Check;
use crate::rules::RulesError;

/// Checks every `[[instance]]`; `tiers` = (tier id, platform id) of the catalogue's tiers.
pub(crate) fn check_instances(
    c: &Check<'_>,
    instances: &[Instance],
    platforms: &[Platform],
    tiers: &[(&str, &str)],
) -> Result<(), RulesError> {
    let mut inst_ids = HashSet::new();
    for (i, n) in instances.iter().enumerate() {
        let k = format!("instance[{i}]");
        c.text(&format!("{k}.id"), &n.id)?;
        if !inst_ids.insert((n.platform.clone(), n.id.to_ascii_lowercase())) {
            return Err(c.err(
                format!("{k}.id"),
                format!("duplicate instance \"{}\"", n.id),
            ));
        }
        if !platforms.iter().any(|p| p.id == n.platform) {
            return Err(c.err(
                format!("{k}.platform"),
                format!("unknown platform \"{}\"", n.platform),
            ));
        }
        c.pos(&format!("{k}.max_iops"), n.max_iops)?;
        c.pos(&format!("{k}.max_mb_s"), n.max_mb_s)?;
        if n.vcpus == Some(0) {
            return Err(c.err(format!("{k}.vcpus"), "must be at least 1"));
        }
        if let Some(m) = n.memory_gib {
            c.pos(&format!("{k}.memory_gib"), m)?;
        }
        check_under_platform_cap(c, &k, n, platforms)?;
        for (j, tc) in n.tier_caps.iter().enumerate() {
            c.pos(&format!("{k}.tier_caps[{j}].max_iops"), tc.max_iops)?;
            c.pos(&format!("{k}.tier_caps[{j}].max_mb_s"), tc.max_mb_s)?;
            match tiers.iter().find(|t| t.0 == tc.tier) {
                None => {
                    return Err(c.err(
                        format!("{k}.tier_caps[{j}].tier"),
                        format!("unknown tier \"{}\"", tc.tier),
                    ))
                }
                Some(t) if t.1 != n.platform => {
                    return Err(c.err(
                        format!("{k}.tier_caps[{j}].tier"),
                        format!(
                            "tier \"{}\" is on platform \"{}\", not the instance's \"{}\"",
                            tc.tier, t.1, n.platform
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
        for (j, t) in n.tiers_unavailable.iter().enumerate() {
            if !tiers.iter().any(|x| x.0 == t) {
                return Err(c.err(
                    format!("{k}.tiers_unavailable[{j}]"),
                    format!("unknown tier \"{t}\""),
                ));
            }
        }
        for (j, t) in n.tier_caps_unknown.iter().enumerate() {
            let key = format!("{k}.tier_caps_unknown[{j}]");
            if !tiers.iter().any(|x| x.0 == t) {
                return Err(c.err(key, format!("unknown tier \"{t}\"")));
            }
            if n.tiers_unavailable.contains(t) || n.tier_caps.iter().any(|tc| &tc.tier == t) {
                return Err(c.err(
                    key,
                    format!("tier \"{t}\" is also in tiers_unavailable or tier_caps: a cap is unknown only where none is given"),
                ));
            }
        }
        c.text(&format!("{k}.source"), &n.source)?;
    }
    Ok(())
}

/// A host type's caps (its own and per tier) may not exceed its platform's `instance_max_iops` /
/// `instance_max_mb_s`: the platform cap is the most its largest catalogued host can drive.
fn check_under_platform_cap(
    c: &Check<'_>,
    k: &str,
    n: &Instance,
    platforms: &[Platform],
) -> Result<(), RulesError> {
    let Some(p) = platforms.iter().find(|p| p.id == n.platform) else {
        return Ok(());
    };
    let caps = std::iter::once((k.to_string(), n.max_iops, n.max_mb_s)).chain(
        n.tier_caps
            .iter()
            .enumerate()
            .map(|(j, t)| (format!("{k}.tier_caps[{j}]"), t.max_iops, t.max_mb_s)),
    );
    for (key, iops, mb_s) in caps {
        for (what, v, cap) in [
            ("max_iops", iops, p.instance_max_iops),
            ("max_mb_s", mb_s, p.instance_max_mb_s),
        ] {
            if let Some(cap) = cap.filter(|cap| v > *cap + 1e-9) {
                return Err(c.err(
                    format!("{key}.{what}"),
                    format!(
                        "{v} is above platform \"{}\" instance_{what} {cap}: the platform cap is the most its largest host can drive",
                        p.id
                    ),
                ));
            }
        }
    }
    Ok(())
}
