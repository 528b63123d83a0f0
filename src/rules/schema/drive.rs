//! Validation of the on-premises parts of `tiers.toml`: `[[drive]]`, `[[raid]]` and
//! `[[link]]` tables, and the link a drive's `interface` names.

use super::catalog::{DriveSpec, LinkSpec, RaidSpec};
use super::position::Check;
use crate::rules::RulesError;

/// Check one drive's figures (`k` is its TOML key).
pub(crate) fn check_drive(c: &Check<'_>, k: &str, d: &DriveSpec) -> Result<(), RulesError> {
    c.pos(&format!("{k}.iops"), d.iops)?;
    if let Some(v) = d.latency_ms {
        c.pos(&format!("{k}.latency_ms"), v)?;
    }
    c.pos(&format!("{k}.size_gb"), d.size_gb)?;
    if let Some(v) = d.seq_read_mb_s {
        c.pos(&format!("{k}.seq_read_mb_s"), v)?;
    }
    if let Some(v) = d.seq_write_mb_s {
        c.pos(&format!("{k}.seq_write_mb_s"), v)?;
    }
    for (i, s) in d.size.iter().enumerate() {
        let k = format!("{k}.size[{i}]");
        c.text(&format!("{k}.name"), &s.name)?;
        c.pos(&format!("{k}.size_gb"), s.size_gb)?;
        c.pos(&format!("{k}.iops"), s.iops)?;
        if let Some(v) = s.seq_read_mb_s {
            c.pos(&format!("{k}.seq_read_mb_s"), v)?;
        }
        if let Some(v) = s.seq_write_mb_s {
            c.pos(&format!("{k}.seq_write_mb_s"), v)?;
        }
        c.text(&format!("{k}.source"), &s.source)?;
    }
    c.text(&format!("{k}.source"), &d.source)
}

/// Check one RAID layout.
pub(crate) fn check_raid(c: &Check<'_>, k: &str, r: &RaidSpec) -> Result<(), RulesError> {
    c.text(&format!("{k}.level"), &r.level)?;
    c.num(&format!("{k}.write_penalty"), r.write_penalty, 1.0, true)?;
    if r.group_width == 0 {
        return Err(c.err(format!("{k}.group_width"), "must be at least 1"));
    }
    if r.data_drives_per_group == 0 || r.data_drives_per_group > r.group_width {
        return Err(c.err(
            format!("{k}.data_drives_per_group"),
            format!("must be 1..={} (group_width)", r.group_width),
        ));
    }
    if r.min_drives == 0 {
        return Err(c.err(format!("{k}.min_drives"), "must be at least 1"));
    }
    c.text(&format!("{k}.source"), &r.source)
}

/// Check one `[[link]]`.
pub(crate) fn check_link(c: &Check<'_>, k: &str, l: &LinkSpec) -> Result<(), RulesError> {
    c.text(&format!("{k}.id"), &l.id)?;
    c.text(&format!("{k}.name"), &l.name)?;
    if l.lanes == 0 {
        return Err(c.err(format!("{k}.lanes"), "must be at least 1"));
    }
    c.pos(&format!("{k}.mb_s"), l.mb_s)?;
    c.text(&format!("{k}.derivation"), &l.derivation)?;
    c.text(&format!("{k}.source"), &l.source)
}

/// Fill `d.link` from the `[[link]]` its `interface` names; an unknown id is an error.
pub(crate) fn resolve_link(
    c: &Check<'_>,
    k: &str,
    d: &mut DriveSpec,
    links: &[LinkSpec],
) -> Result<(), RulesError> {
    let Some(id) = d.interface.as_deref() else {
        return Ok(());
    };
    match links.iter().find(|l| l.id == id) {
        Some(l) => {
            d.link = Some(l.clone());
            Ok(())
        }
        None => {
            let known: Vec<&str> = links.iter().map(|l| l.id.as_str()).collect();
            Err(c.err(
                format!("{k}.interface"),
                format!(
                    "no [[link]] with id \"{id}\" (known: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            ))
        }
    }
}
